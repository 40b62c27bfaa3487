import { describe, expect, it } from "vitest";
import { FILTER_OPS, type Filter } from "../src/contracts/explore-filters.js";
import {
  FILTERS_PARAM,
  filterFromText,
  filtersParam,
  filterText,
  filterValueFromText,
  isNumberField,
  OP_LABELS,
  parseFilters,
  readFilters,
  writeFilters,
} from "../web/src/components/filters/filter-model.js";

const route: Filter = { field: "attributes.http.route", op: "=", value: "/cart" };

describe("the explorers' shared filter model", () => {
  it("labels every operator, each differently", () => {
    expect(Object.keys(OP_LABELS).sort()).toEqual([...FILTER_OPS].sort());
    const labels = FILTER_OPS.map((op) => OP_LABELS[op]);
    expect(labels.every((label) => label.length > 0)).toBe(true);
    expect(new Set(labels).size).toBe(FILTER_OPS.length);
  });

  it("reads a typed value for each kind of operator, never NaN", () => {
    expect(filterValueFromText("=", "gold")).toEqual({ ok: true, value: "gold" });
    expect(filterValueFromText("contains", " a b ")).toEqual({ ok: true, value: " a b " });
    expect(filterValueFromText("=", "  ")).toEqual({ ok: false, problem: "Give a value" });
    expect(filterValueFromText(">", " 2.5 ")).toEqual({ ok: true, value: 2.5 });
    expect(filterValueFromText("<=", "-3")).toEqual({ ok: true, value: -3 });
    for (const text of ["abc", "", " ", "NaN", "Infinity", "1,2"])
      expect(filterValueFromText(">", text)).toEqual({ ok: false, problem: "Give a number" });
    expect(filterValueFromText("in", "a, b,, c ,")).toEqual({ ok: true, value: ["a", "b", "c"] });
    expect(filterValueFromText("not_in", " , ")).toEqual({
      ok: false,
      problem: "Give one or more values, comma-separated",
    });
    expect(filterValueFromText("exists", "ignored")).toEqual({ ok: true, value: undefined });
    expect(filterValueFromText("not_exists", "")).toEqual({ ok: true, value: undefined });
  });

  it("reads = and lists as numbers for a number field", () => {
    expect(isNumberField("traces", "http_status_code")).toBe(true);
    expect(isNumberField("traces", "attributes.http_status_code")).toBe(false);
    expect(isNumberField("logs", "level")).toBe(false);
    expect(filterValueFromText("=", "500", true)).toEqual({ ok: true, value: 500 });
    expect(filterValueFromText("!=", "five", true)).toEqual({
      ok: false,
      problem: "Give a number",
    });
    expect(filterValueFromText("in", "500, 503", true)).toEqual({
      ok: true,
      value: ["500", "503"],
    });
    expect(filterValueFromText("in", "500, x", true).ok).toBe(false);
    expect(filterValueFromText("contains", "50", true)).toEqual({ ok: true, value: "50" });
  });

  it("makes a whole filter that the contract takes, or says what is wrong", () => {
    expect(filterFromText(" attributes.tier ", "=", "gold")).toEqual({
      ok: true,
      filter: { field: "attributes.tier", op: "=", value: "gold" },
    });
    expect(filterFromText("attributes.db.system", "exists", "x")).toEqual({
      ok: true,
      filter: { field: "attributes.db.system", op: "exists" },
    });
    expect(filterFromText("", "=", "x")).toEqual({ ok: false, problem: "Choose a field" });
    expect(filterFromText("attributes.retries", ">", "two")).toEqual({
      ok: false,
      problem: "Give a number",
    });
  });

  it("says a filter in one line", () => {
    expect(filterText(route)).toBe("attributes.http.route = /cart");
    expect(filterText(route, (f) => f.replace("attributes.", ""))).toBe("http.route = /cart");
    expect(filterText({ field: "span_kind", op: "in", value: ["a", "b"] })).toBe(
      "span_kind is one of a, b",
    );
    expect(filterText({ field: "tier", op: "=", value: "" })).toBe('tier = ""');
    expect(filterText({ field: "tier", op: "not_exists" })).toBe("tier does not exist");
  });

  it("keeps each valid filter of a URL and drops only the bad ones", () => {
    const ok = { field: "duration_ms", op: ">", value: 100 };
    const text = JSON.stringify([
      route,
      { field: "duration_ms", op: ">", value: null }, // NaN as JSON writes it
      { field: "x", op: "like", value: "y" },
      { field: "", op: "=", value: "y" },
      { field: "level", op: "in", value: [] },
      { field: "x", op: "exists", value: "y" },
      "nope",
      ok,
    ]);
    expect(parseFilters(text)).toEqual({ filters: [route, ok], dropped: 6 });
    expect(parseFilters("")).toEqual({ filters: [], dropped: 0 });
    expect(parseFilters(null)).toEqual({ filters: [], dropped: 0 });
    expect(parseFilters("[{")).toEqual({ filters: [], dropped: 1 });
    expect(parseFilters('{"field":"a"}')).toEqual({ filters: [], dropped: 1 });
    const many = Array.from({ length: 25 }, (_, i) => ({ ...route, value: `/${i}` }));
    const capped = parseFilters(JSON.stringify(many));
    expect(capped.filters).toHaveLength(20);
    expect(capped.dropped).toBe(5);
  });

  it("reads and writes the `filters` parameter, a JSON array", () => {
    const params = new URLSearchParams("range=1h");
    writeFilters(params, [route]);
    expect(params.get(FILTERS_PARAM)).toBe(JSON.stringify([route]));
    expect(readFilters(params)).toEqual({ filters: [route], dropped: 0 });
    expect(readFilters(`?${params}`).filters).toEqual([route]);
    writeFilters(params, []);
    expect(params.has(FILTERS_PARAM)).toBe(false);
    expect(params.get("range")).toBe("1h");
    expect(filtersParam([])).toBeUndefined();
    expect(filtersParam([route])).toBe(JSON.stringify([route]));
  });
});
