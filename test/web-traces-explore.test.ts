import { describe, expect, it } from "vitest";
import type { TraceSpans } from "../src/contracts/traces.js";
import { filterText } from "../web/src/components/filters/filter-model.js";
import {
  readSelection,
  selectionQuery,
  withFilter,
} from "../web/src/screens/traces/trace-selection.js";
import {
  flattenTrace,
  formatRatio,
  timesUsual,
  usualDurations,
} from "../web/src/screens/traces/waterfall-model.js";

describe("the traces screen's selection in the URL", () => {
  it("reads filters as the API's JSON array, keeping the valid ones", () => {
    const route = { field: "attributes.http.route", op: "=", value: "/cart" };
    const filters = (text: string) => readSelection(new URLSearchParams({ filters: text })).filters;
    expect(filters(JSON.stringify([route]))).toEqual([route]);
    expect(filters("not json")).toEqual([]);
    expect(filters(JSON.stringify([{ field: "x", op: "like", value: 1 }, route]))).toEqual([route]);
    expect(readSelection(new URLSearchParams()).filters).toEqual([]);
  });

  it("sends every selected parameter to the API, filters as the same JSON", () => {
    const params = new URLSearchParams({
      service: "shop",
      span_kind: "server",
      max_duration: "300",
      filters: '[{"field":"http_route","op":"=","value":"/cart"}]',
    });
    expect(selectionQuery(readSelection(params))).toEqual({
      service: "shop",
      status: "",
      span_kind: "server",
      min_duration: "",
      max_duration: "300",
      filters: '[{"field":"http_route","op":"=","value":"/cart"}]',
    });
    expect(selectionQuery(readSelection(new URLSearchParams())).filters).toBeUndefined();
  });

  it("adds a filter once and writes it as a chip reads", () => {
    const one = { field: "http_route", op: "=" as const, value: "/cart" };
    expect(withFilter([one], { ...one })).toEqual([one]);
    expect(withFilter([], one)).toEqual([one]);
    expect(filterText(one)).toBe("http_route = /cart");
    expect(filterText({ field: "attributes.db.system", op: "exists" })).toBe(
      "attributes.db.system exists",
    );
    expect(filterText({ field: "span_kind", op: "not_in", value: ["a", "b"] })).toBe(
      "span_kind is not one of a, b",
    );
  });
});

describe("the waterfall's usual durations", () => {
  const trace = {
    names: ["GET /cart", "SELECT cart"],
    services: ["db", "shop"],
    spans: {
      spanId: ["a", "b", "c"],
      parent: [-1, 0, 0],
      name: [0, 1, 1],
      service: [1, 1, 0],
      kind: [0, 0, 0],
      status: [0, 0, 0],
      startOffsetMs: [0, 1, 2],
      durationMs: [900, 80, 10],
      selfTimeMs: [810, 80, 10],
    },
    statuses: ["ok"],
    kinds: ["server"],
    orphans: [],
  } as unknown as TraceSpans;

  it("finds each span's operation by service and name; none without spans before", () => {
    const usual = usualDurations(flattenTrace(trace), {
      operations: [
        { service: "shop", operation: "GET /cart", count: 2, p50Ms: 200, p95Ms: 290 },
        { service: "shop", operation: "SELECT cart", count: 2, p50Ms: 30, p95Ms: 39 },
        { service: "db", operation: "SELECT cart", count: 0, p50Ms: null, p95Ms: null },
      ],
    });
    expect(usual.map((u) => u?.p50Ms)).toEqual([200, 30, undefined]);
    expect(timesUsual(900, usual[0])).toBe(4.5);
    expect(formatRatio(4.5)).toBe("4.5×");
    expect(formatRatio(12.4)).toBe("12×");
    expect(timesUsual(10, usual[2])).toBeUndefined();
  });
});
