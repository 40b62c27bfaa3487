/**
 * The query builder's TQL on the embedded engine (chDB): a handful of generated queries over
 * hand-made spans, logs and metric points, with the numbers worked out by hand: counts,
 * quantiles, attribute sums, rates per bucket and over the window, the top groups as series,
 * and alert queries as the evaluator runs them (no window given; series read by readSeries).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSeries } from "../src/alerts/series.js";
import { BuilderQuery, type BuilderQueryInput } from "../src/contracts/query-builder.js";
import { type BuilderTarget, builderToTql } from "../src/contracts/query-builder-tql.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { createTqlService, type TqlService } from "../src/tql/tql-service.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const A = "prj_builder";
const OTHER = "prj_builder_other";
const DAY = "2026-03-01";
/** Two minutes: 10:00 to 10:02, one-minute buckets. */
const WINDOW = { from: `${DAY}T10:00:00Z`, to: `${DAY}T10:02:00Z`, bucket_seconds: 60 };

/** DateTime64(9) text of a time `ms` milliseconds from now. */
const ago = (ms: number) => new Date(Date.now() - ms).toISOString().replace("T", " ").slice(0, 23);

describe("query builder on the engine", () => {
  const dir = makeTempDir("vigil-builder-");
  let executor: TelemetryExecutor;
  let tql: TqlService;

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil" });
    await ensureTelemetrySchema(executor, { retentionDays: 3650 });
    let n = 0;
    const span = (
      project: string,
      timestamp: string,
      service: string,
      durationMs: number,
      attributes: Record<string, string>,
      status = "ok",
    ) => {
      n++;
      return {
        project_id: project,
        timestamp,
        end_timestamp: timestamp,
        trace_id: `${n % 3}`.padStart(32, "0"),
        span_id: `${n}`.padStart(16, "0"),
        service_name: service,
        operation_name: "GET",
        duration_ms: durationMs,
        status,
        attributes,
      };
    };
    const at = (time: string) => `${DAY} ${time}.000`;
    await executor.insert("traces", [
      // svc-a: 4 spans, 3 in the first minute; durations 10–40 ms; bytes 100–400.
      span(A, at("10:00:05"), "svc-a", 10, { "http.route": "/a", bytes: "100" }),
      span(A, at("10:00:15"), "svc-a", 20, { "http.route": "/a", bytes: "200" }),
      span(A, at("10:00:25"), "svc-a", 30, { "http.route": "/a", bytes: "300" }, "error"),
      span(A, at("10:01:05"), "svc-a", 40, { "http.route": "/a", bytes: "400" }),
      // svc-b: 2 spans, second minute; one without a route, one whose bytes are not a number.
      span(A, at("10:01:10"), "svc-b", 100, { "http.route": "/b", bytes: "n/a" }),
      span(A, at("10:01:20"), "svc-b", 200, {}),
      // Outside the window, and another project's.
      span(A, at("10:05:00"), "svc-a", 999, { "http.route": "/a" }),
      span(OTHER, at("10:00:30"), "svc-a", 5, { "http.route": "/a" }),
      // Recent spans for the alerts: 3 of svc-a errors a minute ago, one an hour ago.
      span(A, ago(60_000), "svc-a", 1, {}, "error"),
      span(A, ago(61_000), "svc-a", 1, {}, "error"),
      span(A, ago(62_000), "svc-b", 1, {}, "error"),
      span(A, ago(3_600_000), "svc-a", 1, {}, "error"),
    ]);
    await executor.insert("metrics", [
      {
        project_id: A,
        timestamp: ago(30_000),
        metric_name: "cpu",
        value: 0.5,
        attributes: { host: "h1" },
      },
      {
        project_id: A,
        timestamp: ago(20_000),
        metric_name: "cpu",
        value: 0.7,
        attributes: { host: "h1" },
      },
      {
        project_id: A,
        timestamp: ago(20_000),
        metric_name: "cpu",
        value: 0,
        attributes: { host: "h2" },
      },
    ]);
    tql = createTqlService({
      executor,
      limits: { maxExecutionSeconds: 20, maxMemoryBytes: 512 * 1024 ** 2, maxRowsToRead: 1e8 },
    });
  });
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  const run = async (input: BuilderQueryInput, target: BuilderTarget = "table") => {
    const text = builderToTql(BuilderQuery.parse(input), { target });
    const result =
      target === "alert"
        ? await tql.queryForAlert(A, text)
        : await tql.query(A, text, { parameters: WINDOW });
    return { columns: result.columns.map((c) => c.name), rows: result.rows, result };
  };

  it("counts, quantiles, attribute sums and distinct counts per group, in the window only", async () => {
    const { columns, rows } = await run({
      source: "traces",
      aggregations: [
        { fn: "count" },
        { fn: "p50", field: "duration_ms" },
        { fn: "sum", field: "attributes.bytes" },
        { fn: "count_distinct", field: "trace_id" },
        { fn: "max", field: "duration_ms" },
      ],
      groupBy: ["service_name"],
      orderBy: { by: 0, dir: "desc" },
    });
    expect(columns).toEqual([
      "service_name",
      "count",
      "p50_duration_ms",
      "sum_attributes_bytes",
      "count_distinct_trace_id",
      "max_duration_ms",
    ]);
    // "n/a" is no number: the sum of svc-b's bytes is NULL (no number at all).
    expect(rows).toEqual([
      ["svc-a", 4, 25, 1000, 3, 40],
      ["svc-b", 2, 150, null, 2, 200],
    ]);
  });

  it("filters: an attribute exists, a regex, a number comparison, an attribute in a list", async () => {
    const count = async (filters: BuilderQueryInput["filters"]) =>
      (await run({ source: "traces", filters, aggregations: [{ fn: "count" }] })).rows[0]?.[0];
    expect(await count([{ field: "attributes.http.route", op: "exists" }])).toBe(5);
    expect(await count([{ field: "service_name", op: "regex", value: "-b$" }])).toBe(2);
    expect(await count([{ field: "duration_ms", op: ">=", value: 30 }])).toBe(4);
    expect(await count([{ field: "attributes.bytes", op: ">", value: 150 }])).toBe(3);
    expect(await count([{ field: "attributes.http.route", op: "in", value: ["/b", "/x"] }])).toBe(
      1,
    );
    expect(
      await count([
        { field: "status", op: "!=", value: "error" },
        { field: "service_name", op: "not_contains", value: "B" },
      ]),
    ).toBe(3);
  });

  it("rates per second: per one-minute bucket, and over the two-minute window", async () => {
    const perBucket = await run({
      source: "traces",
      aggregations: [{ fn: "rate" }],
      bucket: "auto",
    });
    expect(perBucket.rows.map((r) => r[1])).toEqual([3 / 60, 3 / 60]);
    const overWindow = await run({ source: "traces", aggregations: [{ fn: "rate" }] });
    expect(overWindow.rows).toEqual([[6 / 120]]);
  });

  it("keeps the top groups as series: a limit of one keeps svc-a's buckets only", async () => {
    const { rows } = await run(
      {
        source: "traces",
        aggregations: [{ fn: "count" }],
        groupBy: ["service_name"],
        limit: 1,
        bucket: 60,
      },
      "chart",
    );
    expect(rows.map((r) => [r[1], r[2]])).toEqual([
      ["svc-a", 3],
      ["svc-a", 1],
    ]);
  });

  it("an alert's query counts the last minutes' errors per service, as the evaluator reads it", async () => {
    const { result } = await run(
      {
        source: "traces",
        filters: [{ field: "status", op: "=", value: "error" }],
        aggregations: [{ fn: "count" }],
        groupBy: ["service_name"],
      },
      "alert",
    );
    const series = readSeries(result).map((s) => [{ ...s.labels }, s.value]);
    expect(series.sort((a, b) => Number(b[1]) - Number(a[1]))).toEqual([
      [{ service_name: "svc-a" }, 2],
      [{ service_name: "svc-b" }, 1],
    ]);
  });

  it("an alert over metrics filtering on value: the average of the points above 0 per host", async () => {
    const { result } = await run(
      {
        source: "metrics",
        filters: [{ field: "value", op: ">", value: 0 }],
        aggregations: [{ fn: "avg", field: "value" }],
        groupBy: ["attributes.host"],
      },
      "alert",
    );
    expect(readSeries(result).map((s) => [{ ...s.labels }, s.value])).toEqual([
      [{ attributes_host: "h1" }, 0.6],
    ]);
  });
});
