import { describe, expect, it } from "vitest";
import { HTTP_DURATION_BOUNDS_MS } from "../telemetry/tables.js";
import { type DurationHistogram, histogramPercentile } from "./percentiles.js";

const BOUNDS = [10, 20, 50];
const hist = (counts: number[], min: number, max: number): DurationHistogram => ({
  bounds: BOUNDS,
  counts,
  min,
  max,
});

describe("histogramPercentile", () => {
  it("answers null for an empty histogram", () => {
    expect(histogramPercentile(hist([0, 0, 0, 0], 0, 0), 0.5)).toBeNull();
    expect(histogramPercentile(hist([], 0, 0), 0.99)).toBeNull();
  });

  it("interpolates linearly inside the bucket holding the rank", () => {
    const h = hist([4, 4, 2, 0], 1, 45);
    // rank 2.5 of 4 in (0, 10], the lower edge raised to the observed min 1: 1 + 9 × 2.5/4
    expect(histogramPercentile(h, 0.25)).toBe(6.625);
    // rank 5: the first of 4 in (10, 20]: 10 + 10 × 1/4
    expect(histogramPercentile(h, 0.5)).toBe(12.5);
    // rank 9.5: 1.5 of 2 in (20, 50], the upper edge lowered to the observed max 45
    expect(histogramPercentile(h, 0.95)).toBe(38.75);
  });

  it("clamps both edges to the observed min and max", () => {
    const h = hist([0, 10, 0, 0], 12, 18);
    expect(histogramPercentile(h, 0.5)).toBe(15);
    expect(histogramPercentile(h, 0)).toBe(12);
    expect(histogramPercentile(h, 1)).toBe(18);
  });

  it("ends the open last bucket at the observed max", () => {
    const h = hist([0, 0, 0, 2], 60, 100);
    expect(histogramPercentile(h, 0.5)).toBe(80);
    expect(histogramPercentile(h, 0.99)).toBeCloseTo(99.6, 10);
  });

  it("puts a rank that exactly fills a bucket at that bucket's upper edge", () => {
    const h = hist([5, 0, 5, 0], 2, 40);
    expect(histogramPercentile(h, 0.5)).toBe(10);
    // rank 6: the empty (10, 20] is skipped; 1 of 5 in (20, 50] capped at 40: 20 + 20 × 1/5
    expect(histogramPercentile(h, 0.6)).toBe(24);
  });

  it("answers the only observation for every quantile", () => {
    const h = hist([0, 1, 0, 0], 15, 15);
    for (const q of [0, 0.5, 0.95, 0.99, 1]) expect(histogramPercentile(h, q)).toBe(15);
  });

  it("treats q outside 0–1 as the nearest end", () => {
    const h = hist([4, 4, 2, 0], 1, 45);
    expect(histogramPercentile(h, -1)).toBe(1);
    expect(histogramPercentile(h, 2)).toBe(45);
  });

  it("works on the http_requests bounds with counts from the ingest histogram", () => {
    // 100 requests: 90 in (50, 75], 10 in (300, 400]
    const counts = new Array<number>(HTTP_DURATION_BOUNDS_MS.length + 1).fill(0);
    counts[4] = 90;
    counts[9] = 10;
    const h = { bounds: HTTP_DURATION_BOUNDS_MS, counts, min: 51, max: 390 };
    // (50, 75] starts at the observed min 51; (300, 400] ends at the observed max 390
    expect(histogramPercentile(h, 0.5)).toBeCloseTo(51 + (24 * 50) / 90, 10);
    expect(histogramPercentile(h, 0.95)).toBe(345);
    expect(histogramPercentile(h, 0.99)).toBe(381);
  });
});
