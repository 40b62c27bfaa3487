import { describe, expect, it } from "vitest";
import type { DashboardVariable } from "../src/contracts/dashboards.js";
import {
  editOrigins,
  editVariables,
  followRenames,
  parseValueList,
  renamePlaceholders,
  STARTER_VARIABLE_TQL,
  variableProblem,
  variableRenames,
} from "../web/src/screens/dashboards/edit/variable-edits.js";

const custom = (name: string, values = ["a", "b"]): DashboardVariable => ({
  type: "custom",
  name,
  values,
  multi: false,
  includeAll: false,
});

describe("editing variables", () => {
  it("adds a query variable with a free name and a starter query", () => {
    const list = editVariables([custom("var1")], { kind: "add" });
    expect(list[1]).toEqual({
      type: "query",
      name: "var2",
      multi: false,
      includeAll: false,
      tql: STARTER_VARIABLE_TQL,
    });
  });

  it("changes fields, dropping an emptied label and narrowing a single-select's default", () => {
    let list = editVariables([custom("env")], {
      kind: "change",
      index: 0,
      change: { label: "Environment", multi: true, default: ["a", "b"] },
    });
    expect(list[0]).toMatchObject({ label: "Environment", multi: true, default: ["a", "b"] });
    list = editVariables(list, { kind: "change", index: 0, change: { label: "", multi: false } });
    expect(list[0]).not.toHaveProperty("label");
    expect(list[0]?.default).toBe("a");
  });

  it("ignores a field the variable's kind does not have", () => {
    const list = editVariables([custom("env")], { kind: "change", index: 0, change: { tql: "x" } });
    expect(list[0]).not.toHaveProperty("tql");
  });

  it("retypes keeping the common fields; a text box takes one value and no All", () => {
    const start: DashboardVariable = {
      ...custom("env"),
      multi: true,
      includeAll: true,
      default: ["b"],
    };
    const query = editVariables([start], { kind: "retype", index: 0, type: "query" })[0];
    expect(query).toMatchObject({ type: "query", name: "env", multi: true, includeAll: true });
    expect(query).not.toHaveProperty("values");
    const text = editVariables([start], { kind: "retype", index: 0, type: "text" })[0];
    expect(text).toEqual({
      type: "text",
      name: "env",
      multi: false,
      includeAll: false,
      default: "b",
    });
    const back = editVariables([start], { kind: "retype", index: 0, type: "custom" })[0];
    expect(back).toMatchObject({ type: "custom", values: ["a", "b"] });
  });

  it("removes and reorders, ignoring moves out of the list", () => {
    const list = [custom("a"), custom("b"), custom("c")];
    expect(editVariables(list, { kind: "move", index: 2, to: 0 }).map((v) => v.name)).toEqual([
      "c",
      "a",
      "b",
    ]);
    expect(editVariables(list, { kind: "move", index: 0, to: 3 }).map((v) => v.name)).toEqual([
      "a",
      "b",
      "c",
    ]);
    expect(editVariables(list, { kind: "remove", index: 1 }).map((v) => v.name)).toEqual([
      "a",
      "c",
    ]);
  });
});

describe("a variable's problem", () => {
  it("names a reserved, malformed or repeated name", () => {
    expect(variableProblem([custom("from")], 0)?.field).toBe("name");
    expect(variableProblem([custom("1x")], 0)?.message).toMatch(/letter/);
    expect(variableProblem([custom("a"), custom("a")], 1)?.message).toMatch(/another/);
    expect(variableProblem([custom("a"), custom("a")], 0)).toBeNull();
  });

  it("names an empty query or list", () => {
    const empty: DashboardVariable = {
      type: "custom",
      name: "a",
      values: [],
      multi: false,
      includeAll: false,
    };
    expect(variableProblem([empty], 0)?.field).toBe("values");
    const query: DashboardVariable = {
      type: "query",
      name: "q",
      tql: " ",
      multi: false,
      includeAll: false,
    };
    expect(variableProblem([query], 0)?.field).toBe("tql");
  });

  it("reads a typed list: trimmed, once each, no empties", () => {
    expect(parseValueList(" a, b,,a , c ")).toEqual(["a", "b", "c"]);
  });
});

describe("renaming a variable", () => {
  it("follows the list's places through adds, moves and removes", () => {
    let origins = ["a", "b", "c"] as (string | null)[];
    origins = editOrigins(origins, { kind: "add" }, 3);
    origins = editOrigins(origins, { kind: "move", index: 3, to: 0 }, 4);
    origins = editOrigins(origins, { kind: "remove", index: 2 }, 4);
    expect(origins).toEqual([null, "a", "c"]);
  });

  it("is a rename only when the old name is gone", () => {
    const list = [custom("svc"), custom("b"), custom("a")];
    expect([...variableRenames(["a", "b", null], list)]).toEqual([]);
    expect([...variableRenames(["service", "b", null], list)]).toEqual([["service", "svc"]]);
  });

  it("renames the placeholders of panel and variable queries, not strings or other names", () => {
    const renames = new Map([["service", "svc"]]);
    expect(
      renamePlaceholders(
        "SELECT '{service:String}' WHERE a = { service : String } AND b IN {service:Array(String)} AND c = {services:String}",
        renames,
      ),
    ).toBe(
      "SELECT '{service:String}' WHERE a = {svc:String} AND b IN {svc:Array(String)} AND c = {services:String}",
    );
    const doc = followRenames(
      {
        panels: [
          {
            title: "p",
            type: "stat",
            gridPos: { x: 0, y: 0, w: 4, h: 4 },
            queries: [{ tql: "SELECT {service:String}" }],
            unit: "none",
            thresholds: [],
            links: [],
            options: {},
          },
        ],
        variables: [
          {
            type: "query",
            name: "op",
            tql: "SELECT 1 WHERE s = {service:String}",
            multi: false,
            includeAll: false,
          },
        ],
      },
      renames,
    );
    expect(doc.variables[0]).toMatchObject({ tql: "SELECT 1 WHERE s = {svc:String}" });
    expect(doc.panels[0]?.queries[0]?.tql).toBe("SELECT {svc:String}");
  });
});
