/**
 * The metrics explorer's TQL for distributions on the embedded engine: explicit-bucket
 * histograms (cumulative with resets, and delta) read with Prometheus' histogram_quantile
 * interpolation, and exponential histograms at two scales merged at the lower one. Points go in
 * through the ingest mapping; every expected number is worked out by hand beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricQueryInput } from "../src/contracts/metric-queries.js";
import { metricQueryTql } from "../src/contracts/metric-queries-tql.js";
import type { TqlService } from "../src/tql/tql-service.js";
import {
  bucket,
  CUMULATIVE,
  DELTA,
  metricStore,
  ns,
  PROJECT,
  resource,
  WINDOW,
} from "./helpers/metric-points.js";

type Explicit = [time: string, start: string, counts: number[], sum: number, bounds?: number[]];
const BOUNDS = [1, 2, 5];
const histogram = (name: string, temporality: number, points: Explicit[]) => ({
  name,
  unit: "ms",
  histogram: {
    aggregationTemporality: temporality,
    dataPoints: points.map(([time, start, counts, sum, bounds = BOUNDS]) => ({
      timeUnixNano: ns(time),
      startTimeUnixNano: ns(start),
      count: counts.reduce((a, b) => a + b, 0),
      sum,
      bucketCounts: counts,
      explicitBounds: bounds,
    })),
  },
});

interface Exponential {
  time: string;
  start: string;
  scale: number;
  zero?: number;
  positive?: [offset: number, counts: number[]];
  negative?: [offset: number, counts: number[]];
}
const exponential = (name: string, temporality: number, points: Exponential[]) => ({
  name,
  unit: "ms",
  exponentialHistogram: {
    aggregationTemporality: temporality,
    dataPoints: points.map((p) => {
      const [offset = 0, counts = []] = p.positive ?? [];
      const [negativeOffset = 0, negativeCounts = []] = p.negative ?? [];
      const zero = p.zero ?? 0;
      const all = [...counts, ...negativeCounts].reduce((a, b) => a + b, zero);
      return {
        timeUnixNano: ns(p.time),
        startTimeUnixNano: ns(p.start),
        count: all,
        sum: 0,
        scale: p.scale,
        zeroCount: zero,
        positive: { offset, bucketCounts: counts },
        negative: { offset: negativeOffset, bucketCounts: negativeCounts },
      };
    }),
  },
});

// Buckets of BOUNDS: (0, 1], (1, 2], (2, 5], (5, +Inf).
const FIXTURE = [
  resource("h1", [
    histogram("latency", CUMULATIVE, [
      ["09:59:30", "09:50:00", [1, 1, 0, 0], 2.5],
      // Grew by [2, 5, 1, 0]: 8 observations, their sum 14 − 2.5 = 11.5.
      ["10:00:30", "09:50:00", [3, 6, 1, 0], 14],
      // The count dropped (10 → 2): a reset, the increase is the point itself.
      ["10:01:30", "09:50:00", [1, 0, 0, 1], 7],
      // New bounds: a reset too, although the count rose (2 → 6): [2, 3, 1, 0], not a difference.
      ["10:02:30", "09:50:00", [2, 3, 1, 0], 9, [1, 2, 10]],
    ]),
    // Exponential, scale 1 (base √2): zero 1; buckets 2..4: (2, 2√2], (2√2, 4], (4, 4√2].
    exponential("sizes", DELTA, [
      { time: "10:00:30", start: "09:59:30", scale: 1, zero: 1, positive: [2, [1, 2, 3]] },
    ]),
    // Cumulative exponential, rescaled from 1 to 0 as its range grew.
    exponential("payloads", CUMULATIVE, [
      { time: "10:00:30", start: "09:50:00", scale: 1, positive: [2, [1, 1]] },
      { time: "10:01:30", start: "09:50:00", scale: 0, positive: [1, [4, 2]] },
    ]),
    // Negative values: bucket 1 of scale 0 on the negative side is [−4, −2); positive 0 is (1, 2].
    exponential("offsets", DELTA, [
      {
        time: "10:00:30",
        start: "09:59:30",
        scale: 0,
        positive: [0, [2]],
        negative: [1, [2]],
      },
    ]),
  ]),
  resource("h2", [
    histogram("latency", DELTA, [["10:00:30", "09:59:30", [0, 0, 4, 0], 12]]),
    // Scale 0 (base 2): buckets 1..2: (2, 4], (4, 8].
    exponential("sizes", DELTA, [
      { time: "10:00:30", start: "09:59:30", scale: 0, positive: [1, [2, 2]] },
    ]),
    // Bounds [0, 10]: the first bucket's bound is not above 0.
    histogram("deltas", DELTA, [["10:00:30", "09:59:30", [3, 1, 0], 5, [0, 10]]]),
  ]),
];

describe("metric queries on the engine: histograms", () => {
  let tql: TqlService;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ tql, close } = await metricStore([{ resourceMetrics: FIXTURE }]));
  });
  afterAll(async () => {
    await close?.();
  });

  const rows = async (query: MetricQueryInput) =>
    (await tql.query(PROJECT, metricQueryTql(query), { parameters: WINDOW })).rows;
  const LATENCY = { metric: "latency", type: "histogram" } as const;
  const BY_HOST = ["resource.host.name"];

  it("interpolates explicit buckets as histogram_quantile does, per series increases first", async () => {
    expect(await rows({ ...LATENCY, quantile: 0.5, groupBy: BY_HOST })).toEqual([
      // h1 10:00: [2, 5, 1, 0], rank 0.5 × 8 = 4 falls in (1, 2] after 2: 1 + (4 − 2) / 5 = 1.4.
      [bucket("10:00:00"), "h1", 1.4],
      // h2 10:00 (delta): [0, 0, 4, 0], rank 2 in (2, 5]: 2 + 3 × 2 / 4 = 3.5.
      [bucket("10:00:00"), "h2", 3.5],
      // h1 10:01 (reset): [1, 0, 0, 1], rank 1 in (0, 1]: the first bucket starts at 0: 1.
      [bucket("10:01:00"), "h1", 1],
      // h1 10:02 (new bounds 1, 2, 10): [2, 3, 1, 0], rank 3 in (1, 2]: 1 + (3 − 2) / 3.
      [bucket("10:02:00"), "h1", 1 + 1 / 3],
    ]);
    const p90 = await rows({ ...LATENCY, quantile: 0.9, groupBy: BY_HOST });
    // h1 10:00: rank 7.2 in (2, 5] after 7: 2 + 3 × 0.2 / 1 = 2.6.
    expect(p90[0]?.[2]).toBeCloseTo(2.6, 12);
    // h1 10:01: rank 1.8 falls in the +Inf bucket: the highest finite bound, 5.
    expect(p90[2]).toEqual([bucket("10:01:00"), "h1", 5]);
  });

  it("merges the group's series before the quantile", async () => {
    // 10:00: [2, 5, 1, 0] + [0, 0, 4, 0] = [2, 5, 5, 0]; rank 6 in (1, 2]: 1 + (6 − 2) / 5 = 1.8.
    expect((await rows({ ...LATENCY, quantile: 0.5 }))[0]).toEqual([bucket("10:00:00"), 1.8]);
  });

  it("returns the first bound when the quantile is in a first bucket ending at or below 0", async () => {
    // [3, 1, 0] over bounds [0, 10]: rank 2 falls in the first bucket, whose bound is 0.
    const deltas = await rows({ metric: "deltas", type: "histogram", quantile: 0.5 });
    expect(deltas).toEqual([[bucket("10:00:00"), 0]]);
  });

  it("reads a histogram's mean (sum / count) and rate of observations", async () => {
    const avg = await rows({ ...LATENCY, aggregation: "avg", groupBy: BY_HOST });
    expect(avg.slice(0, 3)).toEqual([
      [bucket("10:00:00"), "h1", 11.5 / 8],
      [bucket("10:00:00"), "h2", 12 / 4],
      [bucket("10:01:00"), "h1", 7 / 2],
    ]);
    const rate = await rows({ ...LATENCY, aggregation: "rate" });
    // 8 + 4 observations in the minute to 10:00:30, 2 in the next.
    expect(rate.slice(0, 2)).toEqual([
      [bucket("10:00:00"), 12 / 60],
      [bucket("10:01:00"), 2 / 60],
    ]);
  });

  it("merges exponential histograms at the lowest scale, the zero bucket counted", async () => {
    // At scale 0, h1's buckets 2, 3, 4 become 1, 1, 2: (2, 4] holds 1 + 2 and (4, 8] 3. With
    // h2's: zero 1, (2, 4] 3 + 2 = 5, (4, 8] 3 + 2 = 5; 11 observations. Within a bucket the
    // value grows exponentially: lower × (upper / lower) ^ fraction.
    const SIZES = { metric: "sizes", type: "exponential_histogram" } as const;
    const at = async (quantile: number) => (await rows({ ...SIZES, quantile }))[0]?.[1] as number;
    // Rank 5.5: after zero's 1, (5.5 − 1) / 5 = 0.9 of (2, 4]: 2 × 2^0.9 ≈ 3.7321.
    expect(await at(0.5)).toBeCloseTo(3.732132, 5);
    // Rank 9.9: after 6, (9.9 − 6) / 5 = 0.78 of (4, 8]: 4 × 2^0.78 ≈ 6.8685.
    expect(await at(0.9)).toBeCloseTo(6.868523, 5);
    // Rank 0.55 is in the zero bucket: 0.
    expect(await at(0.05)).toBe(0);
    // h1 alone, at the query's scale 0: zero 1, (2, 4] 3, (4, 8] 3; rank 3.5 is (3.5 − 1) / 3
    // of (2, 4]: 2 × 2^(5/6) ≈ 3.5636.
    const byHost = await rows({ ...SIZES, quantile: 0.5, groupBy: BY_HOST });
    expect(byHost[0]?.[1]).toBe("h1");
    expect(byHost[0]?.[2]).toBeCloseTo(3.563595, 5);
  });

  it("takes a cumulative exponential histogram's increases across a change of scale", async () => {
    // At scale 0 the first point is (2, 4]: 2; the second (2, 4]: 4, (4, 8]: 2. Increase: 2, 2.
    const payloads = { metric: "payloads", type: "exponential_histogram" } as const;
    // Rank 2 ends (2, 4]: its upper bound 4. Rank 3: half of (4, 8]: 4 × √2 ≈ 5.6569.
    expect(await rows({ ...payloads, quantile: 0.5 })).toEqual([[bucket("10:01:00"), 4]]);
    const p75 = await rows({ ...payloads, quantile: 0.75 });
    expect(p75[0]?.[1]).toBeCloseTo(5.656854, 5);
  });

  it("reads negative buckets of an exponential histogram", async () => {
    // [−4, −2) holds 2, (1, 2] holds 2. Rank 1: half of [−4, −2) from −4: −4 / √2 ≈ −2.8284.
    // Rank 3: half of (1, 2]: √2 ≈ 1.4142.
    const offsets = { metric: "offsets", type: "exponential_histogram" } as const;
    const at = async (quantile: number) => (await rows({ ...offsets, quantile }))[0]?.[1] as number;
    expect(await at(0.25)).toBeCloseTo(-2.828427, 5);
    expect(await at(0.75)).toBeCloseTo(Math.SQRT2, 5);
  });
});
