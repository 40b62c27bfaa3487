import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compilePreset } from "../src/alerts/presets.js";
import { checkAlertQuery, type SeriesSample, seriesFromResult } from "../src/alerts/query-check.js";
import { systemCtx } from "../src/context.js";
import { InvalidInputError } from "../src/lib/domain-errors.js";
import { initialize } from "../src/setup/initialize.js";
import { compileTql } from "../src/tql/compile.js";
import { PROJECT_PARAM } from "../src/tql/printer.js";
import { attrs, hexId, logsBody, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

/** Every alert preset compiled to TQL and run on the real engine over freshly ingested data. */
describe("alert presets over ingested data", () => {
  const dir = makeTempDir();
  let service: TestService;
  let projectId: string;
  const t = Date.now() - 60_000;

  const run = async (kind: string, params: Record<string, unknown>): Promise<SeriesSample[]> => {
    const { query } = compilePreset({ kind, params });
    const labels = await checkAlertQuery(service.deps.tql, projectId, query);
    const result = await service.deps.tql.query(projectId, query);
    const samples = seriesFromResult(result);
    for (const s of samples) expect(Object.keys(s.labels)).toEqual(labels);
    return samples.sort((a, b) => a.seriesKey.localeCompare(b.seriesKey));
  };
  const values = (samples: SeriesSample[], label: string) =>
    Object.fromEntries(samples.map((s) => [s.labels[label], s.value]));

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "presets@example.com",
        password: "correct horse battery",
      },
    });
    projectId = setup.projectId;
    const key = setup.apiKey ?? "";
    const span = (n: number, route: string, durationMs: number, error = false) => ({
      traceId: hexId(n, 32),
      spanId: hexId(n, 16),
      name: `GET ${route}`,
      kind: 2,
      startMs: t + n,
      durationMs,
      error,
      attributes: {
        "http.request.method": "GET",
        "http.route": route,
        "http.response.status_code": error ? 500 : 200,
      },
      events: error
        ? [
            {
              name: "exception",
              timeMs: t + n,
              attributes: { "exception.type": "CheckoutError", "exception.message": "declined" },
            },
          ]
        : [],
    });
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [
        span(1, "/orders", 10),
        span(2, "/orders", 20),
        span(3, "/orders", 30),
        span(4, "/orders", 400, true),
      ]),
    );
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("web", [span(5, "/home", 5), span(6, "/home", 7)]),
    );
    const logs = (n: number, body: string, severityNumber = 17) =>
      Array.from({ length: n }, (_, i) => ({
        timeMs: t + i,
        severityNumber,
        body: `${body} ${i}`,
      }));
    await sendOtlp(
      service,
      key,
      "logs",
      logsBody("api", [...logs(3, "payment timeout"), ...logs(2, "ok", 9)]),
    );
    await sendOtlp(service, key, "logs", logsBody("web", logs(1, "Payment TIMEOUT")));
    const point = (value: number, host: string, offset: number) => ({
      timeUnixNano: String(BigInt(t + offset) * 1_000_000n),
      asDouble: value,
      attributes: attrs({ "host.name": host }),
    });
    await sendOtlp(service, key, "metrics", {
      resourceMetrics: [
        {
          resource: { attributes: attrs({ "service.name": "worker" }) },
          scopeMetrics: [
            {
              metrics: [
                {
                  name: "queue.depth",
                  gauge: {
                    dataPoints: [
                      point(4, "w1", 0),
                      point(9, "w1", 1000),
                      point(2, "w1", 2000),
                      point(3, "w2", 0),
                    ],
                  },
                },
              ],
            },
          ],
        },
      ],
    });
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("checks a query's columns with LIMIT 0, which reads no rows", async () => {
    const query = compilePreset({ kind: "log_count", params: { groupBy: "service" } }).query;
    const { telemetry } = service.deps;
    const limited = compileTql(query, { database: telemetry.database, rowCap: 0 });
    const params = { ...limited.params, [PROJECT_PARAM]: projectId };
    const described = await telemetry.queryCompact(limited.sql, { params });
    expect(described.rows).toEqual([]);
    expect(described.rowsRead).toBe(0);
    expect(described.columns.map((c) => c.name)).toEqual(["service", "value"]);
    // The same query run for real reads the logs.
    const full = compileTql(query, { database: telemetry.database, rowCap: 10 });
    const ran = await telemetry.queryCompact(full.sql, {
      params: { ...full.params, [PROJECT_PARAM]: projectId },
    });
    expect(ran.rowsRead).toBeGreaterThan(0);
  });

  it("error_rate: failed over all HTTP requests in percent (as the Overview), per service", async () => {
    expect(values(await run("error_rate", { groupBy: "service" }), "service")).toEqual({
      api: 25,
      web: 0,
    });
    expect(await run("error_rate", { service: "api", route: "/orders" })).toEqual([
      { seriesKey: "{}", labels: {}, value: 25 },
    ]);
    // No requests at all is no data (null), not a rate of 0.
    expect(await run("error_rate", { service: "none" })).toEqual([
      { seriesKey: "{}", labels: {}, value: null },
    ]);
  });

  it("latency_percentile: a percentile of server span durations, per route", async () => {
    const p99 = values(
      await run("latency_percentile", { percentile: 99, groupBy: "route" }),
      "route",
    );
    expect(p99["/orders"]).toBeGreaterThan(300);
    expect(p99["/home"]).toBeLessThanOrEqual(7);
    const [median] = await run("latency_percentile", { percentile: 50, service: "web" });
    expect(median?.value).toBeCloseTo(6, 0);
  });

  it("log_count: records of a level matching a search, any case, per service", async () => {
    expect(
      values(
        await run("log_count", { level: "error", search: "timeout", groupBy: "service" }),
        "service",
      ),
    ).toEqual({ api: 3, web: 1 });
    expect(values(await run("log_count", { groupBy: "level" }), "level")).toEqual({
      error: 4,
      info: 2,
    });
    expect((await run("log_count", { search: '"no such phrase"' }))[0]?.value).toBe(0);
  });

  it("error_group_occurrences: occurrences of the active groups seen in the window", async () => {
    const groups = await run("error_group_occurrences", { groupBy: "error_id" });
    expect(groups.length).toBeGreaterThanOrEqual(2);
    for (const g of groups) expect(g.labels.error_id).toMatch(/^[0-9a-f]{32}$/);
    const checkout = await service.deps.tql.query(
      projectId,
      "SELECT fingerprint FROM error_groups WHERE exception_type = 'CheckoutError'",
    );
    const errorId = String(checkout.rows[0]?.[0]);
    expect(await run("error_group_occurrences", { errorId })).toEqual([
      { seriesKey: "{}", labels: {}, value: 1 },
    ]);
    expect((await run("error_group_occurrences", { service: "web" }))[0]?.value).toBe(1);
  });

  it("metric_aggregate: max, last and count of a metric, per attribute", async () => {
    const max = await run("metric_aggregate", {
      metric: "queue.depth",
      aggregation: "max",
      groupBy: "host.name",
    });
    expect(values(max, "host_name")).toEqual({ w1: 9, w2: 3 });
    const last = await run("metric_aggregate", {
      metric: "queue.depth",
      aggregation: "last",
      groupBy: "host.name",
    });
    expect(values(last, "host_name")).toEqual({ w1: 2, w2: 3 });
    expect(
      values(
        await run("metric_aggregate", {
          metric: "queue.depth",
          aggregation: "count",
          groupBy: "service",
        }),
        "service",
      ),
    ).toEqual({ worker: 4 });
    expect(await run("metric_aggregate", { metric: "absent.metric" })).toEqual([
      { seriesKey: "{}", labels: {}, value: null },
    ]);
  });

  it("metric_aggregate refuses a groupBy whose label would shadow a metrics column or `value`", () => {
    for (const groupBy of [
      "metric_name",
      "metric.name",
      "service_name",
      "timestamp",
      "value",
      "min",
    ]) {
      let field: string | undefined;
      try {
        compilePreset({ kind: "metric_aggregate", params: { metric: "queue.depth", groupBy } });
      } catch (error) {
        field = error instanceof InvalidInputError ? error.issues[0]?.field : undefined;
      }
      expect(field, groupBy).toBe("preset.params.groupBy");
    }
    const { query } = compilePreset({
      kind: "metric_aggregate",
      params: { metric: "queue.depth", groupBy: "host.name" },
    });
    expect(query).toContain("AS host_name");
  });
});
