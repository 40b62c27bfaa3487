import { describe, expect, it } from "vitest";
import { BuilderQuery } from "../src/contracts/query-builder.js";
import { valueText } from "../web/src/components/filters/filter-model.js";
import {
  builderParam,
  compileBuilder,
  initialBuilder,
  keepOrder,
  readBuilderParam,
  valueFor,
  withOp,
} from "../web/src/components/query-builder/builder-state.js";
import {
  alertFromBuilderHref,
  alertFromTqlHref,
  builderTitle,
} from "../web/src/screens/tql/alert-from-query.js";

const query = BuilderQuery.parse({
  source: "traces",
  filters: [{ field: "service_name", op: "in", value: ["a", "b"] }],
  aggregations: [{ fn: "p95", field: "duration_ms" }, { fn: "count" }],
  groupBy: ["http_route"],
  orderBy: { by: 1, dir: "asc" },
  bucket: 60,
});

describe("the query builder's state in the browser", () => {
  it("goes through the URL and back, half-written parts too", () => {
    expect(readBuilderParam(builderParam(query))).toEqual(query);
    const draft = { ...query, filters: [{ field: "", op: "=", value: "" }], groupBy: [""] };
    expect(readBuilderParam(JSON.stringify(draft))).toEqual(draft);
    // Parts that are not the builder's are dropped; no state at all is null.
    expect(
      readBuilderParam(
        JSON.stringify({ source: "logs", filters: [{ op: "like" }, 3], aggregations: ["x"] }),
      ),
    ).toMatchObject({ source: "logs", filters: [], aggregations: [{ fn: "count" }] });
    expect(readBuilderParam("{")).toBeNull();
    expect(readBuilderParam(JSON.stringify({ source: "files" }))).toBeNull();
    expect(initialBuilder(null, ["logs"])).toMatchObject({ source: "logs", bucket: "auto" });
  });

  it("compiles, or names what is missing at its path", () => {
    const ok = compileBuilder(query, "chart");
    expect(ok.ok && ok.tql).toMatch(/^SELECT toStartOfInterval/);
    const half = compileBuilder(
      keepOrder({ ...query, groupBy: [""], aggregations: [{ fn: "sum" }] }),
      "table",
    );
    expect(half).toEqual({
      ok: false,
      issues: [
        { path: ["groupBy", 0], message: "Choose a field" },
        { path: ["aggregations", 0, "field"], message: "sum takes a field" },
      ],
    });
  });

  it("reads a filter's value for its operator and keeps it across operators", () => {
    expect(valueFor("in", "a, b,")).toEqual(["a", "b"]);
    expect(valueFor(">", "2.5")).toBe(2.5);
    expect(valueFor(">", "slow")).toBe("slow");
    expect(valueFor(">", "")).toBe("");
    expect(valueFor("not_in", " , ")).toEqual([]);
    expect(valueFor("exists", "x")).toBeUndefined();
    expect(valueText(["a", "b"])).toBe("a, b");
    expect(withOp({ field: "level", op: "=", value: "error" }, "in")).toEqual({
      field: "level",
      op: "in",
      value: ["error"],
    });
    expect(withOp({ field: "level", op: "=", value: "x" }, "exists")).toEqual({
      field: "level",
      op: "exists",
    });
  });

  it("drops an order naming a removed aggregation or group", () => {
    expect(keepOrder({ ...query, aggregations: [{ fn: "count" }] }).orderBy).toBeUndefined();
    expect(keepOrder({ ...query, orderBy: { by: "gone", dir: "asc" } }).orderBy).toBeUndefined();
    expect(keepOrder(query).orderBy).toEqual({ by: 1, dir: "asc" });
  });

  it("opens the alert form with the builder's alert query and state, which the form reads back", () => {
    expect(builderTitle(query)).toBe("p95(duration_ms) of traces by http_route");
    const href = alertFromBuilderHref("prj_1", { ...query, window: 600 });
    expect(href.startsWith("/projects/prj_1/alerts/new?")).toBe(true);
    const params = new URLSearchParams(href.split("?")[1]);
    expect(params.get("query")).toBe(
      [
        "SELECT http_route, quantile(0.95)(`duration_ms`) AS value",
        "FROM traces",
        "WHERE timestamp >= now() - INTERVAL 600 SECOND",
        "  AND `service_name` IN ('a', 'b')",
        "GROUP BY http_route",
      ].join("\n"),
    );
    // The form opens in its builder with this state (draftFromParams reads it so).
    expect(readBuilderParam(params.get("builder"))).toEqual({ ...query, window: 600 });
  });

  it("opens the alert form with an editor's query and its placeholders' values", () => {
    const href = alertFromTqlHref("p", "SELECT {n:UInt8} AS value", "", { n: ["3", "4"] });
    const params = new URLSearchParams(href.split("?")[1]);
    expect([...params]).toEqual([
      ["query", "SELECT {n:UInt8} AS value"],
      ["name", "TQL query"],
      ["var-n", "3"],
      ["var-n", "4"],
    ]);
  });
});
