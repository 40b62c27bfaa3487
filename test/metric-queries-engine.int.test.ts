/**
 * The metrics explorer's TQL (src/contracts/metric-queries-tql.ts) on the embedded engine, for
 * counters, gauges and summaries: points go in through the ingest mapping, the generated text
 * runs through the TQL service, and every expected number is worked out by hand in the comments
 * beside it (not by the code under test). Distributions: metric-histograms-engine.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricQueryInput } from "../src/contracts/metric-queries.js";
import { type MetricTarget, metricQueryTql } from "../src/contracts/metric-queries-tql.js";
import type { TqlService } from "../src/tql/tql-service.js";
import {
  bucket,
  CUMULATIVE,
  DELTA,
  metricStore,
  numberPoints,
  OTHER_PROJECT,
  PROJECT,
  resource,
  WINDOW,
} from "./helpers/metric-points.js";

const counter = (temporality: number, points: Parameters<typeof numberPoints>[0]) => ({
  name: "requests",
  unit: "1",
  sum: { aggregationTemporality: temporality, isMonotonic: true, dataPoints: numberPoints(points) },
});
const gauge = (name: string, points: Parameters<typeof numberPoints>[0]) => ({
  name,
  unit: "1",
  gauge: { dataPoints: numberPoints(points) },
});
const summary = (points: [string, number, number, number][]) => ({
  name: "latency",
  unit: "ms",
  summary: {
    dataPoints: points.map(([time, count, sum, p99]) => ({
      timeUnixNano: `${BigInt(Date.parse(`2026-03-01T${time}Z`)) * 1_000_000n}`,
      count,
      sum,
      quantileValues: [
        { quantile: 0.5, value: p99 / 2 },
        { quantile: 0.99, value: p99 },
      ],
    })),
  },
});

const START = "09:50:00";
const FIXTURE = [
  resource("h1", [
    // Series A, cumulative: 09:59:30 lies before the window (its previous point for 10:00:30).
    counter(CUMULATIVE, [
      ["09:59:30", 40, START, { cpu: "0" }],
      ["10:00:30", 100, START, { cpu: "0" }],
      ["10:01:30", 220, START, { cpu: "0" }],
      ["10:02:30", 30, START, { cpu: "0" }], // dropped: a reset, its increase is 30
      ["10:03:30", 90, START, { cpu: "0" }],
      ["10:04:30", 150, "10:04:00", { cpu: "0" }], // a new start: a reset although it rose
    ]),
    // Series B, cumulative, first seen in the window: no increase at its first point.
    counter(CUMULATIVE, [
      ["10:00:30", 10, START, { cpu: "1" }],
      ["10:01:30", 70, START, { cpu: "1" }],
    ]),
    gauge("temperature", [
      ["10:00:10", 1, undefined, { cpu: "0" }],
      ["10:00:40", 3, undefined, { cpu: "0" }],
      ["10:01:10", 5, undefined, { cpu: "0" }],
      ["10:00:20", 10, undefined, { cpu: "1" }],
    ]),
    summary([
      ["10:00:15", 10, 100, 20],
      ["10:00:45", 20, 220, 24],
      ["10:01:30", 30, 400, 30],
    ]),
  ]),
  resource("h2", [
    // Series C, delta: each point its interval's count (start to time, else since the previous).
    counter(DELTA, [
      ["10:00:30", 30, "09:59:30"],
      ["10:01:30", 90, "10:00:30"],
      ["10:02:30", 12, "10:02:18"],
      ["10:03:30", 60],
    ]),
    gauge("temperature", [["10:00:30", 100]]),
    summary([["10:00:30", 5, 50, 40]]),
  ]),
];

describe("metric queries on the engine: counters, gauges, summaries", () => {
  let tql: TqlService;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const now = Date.now();
    const recent = (minutesAgo: number) => String(BigInt(now - minutesAgo * 60_000) * 1_000_000n);
    const recentCounter = {
      name: "requests",
      sum: {
        aggregationTemporality: CUMULATIVE,
        isMonotonic: true,
        dataPoints: [0, 360].map((value, i) => ({
          timeUnixNano: recent(i === 0 ? 4 : 1),
          startTimeUnixNano: recent(30),
          asDouble: value,
        })),
      },
    };
    ({ tql, close } = await metricStore([
      { resourceMetrics: FIXTURE },
      { resourceMetrics: [resource("h9", [recentCounter])] },
      // Another project's points on the same host and metric never count.
      {
        project: OTHER_PROJECT,
        resourceMetrics: [resource("h1", [counter(DELTA, [["10:00:30", 6000, "09:59:30"]])])],
      },
    ]));
  });
  afterAll(async () => {
    await close?.();
  });

  const run = async (
    query: MetricQueryInput,
    {
      target = "chart",
      bucketSeconds = 60,
    }: { target?: MetricTarget; bucketSeconds?: number } = {},
  ) => {
    const text = metricQueryTql(query, target);
    const parameters = target === "chart" ? { ...WINDOW, bucket_seconds: bucketSeconds } : {};
    const result = await tql.query(PROJECT, text, { parameters });
    return { columns: result.columns.map((c) => c.name), rows: result.rows };
  };
  const REQUESTS = { metric: "requests", type: "sum", monotonic: true } as const;
  const BY_HOST = ["resource.host.name"];

  it("reads a counter as a rate per second, cumulative and delta, through resets", async () => {
    const { columns, rows } = await run({ ...REQUESTS, groupBy: BY_HOST });
    expect(columns).toEqual(["t", "host_name", "value"]);
    expect(rows).toEqual([
      // h1: A 100 − 40 over 60 s = 1. h2: C 30 over its 60 s = 0.5.
      [bucket("10:00:00"), "h1", 1],
      [bucket("10:00:00"), "h2", 0.5],
      // h1: A (220 − 100) / 60 = 2, plus B (70 − 10) / 60 = 1. h2: 90 / 60 = 1.5.
      [bucket("10:01:00"), "h1", 3],
      [bucket("10:01:00"), "h2", 1.5],
      // h1: A dropped to 30: 30 / 60 = 0.5. h2: 12 over its own 12 s = 1.
      [bucket("10:02:00"), "h1", 0.5],
      [bucket("10:02:00"), "h2", 1],
      // h1: (90 − 30) / 60 = 1. h2: 60 with no start, over the 60 s since its previous point.
      [bucket("10:03:00"), "h1", 1],
      [bucket("10:03:00"), "h2", 1],
      // h1: a new start time: the whole 150 / 60 = 2.5 (not (150 − 90) / 60 = 1).
      [bucket("10:04:00"), "h1", 2.5],
    ]);
  });

  it("divides each series' increases by its own seconds in a wider bucket, then sums", async () => {
    const { rows } = await run({ ...REQUESTS, groupBy: BY_HOST }, { bucketSeconds: 300 });
    expect(rows).toEqual([
      // h1: A (60 + 120 + 30 + 60 + 150) / 300 s = 1.4, plus B 60 / 60 s = 1.
      // h2: (30 + 90 + 12 + 60) / (60 + 60 + 12 + 60 s) = 192 / 192 = 1.
      [bucket("10:00:00"), "h1", 2.4],
      [bucket("10:00:00"), "h2", 1],
    ]);
  });

  it("sums a counter's increases per bucket, and all series without a group", async () => {
    const increase = await run({ ...REQUESTS, aggregation: "increase", groupBy: BY_HOST });
    expect(increase.rows.filter((r) => r[1] === "h1").map((r) => r[2])).toEqual([
      60,
      120 + 60,
      30,
      60,
      150,
    ]);
    const all = await run(REQUESTS);
    expect(all.columns).toEqual(["t", "value"]);
    // 10:00: 1 + 0.5; 10:01: 3 + 1.5.
    expect(all.rows.slice(0, 2)).toEqual([
      [bucket("10:00:00"), 1.5],
      [bucket("10:01:00"), 4.5],
    ]);
  });

  it("filters the points and groups by point attributes", async () => {
    const { columns, rows } = await run({
      ...REQUESTS,
      groupBy: ["attributes.cpu"],
      filters: [{ field: "resource.host.name", op: "=", value: "h1" }],
    });
    expect(columns).toEqual(["t", "cpu", "value"]);
    expect(rows.slice(0, 3)).toEqual([
      [bucket("10:00:00"), "0", 1],
      [bucket("10:01:00"), "0", 2],
      [bucket("10:01:00"), "1", 1],
    ]);
  });

  it("reads a gauge as the average, minimum, maximum, sum or last of its series", async () => {
    const at10 = async (aggregation: string) =>
      (
        await run({
          metric: "temperature",
          type: "gauge",
          aggregation,
          groupBy: BY_HOST,
        } as MetricQueryInput)
      ).rows
        .filter((r) => r[0] === bucket("10:00:00"))
        .map((r) => [r[1], r[2]]);
    // h1 at 10:00: cpu 0 has 1 and 3 (its mean 2), cpu 1 has 10. h2: 100.
    expect(await at10("avg")).toEqual([
      ["h1", (2 + 10) / 2],
      ["h2", 100],
    ]);
    expect(await at10("min")).toEqual([
      ["h1", 1],
      ["h2", 100],
    ]);
    expect(await at10("max")).toEqual([
      ["h1", 10],
      ["h2", 100],
    ]);
    expect(await at10("sum")).toEqual([
      ["h1", 2 + 10],
      ["h2", 100],
    ]);
    // The last of cpu 0 is 3 (at 10:00:40), of cpu 1 10: averaged across the series.
    expect(await at10("last")).toEqual([
      ["h1", (3 + 10) / 2],
      ["h2", 100],
    ]);
    const all = await run({ metric: "temperature", type: "gauge" });
    // The three series' means (2, 10, 100), then 10:01's only point, 5.
    expect(all.rows).toEqual([
      [bucket("10:00:00"), (2 + 10 + 100) / 3],
      [bucket("10:01:00"), 5],
    ]);
  });

  it("reads a summary's reported quantile, averaged across series, and its mean and rate", async () => {
    const p99 = await run({ metric: "latency", type: "summary", quantile: 0.99, groupBy: BY_HOST });
    expect(p99.rows).toEqual([
      [bucket("10:00:00"), "h1", (20 + 24) / 2],
      [bucket("10:00:00"), "h2", 40],
      [bucket("10:01:00"), "h1", 30],
    ]);
    const all = await run({ metric: "latency", type: "summary", quantile: 0.99 });
    // The series' own means first: h1 22, h2 40.
    expect(all.rows[0]).toEqual([bucket("10:00:00"), (22 + 40) / 2]);
    // The medians are half the p99s: h1 10 and 12 (its mean 11), h2 20.
    const median = await run({ metric: "latency", type: "summary", quantile: 0.5 });
    expect(median.rows[0]).toEqual([bucket("10:00:00"), (11 + 20) / 2]);
    // Summaries are cumulative: h1's sum and count grow 100 → 220 → 400 and 10 → 20 → 30.
    const avg = await run({ metric: "latency", type: "summary", aggregation: "avg" });
    expect(avg.rows).toEqual([
      [bucket("10:00:00"), (220 - 100) / (20 - 10)],
      [bucket("10:01:00"), (400 - 220) / (30 - 20)],
    ]);
    const rate = await run({ metric: "latency", type: "summary", aggregation: "rate" });
    // 10 more observations over 30 s, then over 45 s.
    expect(rate.rows).toEqual([
      [bucket("10:00:00"), 10 / 30],
      [bucket("10:01:00"), 10 / 45],
    ]);
  });

  it("writes an alert's query: the last five minutes, one row per group, a numeric value", async () => {
    const { columns, rows } = await run({ ...REQUESTS, groupBy: BY_HOST }, { target: "alert" });
    expect(columns).toEqual(["host_name", "value"]);
    // 0 four minutes ago, 360 a minute ago: 360 over 180 s.
    expect(rows).toEqual([["h9", 2]]);
  });
});
