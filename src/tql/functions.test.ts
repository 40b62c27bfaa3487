import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FunctionDef } from "./functions/function-def.js";
import { FUNCTIONS, functionNames, resolveFunction } from "./functions.js";
import { renderTqlFunctionsDoc } from "./functions-doc.js";

// The function allow-list on its own; test/tql-functions.int.test.ts holds it against chDB's.

describe("TQL function registry", () => {
  it("has no duplicate names, also among the names ClickHouse compares ignoring case", () => {
    const names = FUNCTIONS.map((def) => def.name);
    expect(names.length).toBe(new Set(names).size);
    const folded = FUNCTIONS.filter((def) => def.caseInsensitive).map((def) =>
      def.name.toLowerCase(),
    );
    expect(folded.length).toBe(new Set(folded).size);
  });

  it("has well-formed entries", () => {
    for (const def of FUNCTIONS) {
      expect(def.description.length, def.name).toBeGreaterThan(0);
      expect(def.minArgs, def.name).toBeGreaterThanOrEqual(0);
      expect(def.maxArgs, def.name).toBeGreaterThanOrEqual(def.minArgs);
      if (def.params) {
        expect(def.aggregate, `${def.name}: only aggregates are parametric`).toBe(true);
        expect(def.params.max, def.name).toBeGreaterThanOrEqual(def.params.min);
      }
      if (def.lambda) expect(def.aggregate, def.name).toBe(false);
    }
  });

  it("keeps docs/tql-functions.md in step with the registry", () => {
    const doc = readFileSync(new URL("../../docs/tql-functions.md", import.meta.url), "utf8");
    expect(doc).toBe(renderTqlFunctionsDoc());
  });
});

describe("resolveFunction", () => {
  const def = (name: string) => FUNCTIONS.find((entry) => entry.name === name) as FunctionDef;

  it("resolves a plain name to its entry", () => {
    expect(resolveFunction("uniqExact")).toEqual({
      name: "uniqExact",
      def: def("uniqExact"),
      aggregate: true,
      minArgs: 1,
      maxArgs: Number.POSITIVE_INFINITY,
      combinators: [],
    });
    expect(resolveFunction("lower")).toMatchObject({ name: "lower", aggregate: false });
  });

  it("adds one condition argument for -If", () => {
    const count = def("count");
    expect(resolveFunction("countIf")).toEqual({
      name: "countIf",
      def: count,
      aggregate: true,
      minArgs: count.minArgs + 1,
      maxArgs: count.maxArgs + 1,
      combinators: ["If"],
    });
  });

  it("keeps the parameters of a parametric aggregate", () => {
    expect(resolveFunction("quantileIf")).toMatchObject({
      name: "quantileIf",
      def: def("quantile"),
      minArgs: 2,
      maxArgs: 2,
      params: { min: 0, max: 1 },
      combinators: ["If"],
    });
    expect(resolveFunction("quantilesArray")?.params).toEqual({
      min: 1,
      max: Number.POSITIVE_INFINITY,
    });
  });

  it("keeps the arity for the other combinators, and stacks them outermost last", () => {
    expect(resolveFunction("sumArray")).toMatchObject({
      minArgs: 1,
      maxArgs: 1,
      combinators: ["Array"],
    });
    expect(resolveFunction("uniqExactIf")).toMatchObject({
      minArgs: 2,
      maxArgs: Number.POSITIVE_INFINITY,
      combinators: ["If"],
    });
    expect(resolveFunction("sumArrayIf")).toMatchObject({
      name: "sumArrayIf",
      minArgs: 2,
      maxArgs: 2,
      combinators: ["Array", "If"],
    });
    expect(resolveFunction("avgOrNullIf")).toMatchObject({ combinators: ["OrNull", "If"] });
    expect(resolveFunction("countDistinct")).toMatchObject({ minArgs: 0, maxArgs: 1 });
    expect(resolveFunction("maxForEachOrDefault")).toMatchObject({
      combinators: ["ForEach", "OrDefault"],
    });
  });

  it("matches case-insensitive names in any case and prints the canonical one", () => {
    expect(resolveFunction("COUNT")).toMatchObject({ name: "count", def: def("count") });
    expect(resolveFunction("CountIf")).toMatchObject({ name: "countIf", combinators: ["If"] });
    expect(resolveFunction("DATEDIFF")?.name).toBe("dateDiff");
    // Combinator suffixes are case-sensitive in ClickHouse: COUNTIF is unknown there.
    expect(resolveFunction("COUNTIF")).toBeUndefined();
    expect(resolveFunction("countif")).toBeUndefined();
    // Case-sensitive names only match exactly.
    expect(resolveFunction("MEDIAN")).toBeUndefined();
    expect(resolveFunction("tostring")).toBeUndefined();
  });

  it("applies combinators to aggregates only, and only the supported ones", () => {
    for (const name of ["lowerIf", "lengthArray", "ifOrNull", "concatDistinct", "arrayMapForEach"])
      expect(resolveFunction(name), name).toBeUndefined();
    for (const name of ["sumState", "sumMerge", "sumResample", "avgMap", "sumSimpleState"])
      expect(resolveFunction(name), name).toBeUndefined();
    for (const name of ["", "OrNull", "Array", "unknownFunction", "unknownIf"])
      expect(resolveFunction(name), name).toBeUndefined();
  });

  it("suggests from the base names", () => {
    expect(functionNames()).toEqual(FUNCTIONS.map((entry) => entry.name));
    expect(functionNames()).toContain("count");
    expect(functionNames()).not.toContain("countIf");
  });
});
