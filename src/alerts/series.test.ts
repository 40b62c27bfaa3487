import { describe, expect, it } from "vitest";
import { extractSeries, SeriesShapeError, seriesKeyHash, seriesKeyOf } from "./series.js";

describe("alert series", () => {
  it("keys a series by its labels sorted by name, hashed to 16 hex", () => {
    expect(seriesKeyOf({ b: "2", a: "1" })).toBe('{"a":"1","b":"2"}');
    expect(seriesKeyOf({})).toBe("{}");
    expect(seriesKeyHash("{}")).toMatch(/^[0-9a-f]{16}$/);
    expect(seriesKeyHash('{"a":"1","b":"2"}')).toBe(seriesKeyHash(seriesKeyOf({ b: "2", a: "1" })));
  });

  it("reads the numeric value column and makes the other columns labels", () => {
    const series = extractSeries({
      columns: [
        { name: "service", type: "LowCardinality(String)" },
        { name: "value", type: "Nullable(Float64)" },
        { name: "code", type: "UInt16" },
      ],
      rows: [
        ["checkout", 12.5, 500],
        ["cart", null, 200],
        ["checkout", 99, 500],
        ["big", "9007199254740993", 1],
      ],
    });
    expect(series.map((s) => [s.key, s.value])).toEqual([
      ['{"code":"500","service":"checkout"}', 12.5],
      ['{"code":"200","service":"cart"}', null],
      ['{"code":"1","service":"big"}', 9007199254740992],
    ]);
    expect(series[0]?.labels).toEqual({ service: "checkout", code: "500" });
  });

  it("refuses a result without a numeric value column", () => {
    expect(() => extractSeries({ columns: [{ name: "n", type: "UInt64" }], rows: [] })).toThrow(
      SeriesShapeError,
    );
    expect(() => extractSeries({ columns: [{ name: "value", type: "String" }], rows: [] })).toThrow(
      /must be numeric/,
    );
    expect(
      extractSeries({ columns: [{ name: "value", type: "Decimal(18, 4)" }], rows: [["1.5"]] })[0]
        ?.value,
    ).toBe(1.5);
  });
});
