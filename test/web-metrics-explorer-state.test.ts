import { describe, expect, it } from "vitest";
import {
  explorerParams,
  groupFields,
  panelUnit,
  queryFor,
  queryTitle,
  readExplorer,
} from "../web/src/screens/metrics/explorer-state.js";

const read = (query: string) => readExplorer(new URLSearchParams(query));

describe("the metrics explorer's URL state", () => {
  it("reads a metric query and writes it back, defaults left out", () => {
    const filters = [{ field: "attributes.state", op: "=", value: "used" }];
    const query = read(
      `metric=system.cpu.time&type=sum&monotonic=1&agg=increase&by=resource.host.name,attributes.cpu&filters=${encodeURIComponent(JSON.stringify(filters))}`,
    );
    expect(query).toEqual({
      metric: "system.cpu.time",
      type: "sum",
      monotonic: true,
      aggregation: "increase",
      groupBy: ["resource.host.name", "attributes.cpu"],
      filters,
    });
    expect(query && explorerParams(query)).toEqual({
      metric: "system.cpu.time",
      type: "sum",
      monotonic: "1",
      agg: "increase",
      quantile: undefined,
      by: "resource.host.name,attributes.cpu",
      filters: JSON.stringify(filters),
    });
  });

  it("needs a metric and a known type, and leaves out what the contract refuses", () => {
    expect(read("type=gauge")).toBeNull();
    expect(read("metric=m&type=counter")).toBeNull();
    expect(
      read("metric=m&type=gauge&agg=rate&quantile=7&by=value,attributes.k&filters=[nope"),
    ).toEqual({
      metric: "m",
      type: "gauge",
      monotonic: false,
      groupBy: ["attributes.k"],
      filters: [],
    });
    expect(read("metric=h&type=histogram&quantile=0.99")?.quantile).toBe(0.99);
    // A bad filter (a NaN written as null) is left out; the others stay.
    const good = { field: "attributes.state", op: "=", value: "used" };
    const bad = { field: "attributes.cpu", op: ">", value: null };
    expect(
      read(`metric=m&type=gauge&filters=${encodeURIComponent(JSON.stringify([bad, good]))}`)
        ?.filters,
    ).toEqual([good]);
  });

  it("starts a chosen metric at its type's default, and offers its keys to group by", () => {
    const cpu = { name: "system.cpu.time", type: "sum" as const, monotonic: true };
    expect(queryFor(cpu)).toEqual({
      metric: cpu.name,
      type: "sum",
      monotonic: true,
      groupBy: [],
      filters: [],
    });
    expect(
      groupFields({ attributeKeys: ["state"], resourceKeys: ["host.name", "service.name"] }).map(
        (f) => f.field,
      ),
    ).toEqual(["service_name", "resource.host.name", "attributes.state"]);
  });

  it("titles a chart and picks a panel unit", () => {
    const query = {
      ...queryFor({ name: "lat", type: "histogram", monotonic: false }),
      quantile: 0.99,
      groupBy: ["resource.host.name"],
    };
    expect(queryTitle(query, "quantile")).toBe("lat · p99 by host.name");
    expect(panelUnit("ms", "quantile")).toBe("ms");
    expect(panelUnit("By", "rate")).toBe("none");
    expect(panelUnit("By", "avg")).toBe("bytes");
  });
});
