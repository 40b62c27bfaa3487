import { describe, expect, it } from "vitest";
import type { Filter } from "../src/contracts/explore-filters.js";
import { logSearchTerms } from "../src/contracts/logs.js";
import { filterText } from "../web/src/components/filters/filter-model.js";
import {
  fieldLabel,
  toggleValue,
  valueState,
  withoutFilter,
} from "../web/src/screens/logs/facet-filters.js";
import { highlightParts } from "../web/src/screens/logs/highlight.js";

const route = (value: string): Filter => ({ field: "attributes.http.route", op: "=", value });

describe("the logs view's facet filters", () => {
  it("includes values as alternatives, excludes them, and toggles them off", () => {
    const one = toggleValue([], "service_name", "api", "include");
    expect(one).toEqual([{ field: "service_name", op: "=", value: "api" }]);
    const two = toggleValue(one, "service_name", "web", "include");
    expect(two).toEqual([{ field: "service_name", op: "in", value: ["api", "web"] }]);
    expect(valueState(two, "service_name", "web")).toBe("include");
    expect(valueState(two, "service_name", "worker")).toBeUndefined();
    expect(toggleValue(two, "service_name", "api", "include")).toEqual([
      { field: "service_name", op: "=", value: "web" },
    ]);
    // Excluding an included value moves it over.
    const moved = toggleValue(two, "service_name", "api", "exclude");
    expect(moved).toEqual([
      { field: "service_name", op: "=", value: "web" },
      { field: "service_name", op: "!=", value: "api" },
    ]);
    expect(valueState(moved, "service_name", "api")).toBe("exclude");
    const excluded = toggleValue(moved, "service_name", "worker", "exclude");
    expect(excluded[1]).toEqual({ field: "service_name", op: "not_in", value: ["api", "worker"] });
    expect(
      toggleValue(toggleValue([], "level", "debug", "exclude"), "level", "debug", "exclude"),
    ).toEqual([]);
  });

  it("keeps other fields' filters in place", () => {
    const contains: Filter = { field: "message", op: "contains", value: "x" };
    const start = [route("/a"), contains, { field: "level", op: "=", value: "info" } as Filter];
    expect(toggleValue(start, "attributes.http.route", "/b", "include")).toEqual([
      { field: "attributes.http.route", op: "in", value: ["/a", "/b"] },
      contains,
      start[2],
    ]);
    expect(toggleValue(start, "service_name", "api", "include").at(-1)).toEqual({
      field: "service_name",
      op: "=",
      value: "api",
    });
    expect(withoutFilter(start, 1)).toEqual([start[0], start[2]]);
  });

  it("says a filter in words", () => {
    expect(fieldLabel("service_name")).toBe("service");
    expect(fieldLabel("attributes.http.route")).toBe("http.route");
    expect(fieldLabel("resource.host.name")).toBe("host.name (resource)");
    const said = (filter: Filter) => filterText(filter, fieldLabel);
    expect(said(route("/a"))).toBe("http.route = /a");
    expect(said({ field: "level", op: "not_in", value: ["debug", "info"] })).toBe(
      "level is not one of debug, info",
    );
    expect(said({ field: "attributes.tier", op: "exists" })).toBe("tier exists");
    expect(said({ field: "severity_number", op: ">=", value: 13 })).toBe("severity number ≥ 13");
  });
});

describe("search terms highlighted in a message", () => {
  const marked = (text: string, search: string) =>
    highlightParts(text, logSearchTerms(search))
      .map((p) => (p.match ? `[${p.text}]` : p.text))
      .join("");

  it("marks every term case-insensitively, phrases whole, overlaps joined", () => {
    expect(marked("Payment FAILED for order 42", "payment failed")).toBe(
      "[Payment] [FAILED] for order 42",
    );
    expect(marked("order 43 and order 4", '"order 4"')).toBe("[order 4]3 and [order 4]");
    expect(marked("abcabc", "abc bca")).toBe("[abcabc]");
    expect(marked("Ünïcode Straße", "ÜNÏCODE")).toBe("[Ünïcode] Straße");
    expect(marked("nothing here", "absent")).toBe("nothing here");
    expect(marked("no terms", "")).toBe("no terms");
    expect(marked("100% done_ok", "0% _")).toBe("10[0%] done[_]ok");
  });

  it("keeps markup in a message as text", () => {
    const parts = highlightParts("payment button <b>failed</b>", ["failed"]);
    expect(parts).toEqual([
      { text: "payment button <b>", match: false },
      { text: "failed", match: true },
      { text: "</b>", match: false },
    ]);
  });

  it("splits the search box as the server does", () => {
    expect(logSearchTerms('timeout "payment failed"  x')).toEqual([
      "timeout",
      "payment failed",
      "x",
    ]);
    expect(logSearchTerms('""')).toEqual([]);
  });
});
