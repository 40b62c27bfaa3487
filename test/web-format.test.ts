import { describe, expect, it } from "vitest";
import { bucketName, firstFillingBucket, latestIndex } from "../web/src/lib/chart-data.js";
import { formatDuration, formatDurationTicks, formatTotal } from "../web/src/lib/format.js";

describe("the dashboard's list totals", () => {
  it("reads a lower bound (totalExact: false) as 10,000+ and an exact total as it is", () => {
    const plain = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(10_000);
    expect(formatTotal(10_000, false)).toBe(`${plain}+`);
    expect(formatTotal(10_000, true)).toBe(plain);
    // Lists that never say (counted exactly) read as exact.
    expect(formatTotal(10_000)).toBe(plain);
  });
});

describe("the dashboard's duration axes", () => {
  it("writes every tick in the unit of the largest, with the decimals the ticks need", () => {
    expect(formatDurationTicks([0, 5000, 10_000, 15_000, 20_000])).toEqual([
      "0 s",
      "5 s",
      "10 s",
      "15 s",
      "20 s",
    ]);
    expect(formatDurationTicks([0, 2500, 5000, 7500])).toEqual([
      "0.0 s",
      "2.5 s",
      "5.0 s",
      "7.5 s",
    ]);
    expect(formatDurationTicks([0, 50, 100, 150])).toEqual(["0 ms", "50 ms", "100 ms", "150 ms"]);
    expect(formatDurationTicks([0, 0.2, 0.4, 0.6000000000000001])).toEqual([
      "0 µs",
      "200 µs",
      "400 µs",
      "600 µs",
    ]);
    expect(formatDurationTicks([0, 1_800_000, 3_600_000, 5_400_000])).toEqual([
      "0.0 h",
      "0.5 h",
      "1.0 h",
      "1.5 h",
    ]);
    // An axis of nothing but zero reads 0 ms.
    expect(formatDurationTicks([0])).toEqual(["0 ms"]);
  });

  it("reads a zero duration as 0 ms", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(0.85)).toBe("850 µs");
  });
});

describe("the dashboard's time charts", () => {
  const minutes = [0, 60, 120, 180].map((m) => 1_000_000_020 + m);
  it("leaves out the bucket still filling, by the given width or the points' spacing", () => {
    // The last bucket started 30 s ago: its minute is not over.
    expect(firstFillingBucket(minutes, 1_000_000_200 + 30)).toBe(3);
    expect(firstFillingBucket(minutes, 1_000_000_200 + 60)).toBe(4);
    expect(firstFillingBucket(minutes, 1_000_000_200 + 30, 3600)).toBe(0);
    // A past window: every bucket is complete.
    expect(firstFillingBucket(minutes, 2_000_000_000)).toBe(4);
    // One point and no width: nothing to tell it by.
    expect(firstFillingBucket([100], 120)).toBe(1);
    expect(firstFillingBucket([], 120)).toBe(0);
  });

  it("shows, before any hover, the latest complete bucket where a series has a value", () => {
    expect(
      latestIndex(
        [
          [1, 2, null, null],
          [null, null, 3, null],
        ],
        4,
      ),
    ).toBe(2);
    expect(latestIndex([[1, 2, null, 5]], 3)).toBe(1);
    expect(latestIndex([[null, null]], 2)).toBeNull();
    expect(bucketName(60)).toBe("minute");
    expect(bucketName(3600)).toBe("hour");
    expect(bucketName(300)).toBe("5 min");
  });
});
