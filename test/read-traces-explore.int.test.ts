import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, type SpanSpec, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
/** The stats window: ten whole minutes an hour ago, so its buckets are the minutes. */
const T0 = Math.floor(Date.now() / MIN) * MIN - HOUR;
const WINDOW = `from=${T0}&to=${T0 + 10 * MIN}`;
const tid = (n: number) => hexId(n, 32);
const sid = (n: number) => hexId(n, 16);

/** Traces: T1 gold /cart 100 ms, T2 failed /cart 300 ms, T3 staging /pay 50 ms, T4 billing, TB /cart 900 ms. */
const T1 = tid(1);
const T2 = tid(2);
const T3 = tid(3);
const T4 = tid(4);
const T5 = tid(5);
const TB = tid(6);
const OLD = tid(7);

const server = (
  traceId: string,
  n: number,
  name: string,
  route: string,
  startMs: number,
  durationMs: number,
  extra: Partial<SpanSpec> = {},
): SpanSpec => ({
  traceId,
  spanId: sid(n),
  name,
  kind: 2,
  startMs,
  durationMs,
  ...extra,
  attributes: { "http.route": route, ...extra.attributes },
});
const query = (
  traceId: string,
  n: number,
  parent: number,
  startMs: number,
  durationMs: number,
) => ({
  traceId,
  spanId: sid(n),
  parentSpanId: sid(parent),
  name: "SELECT cart",
  kind: 3,
  startMs,
  durationMs,
  attributes: { "db.system": "postgresql" },
});
const filters = (list: unknown[]) => `filters=${encodeURIComponent(JSON.stringify(list))}`;

type Json = Record<string, unknown> & {
  data: { traceId: string }[];
  errors?: { field: string }[];
};

