import { describe, expect, it } from "vitest";
import {
  aggregationsFor,
  effectiveAggregation,
  METRIC_TYPES,
  MetricQuery,
} from "../src/contracts/metric-queries.js";
import { metricQueryTql } from "../src/contracts/metric-queries-tql.js";
import { compileTql } from "../src/tql/compile.js";

const WINDOW = { from: "2026-03-01T10:00:00Z", to: "2026-03-01T11:00:00Z", bucket_seconds: 60 };
const compiles = (text: string, window = true) =>
  compileTql(text, {
    database: "vigil",
    rowCap: 10_001,
    ...(window ? { parameters: WINDOW } : {}),
  });

describe("metric queries as TQL", () => {
  it("compiles every aggregation of every type, for a chart and for an alert", () => {
    for (const type of METRIC_TYPES)
      for (const monotonic of [false, true])
        for (const aggregation of aggregationsFor(type, monotonic)) {
          const query = {
            metric: "m",
            type,
            monotonic,
            aggregation,
            groupBy: ["service_name", "attributes.state", "resource.host.name"],
            filters: [{ field: "attributes.cpu", op: "in" as const, value: ["cpu0", "cpu1"] }],
          };
          const chart = metricQueryTql(query);
          expect(() => compiles(chart), `${type} ${aggregation}`).not.toThrow();
          const alert = metricQueryTql(query, "alert");
          expect(() => compiles(alert, false), `${type} ${aggregation} alert`).not.toThrow();
          expect(alert).not.toMatch(/\{(from|to|bucket_seconds):/);
          expect(alert).not.toContain("$__");
        }
  });

  it("reads the window through the macros and placeholders a dashboard binds", () => {
    const gauge = metricQueryTql({ metric: "m", type: "gauge" });
    expect(gauge).toContain("$__timeFilter(timestamp)");
    expect(gauge).toContain("$__timeInterval(timestamp) AS t");
    expect(gauge).toMatch(/ORDER BY t$/);
    // A counter looks five minutes before the window for each series' previous point.
    const counter = metricQueryTql({ metric: "m", type: "sum", monotonic: true });
    expect(counter).toContain(
      "timestamp >= {from:DateTime64(3)} - INTERVAL 5 MINUTE AND timestamp < {to:DateTime64(3)}",
    );
  });

  it("defaults by type: counters as rates, gauges and sums as averages, distributions as quantiles", () => {
    const base = { metric: "m", groupBy: [], filters: [] };
    const of = (type: (typeof METRIC_TYPES)[number], monotonic = false) =>
      effectiveAggregation(MetricQuery.parse({ ...base, type, monotonic }));
    expect(of("sum", true)).toBe("rate");
    expect(of("sum")).toBe("avg");
    expect(of("gauge")).toBe("avg");
    expect(of("histogram")).toBe("quantile");
    expect(of("exponential_histogram")).toBe("quantile");
    expect(of("summary")).toBe("quantile");
  });

  it("names group columns plainly, once each, off the names the query uses", () => {
    const text = metricQueryTql({
      metric: "m",
      type: "gauge",
      groupBy: ["resource.host.name", "attributes.host.name", "attributes.value", "service_name"],
    });
    expect(text).toContain("resource_attributes['host.name'] AS host_name");
    expect(text).toContain("attributes['host.name'] AS host_name_2");
    expect(text).toContain("attributes['value'] AS value_2");
    expect(text.split("\n")[0]).toBe(
      "SELECT t, host_name, host_name_2, value_2, service_name, avg(v) AS value",
    );
  });

  it("keeps names and values as string literals", () => {
    const hostile = "x' OR 1=1 --";
    const text = metricQueryTql({
      metric: hostile,
      type: "gauge",
      filters: [{ field: "attributes.a'b", op: "=", value: "\\'" }],
    });
    expect(text).toContain("metric_name = 'x\\' OR 1=1 --'");
    const printed = compiles(text);
    expect(Object.values(printed.params)).toEqual(expect.arrayContaining([hostile, "\\'", "a'b"]));
  });

  it("refuses what a type does not take, and fields the metrics table has not, naming them", () => {
    const issues = (input: unknown) =>
      MetricQuery.safeParse(input).error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(issues({ metric: "m", type: "gauge", aggregation: "rate" })).toEqual(["aggregation"]);
    expect(issues({ metric: "m", type: "sum", monotonic: true, aggregation: "avg" })).toEqual([
      "aggregation",
    ]);
    expect(
      issues({ metric: "m", type: "gauge", groupBy: ["value", "nope", "attributes."] }),
    ).toEqual(["groupBy.0", "groupBy.1", "groupBy.2"]);
    expect(
      issues({ metric: "m", type: "gauge", filters: [{ field: "nope", op: "=", value: "x" }] }),
    ).toEqual(["filters.0.field"]);
    expect(issues({ metric: "m", type: "counter" })).toEqual(["type"]);
    expect(issues({ metric: "", type: "gauge" })).toEqual(["metric"]);
    expect(issues({ metric: "m", type: "histogram", quantile: 1.5 })).toEqual(["quantile"]);
    expect(() => metricQueryTql({ metric: "m", type: "gauge", aggregation: "rate" })).toThrow();
  });
});
