import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import type { AttributeFieldList, AttributeValueList } from "../src/contracts/attributes.js";
import { initialize } from "../src/setup/initialize.js";
import { ATTRIBUTE_KEYS, ATTRIBUTE_VALUES } from "../src/telemetry/attribute-catalog-tables.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { attrs, hexId, logsBody, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addKey, addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

const MIN = 60_000;
const NOW = Date.now();
const LONG = "x".repeat(257);

interface Problem {
  status: number;
  errors?: { field: string }[];
}

/** The attribute catalog over HTTP: kept at ingestion, read per project and source. */
describe("GET /v1/attributes and /v1/attributes/values", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let otherKey: string;
  let projectId: string;

  const get = async <T>(path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return { status: response.status, body: (await response.json()) as T };
  };
  const ok = async <T>(path: string, apiKey = key): Promise<T> => {
    const { status, body } = await get<T>(path, apiKey);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const fields = (query: string, apiKey = key) =>
    ok<AttributeFieldList>(`/v1/attributes?${query}`, apiKey);
  const values = (query: string, apiKey = key) =>
    ok<AttributeValueList>(`/v1/attributes/values?${query}`, apiKey);
  const span = (n: number, attributes: Record<string, string | number>) => ({
    traceId: hexId(n, 32),
    spanId: hexId(n, 16),
    name: n % 2 ? "GET /users/:id" : "charge",
    startMs: NOW - 10 * MIN + n,
    durationMs: 5,
    kind: 2,
    attributes,
  });

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: { email: "catalog@example.com", password: "correct horse battery" },
    });
    key = setup.apiKey ?? "";
    projectId = setup.projectId;
    otherKey = (await addProjectWithKey(service, setup.orgId, "prj_other_catalog")).key;
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody(
        "checkout",
        [
          span(1, { "http.route": "/users/:id", "http.status_code": 200, "user.tier": "gold" }),
          span(2, { "http.route": "/users/:id", "http.status_code": 404, note: LONG }),
          span(3, { "http.route": "/cart", "http.status_code": 200, "user.tier": "Golden" }),
        ],
        { "host.name": "web-1" },
      ),
    );
    await sendOtlp(
      service,
      key,
      "logs",
      logsBody("checkout", [
        { timeMs: NOW - 5 * MIN, severityNumber: 17, body: "boom", attributes: { "job.id": "a1" } },
      ]),
    );
    await sendOtlp(service, key, "metrics", {
      resourceMetrics: [
        {
          resource: { attributes: attrs({ "service.name": "checkout", "host.name": "web-1" }) },
          scopeMetrics: [
            {
              metrics: [
                {
                  name: "queue.depth",
                  unit: "1",
                  gauge: {
                    dataPoints: [
                      {
                        timeUnixNano: String(BigInt(NOW - MIN) * 1_000_000n),
                        asDouble: 3,
                        attributes: attrs({ queue: "emails" }),
                      },
                    ],
                  },
                },
              ],
            },
          ],
        },
      ],
    });
    await sendOtlp(
      service,
      otherKey,
      "traces",
      tracesBody("secret-service", [span(9, { "secret.key": "hush", "user.tier": "platinum" })]),
    );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists a span's attribute keys, resource keys and columns after ingestion, most frequent first", async () => {
    const body = await fields("source=traces");
    const byName = new Map(body.fields.map((f) => [f.field, f]));
    expect(byName.get("attributes.http.route")).toEqual({
      field: "attributes.http.route",
      kind: "attribute",
      count: 3,
      numericCount: 0,
      numeric: false,
    });
    expect(byName.get("attributes.http.status_code")).toMatchObject({ count: 3, numeric: true });
    expect(byName.get("attributes.user.tier")).toMatchObject({ count: 2, kind: "attribute" });
    // A value too long to keep still counts its key.
    expect(byName.get("attributes.note")).toMatchObject({ count: 1 });
    expect(byName.get("resource.host.name")).toMatchObject({ count: 3, kind: "resource" });
    expect(byName.get("service_name")).toMatchObject({ count: 3, kind: "column" });
    expect(byName.get("span_kind")).toMatchObject({ count: 3 });
    const counts = body.fields.map((f) => f.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // Days, whole: the window read starts and ends at UTC midnight.
    expect(body.from.endsWith("T00:00:00.000Z") && body.to.endsWith("T00:00:00.000Z")).toBe(true);
  });

  it("finds fields containing q, case-insensitively, up to limit", async () => {
    const body = await fields("source=traces&q=TIER");
    expect(body.fields.map((f) => f.field)).toEqual(["attributes.user.tier"]);
    expect((await fields("source=traces&limit=2")).fields).toHaveLength(2);
    const logs = await fields("source=logs");
    expect(logs.fields.map((f) => f.field)).toEqual(
      expect.arrayContaining(["attributes.job.id", "level", "service_name", "source"]),
    );
    expect(logs.fields.map((f) => f.field)).not.toContain("attributes.http.route");
    const metrics = await fields("source=metrics");
    expect(metrics.fields.map((f) => f.field).sort()).toEqual([
      "attributes.queue",
      "metric_name",
      "metric_type",
      "resource.host.name",
      "resource.service.name",
      "service_name",
      "unit",
    ]);
    const names = await values("source=metrics&field=metric_name");
    expect(names.values).toEqual([{ value: "queue.depth", count: 1, numeric: false }]);
  });

  it("lists a field's values by count, with q matching anywhere in them", async () => {
    const routes = await values("source=traces&field=attributes.http.route");
    expect(routes.values).toEqual([
      { value: "/users/:id", count: 2, numeric: false },
      { value: "/cart", count: 1, numeric: false },
    ]);
    const tiers = await values("source=traces&field=attributes.user.tier&q=gold");
    expect(tiers.values.map((v) => v.value)).toEqual(["Golden", "gold"]);
    const status = [
      { value: "200", count: 2, numeric: true },
      { value: "404", count: 1, numeric: true },
    ];
    // The attribute, and the column ingestion fills from it.
    expect((await values("source=traces&field=attributes.http.status_code")).values).toEqual(
      status,
    );
    expect((await values("source=traces&field=http_status_code")).values).toEqual(status);
    // Values over 256 characters are not kept.
    expect((await values("source=traces&field=attributes.note")).values).toEqual([]);
    const services = await values("source=traces&field=service_name");
    expect(services.values).toEqual([{ value: "checkout", count: 3, numeric: false }]);
    // Without a source or a field: the traces' services.
    expect(await ok<AttributeValueList>("/v1/attributes/values")).toEqual(services);
    expect((await ok<AttributeFieldList>("/v1/attributes")).source).toBe("traces");
  });

  it("keeps no values of a field mostly distinct in one insert, and still counts it", async () => {
    // 150 records in one export: a request id and a byte count each their own, a tier of three.
    const records = Array.from({ length: 150 }, (_, i) => ({
      timeMs: NOW - 4 * MIN,
      severityNumber: 9,
      body: `request ${i}`,
      attributes: { "request.id": `req-${i}`, bytes: 1000 + i, tier: ["a", "b", "c"][i % 3] ?? "" },
    }));
    await sendOtlp(service, key, "logs", logsBody("gateway", records));
    const body = await fields("source=logs&limit=1000");
    const byName = new Map(body.fields.map((f) => [f.field, f]));
    expect(byName.get("attributes.request.id")).toMatchObject({ count: 150, numeric: false });
    expect(byName.get("attributes.bytes")).toMatchObject({
      count: 150,
      numericCount: 150,
      numeric: true,
    });
    for (const field of ["attributes.request.id", "attributes.bytes"])
      expect((await values(`source=logs&field=${field}`)).values).toEqual([]);
    const tiers = await values("source=logs&field=attributes.tier");
    expect(tiers.values.map((v) => [v.value, v.count])).toEqual([
      ["a", 50],
      ["b", 50],
      ["c", 50],
    ]);
    expect(tiers.complete).toBe(true);
  });

  it("answers the same whether the node's counts are written yet or not", async () => {
    const catalog = service.deps.ingest.catalog;
    const send = (route: string, n: number) =>
      sendOtlp(
        service,
        key,
        "traces",
        tracesBody(
          "checkout",
          Array.from({ length: n }, (_, i) => span(40 + i, { "pending.key": route })),
        ),
      );
    await catalog.flush();
    await send("/a", 3);
    await send("/c", 1);
    await catalog.flush();
    // Counts of /b and /c wait in the node: /c's both written (ranked second) and waiting.
    await send("/b", 2);
    await send("/c", 3);
    const read = async () => ({
      fields: (await fields("source=traces&q=pending&limit=5")).fields,
      values: (await values("source=traces&field=attributes.pending.key&limit=1")).values,
    });
    const unwritten = await read();
    expect(unwritten.fields).toEqual([
      {
        field: "attributes.pending.key",
        kind: "attribute",
        count: 9,
        numericCount: 0,
        numeric: false,
      },
    ]);
    expect(unwritten.values).toEqual([{ value: "/c", count: 4, numeric: false }]);
    await catalog.flush();
    expect(await read()).toEqual(unwritten);
  });

  it("never shows another project's keys or values", async () => {
    const mine = await fields("source=traces&limit=1000");
    expect(mine.fields.map((f) => f.field)).not.toContain("attributes.secret.key");
    const tiers = await values("source=traces&field=attributes.user.tier");
    expect(tiers.values.map((v) => v.value)).not.toContain("platinum");
    const theirs = await fields("source=traces", otherKey);
    expect(theirs.fields.map((f) => f.field)).toContain("attributes.secret.key");
    expect(theirs.fields.map((f) => f.field)).not.toContain("attributes.http.route");
  });

  it("refuses an unknown source, a field the source cannot have and bad limits, naming them", async () => {
    for (const [path, field] of [
      ["/v1/attributes?source=spans", "source"],
      ["/v1/attributes?source=", "source"],
      ["/v1/attributes/values?source=events&field=level", "source"],
      ["/v1/attributes/values?source=traces&field=duration", "field"],
      ["/v1/attributes/values?source=traces&field=", "field"],
      ["/v1/attributes?source=traces&limit=0", "limit"],
      ["/v1/attributes?source=traces&time_range=forever", "time_range"],
    ] as const) {
      const { status, body } = await get<Problem>(path);
      expect(status, path).toBe(400);
      expect(
        (body.errors ?? []).map((e) => e.field),
        path,
      ).toContain(field);
    }
  });

  it("asks the permission of the source: logs:read for logs, infra:read for metrics", async () => {
    const logsOnly = await addKey(service, projectId, {
      name: "logs only",
      permissions: ["logs:read"],
    });
    expect((await fields("source=logs", logsOnly)).fields.length).toBeGreaterThan(0);
    for (const path of [
      "/v1/attributes?source=traces",
      "/v1/attributes?source=metrics",
      "/v1/attributes/values?source=traces&field=service_name",
    ])
      expect((await get<Problem>(path, logsOnly)).status, path).toBe(403);
    expect((await get<Problem>("/v1/attributes?source=logs", "vgl_nope")).status).toBe(401);
  });

  it("answers the dashboard's session under the project, as the web calls it", async () => {
    const session = await signIn(service, "catalog@example.com", "correct horse battery");
    const response = await session.get(`/api/projects/${projectId}/v1/attributes?source=logs`);
    const body = (await response.json()) as AttributeFieldList;
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.fields.map((f) => f.field)).toContain("attributes.job.id");
    const values = await session.get(
      `/api/projects/${projectId}/v1/attributes/values?source=traces&field=attributes.http.route&q=cart`,
    );
    expect(((await values.json()) as AttributeValueList).values).toEqual([
      { value: "/cart", count: 1, numeric: false },
    ]);
  });

  it("fills the catalog from the last day when it is created over existing data", async () => {
    const telemetry = service.deps.telemetry;
    const db = telemetry.database;
    // Every count written: none waits in the node to be added to what the tables will hold.
    await service.deps.ingest.catalog.flush();
    for (const table of [ATTRIBUTE_KEYS, ATTRIBUTE_VALUES]) {
      for (const view of table.views) await telemetry.command(`DROP VIEW ${db}.${view.name}`);
      await telemetry.command(`TRUNCATE TABLE ${db}.${table.name}`);
    }
    expect((await fields("source=traces")).fields).toEqual([]);
    // An upgrade from a release without the catalog: its tables are new over the spans.
    for (const table of [ATTRIBUTE_KEYS, ATTRIBUTE_VALUES])
      await telemetry.command(`DROP TABLE ${db}.${table.name}`);
    await ensureTelemetrySchema(telemetry, { retentionDays: 30 });
    const body = await fields("source=traces&q=http.route");
    expect(body.fields).toMatchObject([{ field: "attributes.http.route", count: 3 }]);
    const routes = await values("source=traces&field=attributes.http.route");
    expect(routes.values.map((v) => [v.value, v.count])).toEqual([
      ["/users/:id", 2],
      ["/cart", 1],
    ]);
  });
});
