import { describe, expect, it } from "vitest";
import {
  histogramUpperBound,
  median,
  ratio,
  round,
  spikeEpisodes,
  stableKey,
  usd,
} from "./stats.js";

describe("dashboard statistics", () => {
  it("rounds away float noise and guards divisions", () => {
    expect(usd(0.1 + 0.2)).toBe(0.3);
    expect(round(Number.NaN, 2)).toBe(0);
    expect(ratio(1, 3)).toBe(0.3333);
    expect(ratio(5, 0)).toBe(0);
  });

  it("takes the median of odd, even and empty series", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });

  it("finds spike episodes against the median and merges consecutive buckets", () => {
    const step = 60_000;
    const counts = [2, 2, 3, 30, 45, 2, 2, 19, 2, 25];
    const series = counts.map((count, i) => ({ timeMs: i * step, count }));
    const {
      median: m,
      threshold,
      episodes,
    } = spikeEpisodes(series, step, {
      minCount: 20,
      factor: 5,
    });
    expect(m).toBe(2.5);
    expect(threshold).toBe(20);
    expect(episodes).toEqual([
      { startMs: 3 * step, endMs: 5 * step, total: 75, peak: 45, peakMs: 4 * step, buckets: 2 },
      { startMs: 9 * step, endMs: 10 * step, total: 25, peak: 25, peakMs: 9 * step, buckets: 1 },
    ]);
    // A busy baseline raises the bar: 5 × median 12.5 = 62.5 > 55.
    const busy = counts.map((count, i) => ({ timeMs: i * step, count: count + 10 }));
    expect(spikeEpisodes(busy, step, { minCount: 20, factor: 5 }).episodes).toEqual([]);
  });

  it("keeps short keys and bounds long ones with a hash", () => {
    expect(stableKey("  SELECT *\n  FROM t ")).toBe("SELECT * FROM t");
    const long = `SELECT ${"a, ".repeat(50)}b FROM t`;
    const key = stableKey(long);
    expect(key.length).toBeLessThanOrEqual(73);
    expect(key).toMatch(/^SELECT a, a, .*…#[0-9a-f]{10}$/);
    expect(stableKey(long)).toBe(key);
    expect(stableKey(`${long} `)).toBe(key);
    expect(stableKey(`${long}x`)).not.toBe(key);
  });

  it("reads the bucket bound holding a quantile", () => {
    const bounds = [10, 100, 1000];
    expect(histogramUpperBound([90, 5, 5, 0], bounds, 900, 0.95)).toBe(100);
    expect(histogramUpperBound([0, 0, 0, 10], bounds, 4200, 0.95)).toBe(4200);
    expect(histogramUpperBound([0, 0, 10, 0], bounds, 420, 0.95)).toBe(420);
    expect(histogramUpperBound([0, 0, 0, 0], bounds, 0, 0.95)).toBe(0);
  });
});