describe("traces explorer: filters, stats, group-by, baselines", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let otherKey: string;

  const get = async (path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const ids = async (params: string, apiKey = key) => {
    const { status, body } = await get(`/v1/traces?${WINDOW}&${params}`, apiKey);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data.map((t) => t.traceId).sort();
  };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: { email: "explore@example.com", password: "correct horse battery" },
    });
    key = setup.apiKey ?? "";
    otherKey = (await addProjectWithKey(service, setup.orgId, "prj_other_explore")).key;
    const at = (minutes: number) => T0 + minutes * MIN;
    const prod = { "deployment.environment": "prod" };
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody(
        "shop",
        [
          server(T1, 0x11, "GET /cart", "/cart", at(0.5), 100, {
            attributes: { "customer.tier": "gold", "retry.count": 3 },
          }),
          query(T1, 0x12, 0x11, at(0.5) + 10, 20),
          server(T2, 0x21, "GET /cart", "/cart", at(1.5), 300, {
            error: true,
            attributes: { "customer.tier": "silver" },
          }),
          query(T2, 0x22, 0x21, at(1.5) + 10, 40),
          server(TB, 0x61, "GET /cart", "/cart", at(5), 900),
          query(TB, 0x62, 0x61, at(5) + 10, 80),
          {
            traceId: TB,
            spanId: sid(0x63),
            parentSpanId: sid(0x61),
            name: "render",
            startMs: at(5) + 100,
            durationMs: 5,
          },
          server(T5, 0x51, "GET /cart", "/cart", at(20), 200),
          // More than 24 h before TB: outside its baseline.
          server(OLD, 0x71, "GET /cart", "/cart", at(5) - 25 * HOUR, 5000),
        ],
        prod,
      ),
    );
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody(
        "shop",
        [server(T3, 0x31, "POST /pay", "/pay", at(1.7), 50, { attributes: { "retry.count": 1 } })],
        { "deployment.environment": "staging" },
      ),
    );
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("billing", [server(T4, 0x41, "charge", "/charge", at(3.2), 700)], prod),
    );
    // Another project's spans, in the same window and with the same names: never counted here.
    await sendOtlp(
      service,
      otherKey,
      "traces",
      tracesBody("shop", [
        server(tid(0xf1), 0xf1, "GET /cart", "/cart", at(1), 10, {
          attributes: { "customer.tier": "gold" },
        }),
      ]),
    );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("filters traces by span and resource attributes, existence and numbers", async () => {
    expect(await ids("")).toEqual([T1, T2, T3, T4, TB]);
    const tier = { field: "attributes.customer.tier", op: "=", value: "gold" };
    expect(await ids(filters([tier]))).toEqual([T1]);
    expect(await ids(filters([{ ...tier, op: "!=", value: "" }]))).toEqual([T1, T2]);
    expect(await ids(filters([{ ...tier, op: "in", value: ["gold", "silver"] }]))).toEqual([
      T1,
      T2,
    ]);
    const env = { field: "resource.deployment.environment", op: "=", value: "staging" };
    expect(await ids(filters([env]))).toEqual([T3]);
    expect(await ids(filters([{ field: "attributes.db.system", op: "exists" }]))).toEqual([
      T1,
      T2,
      TB,
    ]);
    const retries = { field: "attributes.retry.count", op: ">", value: 2 };
    expect(await ids(filters([retries]))).toEqual([T1]);
    expect(await ids(filters([{ ...retries, op: ">=", value: 1 }]))).toEqual([T1, T3]);
    expect(await ids(filters([{ field: "http_route", op: "regex", value: "^/c" }]))).toEqual([
      T1,
      T2,
      T4,
      TB,
    ]);
    expect(
      await ids(filters([{ field: "operation_name", op: "contains", value: "select" }])),
    ).toEqual([T1, T2, TB]);
    // One span must match every filter: the db span has no tier, the tiered span no db.system.
    expect(await ids(filters([tier, { field: "attributes.db.system", op: "exists" }]))).toEqual([]);
    expect(await ids(`service=billing&${filters([env])}`)).toEqual([]);
    // `service` is its own span (traces through it), as the service map's edge links expect.
    const cart = { field: "http_route", op: "=", value: "/cart" };
    expect(
      await ids(
        `service=shop&${filters([cart, { field: "span_kind", op: "=", value: "server" }])}`,
      ),
    ).toEqual([T1, T2, TB]);
    expect(await ids(`service=billing&${filters([cart])}`)).toEqual([]);
  });

  it("filters traces by span kind and a duration range", async () => {
    expect(await ids("span_kind=client")).toEqual([T1, T2, TB]);
    expect(await ids("span_kind=client&service=billing")).toEqual([]);
    expect(await ids("span_kind=server&service=billing")).toEqual([T4]);
    expect(await ids("min_duration=100&max_duration=300")).toEqual([T1, T2]);
    expect(await ids("max_duration=60")).toEqual([T3]);
    expect(await ids("min_duration=700")).toEqual([T4, TB]);
    expect(await ids("status=error&max_duration=300")).toEqual([T2]);
  });

  it("refuses a filter on a field traces do not have, naming it", async () => {
    const bad = await get(`/v1/traces?${filters([{ field: "nope", op: "=", value: "x" }])}`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.field).toBe("filters.0.field");
    const second = await get(
      `/v1/traces/stats?${filters([
        { field: "http_route", op: "=", value: "/a" },
        { field: "level", op: "exists" },
      ])}`,
    );
    expect(second.status).toBe(400);
    expect(second.body.errors?.[0]?.field).toBe("filters.1.field");
    for (const [path, field] of [
      ["/v1/traces?filters=nope", "filters"],
      [
        `/v1/traces?${filters([{ field: "duration_ms", op: ">", value: "slow" }])}`,
        "filters.0.value",
      ],
      [
        `/v1/traces/group-by?${filters([{ field: "http_status_code", op: "=", value: "abc" }])}`,
        "filters.0.value",
      ],
      ["/v1/traces?span_kind=sideways", "span_kind"],
      ["/v1/traces?max_duration=-1", "max_duration"],
      ["/v1/traces/group-by?by=nope", "by"],
      ["/v1/traces/group-by?by=span_id", "by"],
      [
        `/v1/traces?${filters([{ field: "http_route", op: "regex", value: "(" }])}`,
        "filters.0.value",
      ],
      ["/v1/traces/group-by?by=http_route&sort_by=median", "sort_by"],
    ] as const) {
      const { status, body } = await get(path);
      expect(status, path).toBe(400);
      expect(body.errors?.[0]?.field, path).toBe(field);
    }
  });

  it("answers span stats per bucket and over the window, as computed by hand", async () => {
    const { status, body } = await get(`/v1/traces/stats?${WINDOW}&service=shop&span_kind=server`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 10 * MIN).toISOString(),
      bucketSeconds: 60,
    });
    const series = body.series as Record<string, unknown>[];
    expect(series).toHaveLength(10);
    // Minute 0: T1's 100 ms; minute 1: T2 (300 ms, failed) and T3 (50 ms); minute 5: TB's 900 ms.
    expect(series[0]).toEqual({
      time: new Date(T0).toISOString(),
      count: 1,
      rate: 1 / 60,
      errors: 0,
      errorRate: 0,
      p50Ms: 100,
      p95Ms: 100,
      p99Ms: 100,
    });
    // Linear interpolation between the sorted durations (50, 300): rank q × (n − 1).
    expect(series[1]).toMatchObject({ count: 2, errors: 1, errorRate: 0.5, p50Ms: 175 });
    expect(series[1]?.p95Ms).toBeCloseTo(287.5, 3);
    expect(series[1]?.p99Ms).toBeCloseTo(297.5, 3);
    expect(series[2]).toMatchObject({ count: 0, rate: 0, errors: 0, p50Ms: null, p99Ms: null });
    expect(series[5]).toMatchObject({ count: 1, p50Ms: 900 });
    // All four: 50, 100, 300, 900.
    expect(body.totals).toMatchObject({ count: 4, rate: 4 / 600, errors: 1, errorRate: 0.25 });
    const totals = body.totals as Record<string, number>;
    expect(totals.p50Ms).toBeCloseTo(200, 3);
    expect(totals.p95Ms).toBeCloseTo(810, 3);
    expect(totals.p99Ms).toBeCloseTo(882, 3);

    const gold = await get(
      `/v1/traces/stats?${WINDOW}&${filters([{ field: "attributes.customer.tier", op: "=", value: "gold" }])}`,
    );
    expect(gold.body.totals).toMatchObject({ count: 1, p50Ms: 100 });
    const failed = await get(`/v1/traces/stats?${WINDOW}&status=error`);
    expect(failed.body.totals).toMatchObject({ count: 1, errors: 1, p50Ms: 300 });
    const slowSpans = await get(`/v1/traces/stats?${WINDOW}&min_duration=80&max_duration=300`);
    // 100 (T1), 300 (T2), 80 (TB's query): span durations, not the traces'.
    expect(slowSpans.body.totals).toMatchObject({ count: 3, p50Ms: 100 });
    const other = await get(`/v1/traces/stats?${WINDOW}`, otherKey);
    expect(other.body.totals).toMatchObject({ count: 1, p50Ms: 10 });
  });

  it("groups spans by a column or an attribute, sorted by any figure", async () => {
    const url = (params: string) => `/v1/traces/group-by?${WINDOW}&span_kind=server&${params}`;
    const { status, body } = await get(url("by=http_route&sort_by=p95"));
    expect(status, JSON.stringify(body)).toBe(200);
    const groups = body.groups as Record<string, unknown>[];
    // /cart: 100, 300, 900 → p95 at rank 1.9: 300 + 0.9 × 600.
    expect(groups.map((g) => [g.value, g.count, g.errors])).toEqual([
      ["/cart", 3, 1],
      ["/charge", 1, 0],
      ["/pay", 1, 0],
    ]);
    expect(groups[0]?.p95Ms).toBeCloseTo(840, 3);
    expect(groups[0]).toMatchObject({ p50Ms: 300, rate: 3 / 600, errorRate: 1 / 3 });
    expect(body).toMatchObject({ by: "http_route", groupCount: 3, spanCount: 5 });
    const ascending = await get(url("by=http_route&sort_by=p95&sort_order=asc&limit=2"));
    expect((ascending.body.groups as { value: string }[]).map((g) => g.value)).toEqual([
      "/pay",
      "/charge",
    ]);
    expect(ascending.body).toMatchObject({ groupCount: 3, spanCount: 5, groupsCapped: false });
    const byCount = await get(url("by=http_route"));
    expect((byCount.body.groups as { value: string }[]).map((g) => g.value)).toEqual([
      "/cart",
      "/charge",
      "/pay",
    ]);
    const envs = await get(url("by=resource.deployment.environment&sort_by=value&sort_order=asc"));
    expect((envs.body.groups as Record<string, unknown>[]).map((g) => [g.value, g.count])).toEqual([
      ["prod", 4],
      ["staging", 1],
    ]);
    const tiers = await get(
      `/v1/traces/group-by?${WINDOW}&by=attributes.customer.tier&service=shop&sort_by=value&sort_order=asc`,
    );
    expect((tiers.body.groups as Record<string, unknown>[]).map((g) => [g.value, g.count])).toEqual(
      [
        ["", 6],
        ["gold", 1],
        ["silver", 1],
      ],
    );
    const foreign = await get(`/v1/traces/group-by?${WINDOW}&by=http_route`, otherKey);
    expect(foreign.body).toMatchObject({ groupCount: 1, spanCount: 1 });
  });

  it("compares a trace's operations with their usual durations over the 24 h before it", async () => {
    const { status, body } = await get(`/v1/traces/${TB}/baselines`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      traceId: TB,
      to: new Date(T0 + 5 * MIN).toISOString(),
      from: new Date(T0 + 5 * MIN - 24 * HOUR).toISOString(),
      truncated: false,
    });
    // GET /cart before TB: T1 (100) and T2 (300); the 5 s one is 25 h old, T5 comes later.
    expect(body.operations).toEqual([
      { service: "shop", operation: "GET /cart", count: 2, p50Ms: 200, p95Ms: 290 },
      { service: "shop", operation: "SELECT cart", count: 2, p50Ms: 30, p95Ms: 39 },
      { service: "shop", operation: "render", count: 0, p50Ms: null, p95Ms: null },
    ]);
    expect((await get(`/v1/traces/${TB}/baselines`, otherKey)).status).toBe(404);
    expect((await get(`/v1/traces/${tid(0x404)}/baselines`)).status).toBe(404);
  });
});
