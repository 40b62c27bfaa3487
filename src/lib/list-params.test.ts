import { describe, expect, it } from "vitest";
import { InvalidInputError } from "./domain-errors.js";
import { bucketMs, bucketStarts, parseInstant, rangeMs, resolveWindow } from "./list-params.js";

const NOW = Date.parse("2026-11-21T12:00:00.000Z");
const H = 3_600_000;

describe("read API parameters", () => {
  it("reads ranges as <n>{m,h,d} up to the retention maximum", () => {
    expect(rangeMs("15m")).toBe(15 * 60_000);
    expect(rangeMs("24h")).toBe(24 * H);
    expect(rangeMs("90d")).toBe(90 * 24 * H);
    expect(rangeMs("3650d")).toBe(3650 * 24 * H);
    for (const bad of ["0h", "3651d", "1w", "h", "1.5h", "-1h", "01h", " 1h", "1H"])
      expect(rangeMs(bad), bad).toBeUndefined();
  });

  it("reads instants as ISO 8601 (UTC unless offset) or epoch milliseconds", () => {
    expect(parseInstant("2026-11-21T09:30:00Z")).toBe(Date.parse("2026-11-21T09:30:00Z"));
    expect(parseInstant("2026-11-21T09:30:00")).toBe(Date.parse("2026-11-21T09:30:00Z"));
    expect(parseInstant("2026-11-21T09:30:00.123+02:00")).toBe(
      Date.parse("2026-11-21T07:30:00.123Z"),
    );
    expect(parseInstant("2026-11-21")).toBe(Date.parse("2026-11-21T00:00:00Z"));
    expect(parseInstant("1763717400000")).toBe(1763717400000);
    for (const bad of ["yesterday", "2026-13-01", "21/11/2026", "", "1e12", "2026-11-21T25:00:00Z"])
      expect(parseInstant(bad), bad).toBeUndefined();
  });

  it("resolves windows: from/to override the range, a missing to is now", () => {
    expect(resolveWindow({}, NOW)).toBeUndefined();
    expect(resolveWindow({}, NOW, "24h")).toEqual({ fromMs: NOW - 24 * H, toMs: NOW });
    expect(resolveWindow({ time_range: "1h" }, NOW)).toEqual({ fromMs: NOW - H, toMs: NOW });
    expect(resolveWindow({ time_range: "1h", to: String(NOW - H) }, NOW)).toEqual({
      fromMs: NOW - 2 * H,
      toMs: NOW - H,
    });
    expect(resolveWindow({ time_range: "1h", from: String(NOW - 5 * H) }, NOW)).toEqual({
      fromMs: NOW - 5 * H,
      toMs: NOW,
    });
    expect(resolveWindow({ to: String(NOW - H) }, NOW)).toEqual({ fromMs: 0, toMs: NOW - H });
    expect(() => resolveWindow({ from: String(NOW), to: String(NOW) }, NOW)).toThrow(
      InvalidInputError,
    );
  });

  it("picks nice bucket widths with at most 120 buckets, aligned to the epoch", () => {
    expect(bucketMs({ fromMs: NOW - H, toMs: NOW })).toBe(60_000);
    expect(bucketMs({ fromMs: NOW - 6 * H, toMs: NOW })).toBe(5 * 60_000);
    expect(bucketMs({ fromMs: NOW - 24 * H, toMs: NOW })).toBe(15 * 60_000);
    expect(bucketMs({ fromMs: NOW - 7 * 24 * H, toMs: NOW })).toBe(3 * H);
    expect(bucketMs({ fromMs: NOW - 30 * 24 * H, toMs: NOW })).toBe(6 * H);
    expect(bucketMs({ fromMs: NOW - 90 * 24 * H, toMs: NOW })).toBe(24 * H);
    const starts = bucketStarts({ fromMs: NOW - H + 30_000, toMs: NOW }, 60_000);
    expect(starts[0]).toBe(NOW - H);
    expect(starts).toHaveLength(60);
  });
});
