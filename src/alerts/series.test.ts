import { describe, expect, it } from "vitest";
import { readSeries, SeriesShapeError } from "./series.js";

describe("alert series", () => {
  it("reads the numeric value column and makes the other columns labels", () => {
    const series = readSeries({
      columns: [
        { name: "service", type: "LowCardinality(String)" },
        { name: "value", type: "Nullable(Float64)" },
      ],
      rows: [
        ["checkout", 12.5],
        ["cart", null],
        ["checkout", 99],
      ],
    });
    expect(series.map((s) => [s.seriesKey, s.value])).toEqual([
      ['{"service":"checkout"}', 12.5],
      ['{"service":"cart"}', null],
    ]);
  });

  it("makes a result without a numeric value column an evaluation error", () => {
    expect(() => readSeries({ columns: [{ name: "n", type: "UInt64" }], rows: [] })).toThrow(
      SeriesShapeError,
    );
    expect(() => readSeries({ columns: [{ name: "value", type: "String" }], rows: [] })).toThrow(
      /must be numeric/,
    );
  });
});
