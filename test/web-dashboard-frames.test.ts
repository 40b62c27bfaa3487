import { describe, expect, it } from "vitest";
import {
  columnLayout,
  heatLevel,
  MAX_SERIES,
  type QueryFrame,
  reduceValues,
  stackValues,
  toCategoryValues,
  toHeatmap,
  toRowValues,
  toStats,
  toTimeSeries,
} from "../web/src/screens/dashboards/panels/frames.js";

const T = "DateTime64(3)";
const LC = "LowCardinality(String)";
const at = (minute: number) => `2026-03-01 10:0${minute}:00.000`;
const sec = (minute: number) => Date.parse(`2026-03-01T10:0${minute}:00Z`) / 1000;

function frame(columns: [string, string][], rows: unknown[][], refId?: string): QueryFrame {
  return { refId, result: { columns: columns.map(([name, type]) => ({ name, type })), rows } };
}

describe("how a panel reads a result's columns", () => {
  it("takes the first time column, text columns as labels and numeric columns as values", () => {
    const layout = columnLayout(
      [
        ["service_name", LC],
        ["t", "DateTime"],
        ["end", T],
        ["requests", "UInt64"],
        ["p95", "Nullable(Float64)"],
        ["attributes", "Map(String, String)"],
        ["ok", "Bool"],
      ].map(([name, type]) => ({ name: name ?? "", type: type ?? "" })),
    );
    expect(layout).toEqual({ time: 1, labels: [0, 6], values: [3, 4] });
  });
});

describe("time series", () => {
  it("pivots long rows into one series per label, aligned on the union of times, in order", () => {
    const result = toTimeSeries([
      frame(
        [
          ["t", T],
          ["service_name", LC],
          ["requests", "UInt64"],
        ],
        [
          [at(2), "api", 5],
          [at(0), "api", 3],
          [at(1), "web", 7],
          [at(0), "web", "12345678901"],
          [at(2), "api", 1],
        ],
      ),
    ]);
    expect(result?.x).toEqual([sec(0), sec(1), sec(2)]);
    // The column name is left out with one value column; two rows at one time add up; a
    // 64-bit count written as text (as the engine does past 2^53) still reads as a number.
    expect(result?.series).toEqual([
      { name: "api", values: [3, null, 6], labels: { service_name: "api" } },
      { name: "web", values: [12_345_678_901, 7, null], labels: { service_name: "web" } },
    ]);
    expect(result?.omitted).toBe(0);
  });

  it("names series by label and column with several value columns, and by column alone without labels", () => {
    const result = toTimeSeries([
      frame(
        [
          ["t", T],
          ["route", "String"],
          ["p50", "Float64"],
          ["p95", "Float64"],
        ],
        [
          [at(0), "/a", 1, 2],
          [at(0), "", 3, null],
        ],
      ),
      frame(
        [
          ["t", T],
          ["errors", "UInt64"],
        ],
        [[at(1), 4]],
      ),
    ]);
    expect(result?.series.map((s) => s.name)).toEqual([
      "/a · p50",
      "/a · p95",
      "(empty) · p50",
      "(empty) · p95",
      "errors",
    ]);
    expect(result?.series[3]?.values).toEqual([null, null]);
  });

  it("prefixes series with the refId when the panel has several queries", () => {
    const one = frame(
      [
        ["t", T],
        ["n", "UInt8"],
      ],
      [[at(0), 1]],
      "A",
    );
    const two = frame(
      [
        ["t", T],
        ["n", "UInt8"],
      ],
      [[at(0), 2]],
      "B",
    );
    expect(toTimeSeries([one])?.series.map((s) => s.name)).toEqual(["n"]);
    expect(toTimeSeries([one, two])?.series.map((s) => s.name)).toEqual(["A: n", "B: n"]);
  });

  it("reads a time column in its zone, and answers null when no result has time", () => {
    const zoned = toTimeSeries([
      frame(
        [
          ["t", "DateTime('Europe/Paris')"],
          ["n", "UInt8"],
        ],
        [["2026-03-01 11:00:00", 1]],
      ),
    ]);
    expect(zoned?.x).toEqual([sec(0)]);
    expect(toTimeSeries([frame([["n", "UInt8"]], [[1]])])).toBeNull();
  });

  it("keeps the largest series by total beyond the cap, in their first order", () => {
    const rows = Array.from({ length: MAX_SERIES + 5 }, (_, i) => [at(0), `s${i}`, i]);
    const result = toTimeSeries([
      frame(
        [
          ["t", T],
          ["s", "String"],
          ["v", "Int32"],
        ],
        rows,
      ),
    ]);
    expect(result?.series).toHaveLength(MAX_SERIES);
    expect(result?.omitted).toBe(5);
    expect(result?.series[0]?.name).toBe("s5");
  });

  it("stacks series as running sums, a missing value adding nothing", () => {
    expect(
      stackValues([
        [1, null, 3],
        [2, 2, null],
        [1, 1, 1],
      ]),
    ).toEqual([
      [1, 0, 3],
      [3, 2, 3],
      [4, 3, 4],
    ]);
    expect(stackValues([])).toEqual([]);
  });
});

