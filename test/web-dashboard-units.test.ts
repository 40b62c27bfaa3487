import { describe, expect, it } from "vitest";
import { PANEL_UNITS } from "../src/contracts/dashboards.js";
import { thresholdColor } from "../web/src/screens/dashboards/panels/thresholds.js";
import { formatUnit, formatUnitTicks } from "../web/src/screens/dashboards/panels/units.js";

const grouped = (n: number, decimals = 0) =>
  new Intl.NumberFormat(undefined, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(n);

describe("a dashboard panel's units", () => {
  it("scales durations to the unit that reads best, from ms, s or ns", () => {
    expect(formatUnit(0, "ms")).toBe("0 ms");
    expect(formatUnit(0.25, "ms")).toBe("250 µs");
    expect(formatUnit(12.345, "ms")).toBe("12.3 ms");
    expect(formatUnit(1530, "ms")).toBe("1.53 s");
    expect(formatUnit(90_000, "ms")).toBe("1.5 min");
    expect(formatUnit(7_200_000, "ms")).toBe("2 h");
    expect(formatUnit(3 * 86_400_000, "ms")).toBe("3 d");
    expect(formatUnit(0, "s")).toBe("0 s");
    expect(formatUnit(0.5, "s")).toBe("500 ms");
    expect(formatUnit(42, "s")).toBe("42 s");
    expect(formatUnit(120, "s")).toBe("2 min");
    expect(formatUnit(850, "ns")).toBe("850 ns");
    expect(formatUnit(1500, "ns")).toBe("1.5 µs");
    expect(formatUnit(2_500_000, "ns")).toBe("2.5 ms");
    expect(formatUnit(-1530, "ms")).toBe("-1.53 s");
  });

  it("writes the decimals asked for, in the scaled unit", () => {
    expect(formatUnit(1530, "ms", 1)).toBe("1.5 s");
    expect(formatUnit(1500, "ms", 0)).toBe("2 s");
    expect(formatUnit(12, "ms", 3)).toBe("12.000 ms");
    expect(formatUnit(2.468, "none", 2)).toBe("2.47");
    expect(formatUnit(-0.001, "none", 1)).toBe("0.0");
  });

  it("writes bytes in binary multiples", () => {
    expect(formatUnit(0, "bytes")).toBe("0 B");
    expect(formatUnit(512, "bytes")).toBe("512 B");
    expect(formatUnit(1536, "bytes")).toBe("1.5 KiB");
    expect(formatUnit(5 * 1024 ** 2, "bytes")).toBe("5 MiB");
    expect(formatUnit(1.25 * 1024 ** 3, "bytes", 2)).toBe("1.25 GiB");
    expect(formatUnit(3 * 1024 ** 4, "bytes")).toBe("3 TiB");
    expect(formatUnit(2 * 1024 ** 6, "bytes")).toBe(`${grouped(2048)} PiB`);
  });

  it("reads percent as 0–100 and percentunit as a ratio 0–1", () => {
    expect(formatUnit(42.5, "percent")).toBe("42.5%");
    expect(formatUnit(0.425, "percentunit")).toBe("42.5%");
    expect(formatUnit(1, "percentunit")).toBe("100%");
    expect(formatUnit(0.99123, "percentunit", 2)).toBe("99.12%");
  });

  it("writes currencies with their symbol, cents always and a fraction of a cent kept", () => {
    expect(formatUnit(1.5, "usd")).toBe("$1.50");
    expect(formatUnit(0.0042, "usd")).toBe("$0.0042");
    expect(formatUnit(0, "usd")).toBe("$0.00");
    expect(formatUnit(1234.5, "eur")).toBe(`€${grouped(1234.5, 2)}`);
    expect(formatUnit(-3, "usd")).toBe("-$3.00");
  });

  it("writes counts and request rates with K, M, B", () => {
    expect(formatUnit(950, "count")).toBe("950");
    expect(formatUnit(1500, "count")).toBe("1.5K");
    expect(formatUnit(2_300_000, "count")).toBe("2.3M");
    expect(formatUnit(4e9, "count")).toBe("4B");
    expect(formatUnit(12.34, "reqps")).toBe("12.3 req/s");
    expect(formatUnit(25_000, "reqps")).toBe("25K req/s");
  });

  it("writes plain numbers with the digits their size needs", () => {
    expect(formatUnit(123.456, "none")).toBe("123");
    expect(formatUnit(12.345, "none")).toBe("12.3");
    expect(formatUnit(1.2345, "none")).toBe("1.23");
    expect(formatUnit(0.012345, "none")).toBe("0.0123");
    expect(formatUnit(123_456, "none")).toBe(grouped(123_456));
  });

  it("formats every unit of the contract, and reads a missing value as a dash", () => {
    for (const unit of PANEL_UNITS) {
      expect(formatUnit(1, unit), unit).toMatch(/1/);
      expect(formatUnit(null, unit)).toBe("—");
      expect(formatUnit(Number.NaN, unit)).toBe("—");
      expect(formatUnit(Number.POSITIVE_INFINITY, unit)).toBe("—");
    }
  });

  it("writes an axis's ticks in one unit with the decimals they need", () => {
    expect(formatUnitTicks([0, 500, 1000, 1500], "ms")).toEqual([
      "0.0 s",
      "0.5 s",
      "1.0 s",
      "1.5 s",
    ]);
    expect(formatUnitTicks([0, 50, 100], "ms")).toEqual(["0 ms", "50 ms", "100 ms"]);
    expect(formatUnitTicks([0, 0.25, 0.5], "percentunit")).toEqual(["0%", "25%", "50%"]);
    expect(formatUnitTicks([0, 1024, 2048], "bytes")).toEqual(["0 KiB", "1 KiB", "2 KiB"]);
    expect(formatUnitTicks([0, 0.5, 1], "usd")).toEqual(["$0.0", "$0.5", "$1.0"]);
    expect(formatUnitTicks([0, 2, 4], "none", 2)).toEqual(["0.00", "2.00", "4.00"]);
  });
});

describe("a dashboard panel's thresholds", () => {
  const steps = [
    { value: 500, color: "red" as const },
    { value: 0, color: "green" as const },
    { value: 200, color: "yellow" as const },
  ];

  it("colours a value by the highest threshold at or below it, whatever their order", () => {
    expect(thresholdColor(0, steps)).toBe("green");
    expect(thresholdColor(199.9, steps)).toBe("green");
    expect(thresholdColor(200, steps)).toBe("yellow");
    expect(thresholdColor(10_000, steps)).toBe("red");
  });

  it("gives no colour below every threshold, without thresholds, or without a value", () => {
    expect(thresholdColor(-1, steps)).toBeNull();
    expect(thresholdColor(5, [])).toBeNull();
    expect(thresholdColor(null, steps)).toBeNull();
    expect(thresholdColor(Number.NaN, steps)).toBeNull();
  });
});
