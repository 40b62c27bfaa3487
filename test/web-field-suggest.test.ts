import { describe, expect, it } from "vitest";
import { fieldOptions, moveActive, valueOptions } from "../web/src/components/suggest-options.js";

describe("the field and value suggestions", () => {
  it("lists the catalog's fields first, then the source's other columns containing the text", () => {
    const catalog = [
      { field: "attributes.http.route", count: 12_345, numeric: false },
      { field: "http_route", count: 9, numeric: false },
    ];
    const options = fieldOptions("traces", catalog, "rOUte");
    expect(options).toEqual([
      { value: "attributes.http.route", detail: "12k", numeric: false },
      { value: "http_route", detail: "9", numeric: false },
    ]);
    const durations = fieldOptions("traces", [], "dur");
    expect(durations).toEqual([{ value: "duration_ms", detail: "column", numeric: true }]);
    // Every column when nothing is typed; a catalog field is not listed twice.
    const all = fieldOptions("logs", [{ field: "level", count: 3, numeric: false }], "");
    expect(all.filter((o) => o.value === "level")).toHaveLength(1);
    expect(all.map((o) => o.value)).toContain("severity_number");
  });

  it("shows values with their counts, numbers marked", () => {
    expect(
      valueOptions([
        { value: "200", count: 2_500_000, numeric: true },
        { value: "GET", count: 10, numeric: false },
      ]),
    ).toEqual([
      { value: "200", detail: "2.5M", numeric: true },
      { value: "GET", detail: "10", numeric: false },
    ]);
  });

  it("moves through the list with the arrows (wrapping), Home and End", () => {
    expect(moveActive(-1, 3, "ArrowDown")).toBe(0);
    expect(moveActive(0, 3, "ArrowDown")).toBe(1);
    expect(moveActive(2, 3, "ArrowDown")).toBe(0);
    expect(moveActive(-1, 3, "ArrowUp")).toBe(2);
    expect(moveActive(0, 3, "ArrowUp")).toBe(2);
    expect(moveActive(2, 3, "ArrowUp")).toBe(1);
    expect(moveActive(1, 3, "Home")).toBe(0);
    expect(moveActive(0, 3, "End")).toBe(2);
    expect(moveActive(0, 0, "ArrowDown")).toBe(-1);
  });
});
