import { describe, expect, it } from "vitest";
import type { DashboardVariable } from "../src/contracts/dashboards.js";
import {
  editVariables,
  parseValueList,
  STARTER_VARIABLE_TQL,
  variableProblem,
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
    expect(variableProblem([{ ...custom("a"), values: [] }], 0)?.field).toBe("values");
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