describe("reducing a series to one value", () => {
  const values = [null, 4, 1, null, 7, 2, null];
  it("reads last, first, min, max, mean and sum over the values present", () => {
    expect(reduceValues(values)).toBe(2);
    expect(reduceValues(values, "last")).toBe(2);
    expect(reduceValues(values, "first")).toBe(4);
    expect(reduceValues(values, "min")).toBe(1);
    expect(reduceValues(values, "max")).toBe(7);
    expect(reduceValues(values, "mean")).toBe(3.5);
    expect(reduceValues(values, "sum")).toBe(14);
  });
  it("gives null when there is nothing to reduce", () => {
    expect(reduceValues([], "sum")).toBeNull();
    expect(reduceValues([null, undefined, Number.NaN], "max")).toBeNull();
  });
});

describe("stats, bars and slices", () => {
  const perService = frame(
    [
      ["service_name", LC],
      ["requests", "UInt64"],
      ["errors", "UInt64"],
    ],
    [
      ["api", 10, 1],
      ["web", 4, 0],
      ["api", 6, 2],
    ],
  );

  it("reduces the first numeric column per label without time, and names a lone value by its column", () => {
    // Each keeps its label values, for a panel link's placeholders.
    expect(toStats([perService], "sum")).toEqual([
      { name: "api", value: 16, fields: { service_name: "api" } },
      { name: "web", value: 4, fields: { service_name: "web" } },
    ]);
    expect(toStats([frame([["total", "UInt64"]], [[3], [5]])])).toEqual([
      { name: "total", value: 5, fields: {} },
    ]);
  });

  it("reduces each series with a sparkline when there is a time column", () => {
    const stats = toStats(
      [
        frame(
          [
            ["t", T],
            ["rate", "Float64"],
            ["other", "Float64"],
          ],
          [
            [at(0), 1, 100],
            [at(1), 3, 100],
          ],
        ),
      ],
      "mean",
    );
    expect(stats).toEqual([
      { name: "rate", value: 2, fields: {}, spark: { x: [sec(0), sec(1)], values: [1, 3] } },
    ]);
  });

  it("gives one name/value per row for bars and slices, reduced series with time", () => {
    expect(toRowValues([perService]).map((v) => [v.name, v.value])).toEqual([
      ["api", 10],
      ["web", 4],
      ["api", 6],
    ]);
    expect(toRowValues([frame([["n", "UInt8"]], [[1], [2]])]).map((v) => v.name)).toEqual([
      "n 1",
      "n 2",
    ]);
    const timed = frame(
      [
        ["t", T],
        ["s", "String"],
        ["n", "UInt8"],
      ],
      [
        [at(0), "a", 1],
        [at(1), "a", 5],
      ],
      "B",
    );
    const values = toCategoryValues([{ ...perService, refId: "A" }, timed], "max");
    expect(values.map((v) => [v.name, v.value])).toEqual([
      ["A: api", 10],
      ["A: web", 4],
      ["A: api", 6],
      ["B: a", 5],
    ]);
  });

  it("keeps each row's values by column for a panel link's placeholders", () => {
    expect(toRowValues([perService])[0]?.fields).toEqual({
      service_name: "api",
      requests: "10",
      errors: "1",
    });
  });

  it("skips results without a numeric column", () => {
    expect(toStats([frame([["s", "String"]], [["a"]])])).toEqual([]);
    expect(toRowValues([frame([["s", "String"]], [["a"]])])).toEqual([]);
  });
});

describe("heatmap cells", () => {
  it("lays (time, bucket, count) rows on a grid of times by ascending bucket bounds", () => {
    const heat = toHeatmap([
      frame(
        [
          ["t", T],
          ["le", "Float64"],
          ["count", "UInt64"],
        ],
        [
          [at(1), 100, 2],
          [at(0), 10, 5],
          [at(0), "inf", 1],
          [at(1), 10, 1],
          [at(1), 10, 3],
          [at(0), null, 9],
        ],
      ),
    ]);
    expect(heat).toEqual({
      x: [sec(0), sec(1)],
      buckets: [10, 100, Number.POSITIVE_INFINITY],
      counts: [
        [5, 0, 1],
        [4, 2, 0],
      ],
      maxCount: 5,
    });
  });

  it("takes a text bucket in first-seen order when there is one numeric column", () => {
    const heat = toHeatmap([
      frame(
        [
          ["t", T],
          ["bucket", "String"],
          ["n", "UInt32"],
        ],
        [
          [at(0), "slow", 1],
          [at(0), "fast", 4],
        ],
      ),
    ]);
    expect(heat?.buckets).toEqual(["slow", "fast"]);
    expect(heat?.counts).toEqual([[1, 4]]);
  });

  it("answers null without the columns a heatmap needs", () => {
    expect(toHeatmap([frame([["n", "UInt8"]], [[1]])])).toBeNull();
    expect(
      toHeatmap([
        frame(
          [
            ["t", T],
            ["n", "UInt8"],
          ],
          [[at(0), 1]],
        ),
      ]),
    ).toBeNull();
  });

  it("shades cells on a log scale from 0 to 1", () => {
    expect(heatLevel(0, 100)).toBe(0);
    expect(heatLevel(5, 0)).toBe(0);
    expect(heatLevel(100, 100)).toBe(1);
    const low = heatLevel(1, 1000);
    expect(low).toBeGreaterThan(0.05);
    expect(low).toBeLessThan(heatLevel(10, 1000));
  });
});
