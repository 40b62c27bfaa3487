import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/auth/api-keys.js";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import {
  type Body,
  empty,
  HOUR,
  iso,
  MIN,
  ROWS,
  row,
  T0,
  T1,
} from "./helpers/http-metrics-rows.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

describe("GET /v1/http-metrics", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let ingestKey: string;
  let otherKey: string;
  const WINDOW = `time_range=10m&from=${T0}&to=${T0 + 10 * MIN}`;

  const get = async (query: string, apiKey = key) => {
    const response = await service.fetch(`/v1/http-metrics?${query}`, {
      headers: { "x-api-key": apiKey },
    });
    return { status: response.status, body: (await response.json()) as Body };
  };
  const ok = async (query: string, apiKey = key) => {
    const { status, body } = await get(query, apiKey);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const badField = async (query: string) => {
    const { status, body } = await get(query);
    expect(status, JSON.stringify(body)).toBe(400);
    return body.errors?.map((e) => e.field);
  };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "http@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    const system = { deps: service.deps.domain, actor: { kind: "system" as const } };
    ingestKey = (
      await createApiKey({
        ctx: system,
        projectId: setup.projectId,
        input: { name: "i", role: "ingest" },
      })
    ).key;
    const other = await addProjectWithKey(service, setup.orgId, "prj_other_http");
    otherKey = other.key;
    await service.deps.telemetry.insert("http_requests", [
      ...ROWS.map((r) => row(setup.projectId, r)),
      // Another project's traffic in the same minutes: never part of project A's answers.
      row(other.projectId, [
        0,
        "checkout",
        "GET",
        "/secret",
        503,
        1000,
        1000,
        1000,
        1,
        1,
        { 0: 1000 },
      ]),
    ]);
    // Two server spans through OTLP ingestion, summarized into http_requests by the ingest path.
    const span = (id: number, status: number, ms: number) => ({
      traceId: id.toString(16).padStart(32, "0"),
      spanId: id.toString(16).padStart(16, "0"),
      name: "GET /items/{id}",
      kind: 2,
      startTimeUnixNano: String(BigInt(T1 + MIN) * 1_000_000n),
      endTimeUnixNano: String(BigInt(T1 + MIN + ms) * 1_000_000n),
      attributes: [
        { key: "http.request.method", value: { stringValue: "GET" } },
        { key: "http.route", value: { stringValue: "/items/{id}" } },
        { key: "http.response.status_code", value: { intValue: status } },
      ],
    });
    const ingested = await service.fetch("/v1/traces", {
      method: "POST",
      headers: { "x-api-key": ingestKey, "content-type": "application/json" },
      body: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: "service.name", value: { stringValue: "items" } }] },
            scopeSpans: [{ spans: [span(1, 200, 12), span(2, 500, 40)] }],
          },
        ],
      }),
    });
    expect(ingested.status).toBe(200);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("answers per-minute buckets, every one present, with merged counts and percentiles", async () => {
    const body = await ok(WINDOW);
    expect(body.from).toBe(iso(T0));
    expect(body.to).toBe(iso(T0 + 10 * MIN));
    expect(body.resolution).toBe("1m");
    expect(body.bucketSeconds).toBe(60);
    expect(body.series).toEqual([
      // 7 requests: ≤5: 1, ≤10: 1, ≤25: 3, ≤50: 1, ≤400: 1; min 5, max 400
      { time: iso(T0), count: 7, errors: 1, errorRate: 1 / 7, p50Ms: 17.5, p95Ms: 365, p99Ms: 393 },
      empty(1),
      empty(2),
      // 3 requests ≤5 ms, observed between 1 and 2 ms
      {
        time: iso(T0 + 3 * MIN),
        count: 3,
        errors: 0,
        errorRate: 0,
        p50Ms: 1.5,
        p95Ms: 1.95,
        p99Ms: 1.99,
      },
      ...[4, 5, 6, 7, 8].map(empty),
      // 200 ms, 800 ms and 70 s: the open last bucket ends at the observed max
      {
        time: iso(T0 + 9 * MIN),
        count: 3,
        errors: 1,
        errorRate: 1 / 3,
        p50Ms: 875,
        p95Ms: 68500,
        p99Ms: 69700,
      },
    ]);
  });

  it("totals the window from the merged histogram", async () => {
    const { totals } = await ok(WINDOW);
    expect(totals).toEqual({
      count: 13,
      errors: 2,
      errorRate: 2 / 13,
      avgMs: 5500.385, // 71505 / 13
      minMs: 1,
      maxMs: 70000,
      p50Ms: 17.5, // rank 6.5: 1.5 of 3 in (10, 25]
      p95Ms: 63500, // rank 12.35: 0.35 of 1 in (60000, 70000]
      p99Ms: 68700,
      requestsPerMinute: 1.3,
    });
  });

  it("breaks down by route, busiest first, and by status class", async () => {
    const body = await ok(WINDOW);
    expect(body.routes).toEqual([
      // 200 ×2 rows and 404: 8 requests; p95 rank 7.6 in (25, 50] capped at the max 30
      {
        method: "GET",
        route: "/cart",
        service: "checkout",
        count: 8,
        errors: 0,
        errorRate: 0,
        avgMs: 13,
        p50Ms: 10,
        p95Ms: 28,
        p99Ms: 29.6,
      },
      {
        method: "POST",
        route: "/pay",
        service: "checkout",
        count: 3,
        errors: 1,
        errorRate: 1 / 3,
        avgMs: 466.667,
        p50Ms: 350,
        p95Ms: 792.5,
        p99Ms: 798.5,
      },
      {
        method: "GET",
        route: "/old",
        service: "api",
        count: 1,
        errors: 0,
        errorRate: 0,
        avgMs: 1,
        p50Ms: 1,
        p95Ms: 1,
        p99Ms: 1,
      },
      {
        method: "GET",
        route: "/stream",
        service: "api",
        count: 1,
        errors: 1,
        errorRate: 1,
        avgMs: 70000,
        p50Ms: 70000,
        p95Ms: 70000,
        p99Ms: 70000,
      },
    ]);
    expect(body.routeCount).toBe(4);
    expect(body.statusClasses).toEqual({ "2xx": 8, "3xx": 1, "4xx": 2, "5xx": 1, other: 1 });
  });

  it("filters by service", async () => {
    const body = await ok(`${WINDOW}&service=api`);
    expect(body.totals).toMatchObject({
      count: 2,
      errors: 1,
      errorRate: 0.5,
      minMs: 1,
      maxMs: 70000,
    });
    expect(body.series.filter((b) => b.count > 0).map((b) => [b.time, b.count])).toEqual([
      [iso(T0 + 3 * MIN), 1],
      [iso(T0 + 9 * MIN), 1],
    ]);
    expect(body.routes.map((r) => r.route)).toEqual(["/old", "/stream"]);
    expect(body.statusClasses).toEqual({ "2xx": 0, "3xx": 1, "4xx": 0, "5xx": 0, other: 1 });
    expect((await ok(`${WINDOW}&service=nobody`)).totals).toMatchObject({
      count: 0,
      avgMs: null,
      p50Ms: null,
    });
  });

  it("includes the minute before when the window starts there, and never the minute at `to`", async () => {
    const body = await ok(`time_range=10m&from=${T0 - MIN}&to=${T0 + 10 * MIN}`);
    expect(body.series).toHaveLength(11);
    expect(body.series[0]).toMatchObject({ time: iso(T0 - MIN), count: 100 });
    expect(body.totals.count).toBe(113);
    expect(body.totals.requestsPerMinute).toBe(10.273); // 113 / 11
  });

  it("answers hourly buckets for 1h, and picks 1m up to 6 hours and 1h beyond by default", async () => {
    const hourly = await ok(`time_range=2h&from=${T0}&to=${T0 + 2 * HOUR}&resolution=1h`);
    expect(hourly.bucketSeconds).toBe(3600);
    expect(hourly.series.map((b) => [b.time, b.count, b.errors, b.p50Ms])).toEqual([
      [iso(T0), 63, 2, 3.333], // rank 31.5 of 54 in (0, 5], from the min 1
      [iso(T0 + HOUR), 0, 0, null],
    ]);
    const sixHours = await ok(`time_range=6h&to=${T0 + HOUR}`);
    expect([sixHours.resolution, sixHours.series.length]).toEqual(["1m", 360]);
    const sevenHours = await ok(`time_range=7h&to=${T0 + HOUR}`);
    expect([sevenHours.resolution, sevenHours.series.length]).toEqual(["1h", 7]);
    expect(sevenHours.series.slice(-3).map((b) => b.count)).toEqual([2, 100, 63]);
  });

  it("summarizes server spans ingested over OTLP", async () => {
    const body = await ok(`time_range=5m&from=${T1}&to=${T1 + 5 * MIN}`);
    expect(body.series[1]).toMatchObject({ count: 2, errors: 1, errorRate: 0.5 });
    // 12 ms in (10, 25] and 40 ms in (25, 50]; the edges clamp to 12 and 40
    expect(body.totals).toMatchObject({ count: 2, avgMs: 26, p50Ms: 25, p95Ms: 38.5, p99Ms: 39.7 });
    expect(body.routes).toEqual([
      {
        method: "GET",
        route: "/items/{id}",
        service: "items",
        count: 2,
        errors: 1,
        errorRate: 0.5,
        avgMs: 26,
        p50Ms: 25,
        p95Ms: 38.5,
        p99Ms: 39.7,
      },
    ]);
    expect(body.statusClasses).toEqual({ "2xx": 1, "3xx": 0, "4xx": 0, "5xx": 1, other: 0 });
  });

  it("refuses a missing time_range, a bad resolution and an absurd bucket count, naming the parameter", async () => {
    expect(await badField(`from=${T0}&to=${T0 + MIN}`)).toEqual(["time_range"]);
    expect(await badField("")).toEqual(["time_range"]);
    expect(await badField("time_range=yesterday")).toEqual(["time_range"]);
    expect(await badField("time_range=1h&resolution=5m")).toEqual(["resolution"]);
    expect(await badField("time_range=365d")).toEqual(["time_range"]);
    expect(await badField(`time_range=1h&from=${T0 - 400 * 24 * HOUR}&to=${T0}`)).toEqual(["from"]);
    expect(await badField(`time_range=1h&from=${T0}&to=${T0 - MIN}`)).toEqual(["from"]);
    expect(await badField("time_range=1h&from=soon")).toEqual(["from"]);
    // Unknown parameters are refused too (the shared handler names the querystring).
    expect(await badField("time_range=1h&limit=5")).toEqual(["limit"]);
    // The edges that are allowed: 36 hours of minutes, 90 days of hours.
    expect((await get(`time_range=36h&resolution=1m&to=${T0}`)).status).toBe(200);
    expect((await get(`time_range=90d&to=${T0}`)).status).toBe(200);
  });

  it("coarsens a resolution too fine for the window to the finest that fits, and says so", async () => {
    // The spec lists both values: 30d at 1m (43,200 buckets) is answered at 1h, not refused.
    const coarse = await ok(`time_range=30d&resolution=1m&to=${T0 + HOUR}`);
    expect(coarse).toMatchObject({
      resolution: "1h",
      requestedResolution: "1m",
      bucketSeconds: 3600,
      notice: expect.stringContaining("1m over this window gives 43200 buckets"),
    });
    expect(coarse.series).toHaveLength(30 * 24);
    expect(coarse.series.slice(-3).map((b) => b.count)).toEqual([2, 100, 63]);
    // As asked when it fits, and no notice.
    const asked = await ok(`time_range=36h&resolution=1m&to=${T0}`);
    expect(asked).toMatchObject({ resolution: "1m", requestedResolution: "1m", notice: null });
    const defaulted = await ok(`time_range=7h&to=${T0 + HOUR}`);
    expect(defaulted).toMatchObject({ resolution: "1h", requestedResolution: null, notice: null });
  });

  it("never shows another project's traffic, and checks the key and its permission", async () => {
    const other = await ok(WINDOW, otherKey);
    expect(other.totals).toMatchObject({ count: 1000, errors: 1000 });
    expect(other.routes.map((r) => r.route)).toEqual(["/secret"]);
    const mine = await ok(`${WINDOW}&service=checkout`);
    expect(mine.routes.map((r) => r.route)).not.toContain("/secret");
    expect((await get(WINDOW, "vgl_not_a_real_key_000000000")).status).toBe(401);
    expect((await service.fetch(`/v1/http-metrics?${WINDOW}`)).status).toBe(401);
    expect((await get(WINDOW, ingestKey)).status).toBe(403);
  });
});
