import { describe, expect, it } from "vitest";
import { pieSlices, slicePath } from "../web/src/screens/dashboards/panels/pie-slices.js";
import {
  LOG_COLUMNS,
  recordRows,
  TRACE_COLUMNS,
} from "../web/src/screens/dashboards/panels/record-rows.js";
import { nextOrder, sortRows } from "../web/src/screens/dashboards/panels/table-rows.js";

const columns = (...pairs: [string, string][]) => pairs.map(([name, type]) => ({ name, type }));

describe("a pie's slices", () => {
  it("shares the circle among positive values in their order, clockwise from twelve", () => {
    const slices = pieSlices([
      { name: "a", value: 3 },
      { name: "none", value: 0 },
      { name: "b", value: 1 },
      { name: "neg", value: -2 },
      { name: "null", value: null },
    ]);
    expect(slices.map((s) => [s.name, s.share, s.color])).toEqual([
      ["a", 0.75, 0],
      ["b", 0.25, 1],
    ]);
    expect(slices[0]?.start).toBe(0);
    expect(slices[1]?.end).toBeCloseTo(2 * Math.PI);
  });

  it("sums the smallest into Other beyond the cap, and has no slices for no total", () => {
    const items = [5, 1, 4, 2, 3].map((value, i) => ({ name: `s${i}`, value }));
    expect(pieSlices(items, 3).map((s) => [s.name, s.value])).toEqual([
      ["s0", 5],
      ["s2", 4],
      ["Other", 6],
    ]);
    expect(pieSlices([{ name: "z", value: 0 }])).toEqual([]);
  });

  it("draws a wedge, a ring segment, and a whole circle as two halves", () => {
    expect(slicePath(0, Math.PI / 2)).toBe("M50.000,2.000A48,48 0 0 1 98.000,50.000L50,50Z");
    expect(slicePath(0, Math.PI / 2, 48, 30)).toContain("A30,30 0 0 0 50.000,20.000Z");
    expect(slicePath(0, 2 * Math.PI).match(/M/g)).toHaveLength(2);
  });
});

describe("a table panel's sort", () => {
  const cols = columns(["service", "String"], ["n", "UInt64"], ["t", "DateTime64(3)"]);
  const rows = [
    ["b", 10, "2026-03-01 10:00:02.000"],
    ["a10", null, "2026-03-01 10:00:01.000"],
    ["a9", "9007199254740993", null],
    ["B", 2, "2026-03-01 10:00:03.000"],
  ];

  it("orders numbers as numbers, times as times, text naturally; missing values last", () => {
    const names = (order: Parameters<typeof sortRows>[2]) =>
      sortRows(rows, cols, order).map((r) => r[0]);
    expect(names({ column: 1, descending: false })).toEqual(["B", "b", "a9", "a10"]);
    expect(names({ column: 1, descending: true })).toEqual(["a9", "b", "B", "a10"]);
    expect(names({ column: 2, descending: false })).toEqual(["a10", "b", "B", "a9"]);
    // Natural and case-blind, stable between equals ("b" and "B" keep their order).
    expect(names({ column: 0, descending: false })).toEqual(["a9", "a10", "b", "B"]);
    expect(names(null)).toEqual(["b", "a10", "a9", "B"]);
  });

  it("cycles a heading's clicks through ascending, descending and the query's order", () => {
    const up = nextOrder(null, 1);
    expect(up).toEqual({ column: 1, descending: false });
    const down = nextOrder(up, 1);
    expect(down).toEqual({ column: 1, descending: true });
    expect(nextOrder(down, 1)).toBeNull();
    expect(nextOrder(down, 2)).toEqual({ column: 2, descending: false });
  });
});

describe("log and trace rows", () => {
  it("picks the known columns by name, the time as ISO, and keeps the rest as fields", () => {
    const [row] = recordRows(
      columns(
        ["timestamp", "DateTime64(9)"],
        ["Level", "LowCardinality(String)"],
        ["service_name", "LowCardinality(String)"],
        ["message", "String"],
        ["trace_id", "String"],
        ["http_status", "UInt16"],
      ),
      [["2026-03-01 10:00:00.123456789", "error", "api", "boom", "", 500]],
      LOG_COLUMNS,
    );
    expect(row?.values).toMatchObject({
      level: "error",
      service: "api",
      message: "boom",
      traceId: "",
      id: "",
    });
    expect(row?.iso).toBe("2026-03-01T10:00:00.123Z");
    expect(row?.fields).toEqual([["http_status", "500"]]);
  });

  it("falls back to the first time column, and to aliases", () => {
    const [row] = recordRows(
      columns(["started", "DateTime"], ["trace_id", "String"], ["duration", "Float64"]),
      [["2026-03-01 10:00:00", "abc", 12.5]],
      TRACE_COLUMNS,
    );
    expect(row?.iso).toBe("2026-03-01T10:00:00.000Z");
    expect(row?.values.traceId).toBe("abc");
    expect(row?.values.duration).toBe("12.5");
    expect(row?.fields).toEqual([]);
  });
});
