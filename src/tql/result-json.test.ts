import { describe, expect, it } from "vitest";
import { cleanMessage } from "./engine-errors.js";
import { parseTypeName, toJsonRows } from "./result-json.js";

describe("64-bit integers in TQL JSON", () => {
  it("are numbers within ±(2^53−1) and exact strings beyond, at any depth", () => {
    const columns = [
      { name: "n", type: "UInt64" },
      { name: "arr", type: "Array(Nullable(Int64))" },
      { name: "m", type: "Map(LowCardinality(String), UInt64)" },
      { name: "t", type: "Tuple(a UInt64, b String)" },
      { name: "s", type: "String" },
    ];
    const rows = toJsonRows(columns, [
      [
        "9007199254740991",
        ["-9007199254740991", null, "9007199254740992"],
        { k: "18446744073709551615", j: "7" },
        { a: "1", b: "2" },
        "3",
      ],
    ]);
    expect(rows).toEqual([
      [
        9007199254740991,
        [-9007199254740991, null, "9007199254740992"],
        { k: "18446744073709551615", j: 7 },
        { a: 1, b: "2" },
        "3",
      ],
    ]);
  });

  it("parses ClickHouse type names", () => {
    expect(parseTypeName("Map(LowCardinality(String), Array(DateTime64(9, 'UTC')))")).toEqual({
      name: "Map",
      args: [
        { name: "LowCardinality", args: [{ name: "String", args: [] }] },
        { name: "Array", args: [{ name: "DateTime64", args: [] }] },
      ],
    });
  });
});

describe("engine messages", () => {
  it("lose the rewritten query, the project id and the database", () => {
    const context = { projectId: "prj_secret", database: "vigil", maxExecutionSeconds: 30 };
    expect(
      cleanMessage(
        "Illegal type String of argument of function plus: In scope SELECT x FROM vigil.traces WHERE project_id = 'prj_secret'",
        context,
      ),
    ).toBe("Illegal type String of argument of function plus");
    expect(cleanMessage("Unknown table vigil.x for prj_secret", context)).toBe(
      "Unknown table x for …",
    );
  });
});
