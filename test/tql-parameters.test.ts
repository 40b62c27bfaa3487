/**
 * TQL's bound parameters at the compiler: `{name:Type}` placeholders printed under the engine's
 * renamed `p_name`, their values bound (never in the SQL), the time macros expanded, and
 * refusals at the right line and column. The values' checks: tql-parameters-values.test.ts; the
 * engine: tql-parameters-engine.int.test.ts; HTTP: tql-parameters-http.int.test.ts.
 */
import { describe, expect, it } from "vitest";
import { TqlParameters, TqlRequest } from "../src/contracts/tql.js";
import { compileTql } from "../src/tql/compile.js";
import { tokenize } from "../src/tql/lexer.js";
import { TqlError } from "../src/tql/tql-errors.js";

const GUARD = "PREWHERE `project_id` = {project:String}";
const WINDOW = { from: "2026-03-01T10:00:00Z", to: "2026-03-01T11:00:00Z", bucket_seconds: 60 };
const compile = (text: string, parameters: Record<string, unknown> = {}) =>
  compileTql(text, { database: "vigil", rowCap: 10_001, parameters });

function refusal(text: string, parameters: Record<string, unknown> = {}): TqlError {
  try {
    compile(text, parameters);
  } catch (error) {
    if (error instanceof TqlError) return error;
    throw error;
  }
  throw new Error(`expected TQL to refuse: ${text}`);
}

/** What a refusal tells the caller: its message, the field it names and where. */
const told = (text: string, parameters: Record<string, unknown> = {}) => {
  const error = refusal(text, parameters);
  const position = error.extensions.position as { line: number; column: number } | undefined;
  return { message: error.message, field: error.issues[0]?.field, position };
};

describe("TQL placeholders: the lexer", () => {
  it("reads braces as operators and $name as a macro", () => {
    expect(
      tokenize("{a:String} $__timeFilter(ts) a$b").map((t) => [t.kind, t.text, t.pos]),
    ).toEqual([
      ["op", "{", 0],
      ["word", "a", 1],
      ["op", ":", 2],
      ["word", "String", 3],
      ["op", "}", 9],
      ["macro", "$__timeFilter", 11],
      ["op", "(", 24],
      ["word", "ts", 25],
      ["op", ")", 27],
      ["word", "a$b", 29],
      ["eof", "", 32],
    ]);
  });
});

describe("TQL placeholders: printing", () => {
  it("prints each placeholder renamed, with its canonical type, and binds its value", () => {
    const { sql, params } = compile(
      "SELECT {n:uint32} + 1 AS n1, {name:String} AS s, {ids:Array(String)} AS ids, {at:DateTime64(6)} AS at, {d:DateTime} AS d FROM traces WHERE service_name = {name:String}",
      {
        n: 41,
        name: "checkout",
        ids: ["a", "b"],
        at: "2026-03-01T10:00:00.123456Z",
        d: "2026-03-01",
      },
    );
    expect(sql).toContain("SELECT ({p_n:UInt32} + 1) AS `n1`, {p_name:String} AS `s`");
    expect(sql).toContain("{p_ids:Array(String)} AS `ids`");
    expect(sql).toContain("{p_at:DateTime64(6, 'UTC')} AS `at`, {p_d:DateTime('UTC')} AS `d`");
    expect(sql).toContain("WHERE (`service_name` = {p_name:String})");
    expect(params).toEqual({
      p_n: "41",
      p_name: "checkout",
      p_ids: ["a", "b"],
      p_at: "2026-03-01 10:00:00.123456",
      p_d: "2026-03-01 00:00:00",
    });
  });

  it("keeps the printer's own parameters apart: a user's project or s0 is p_project, p_s0", () => {
    const { sql, params } = compile(
      "SELECT count() FROM traces WHERE service_name IN ({project:String}, {s0:String}, 'lit')",
      { project: "prj_other", s0: "x" },
    );
    expect(sql.split(GUARD).length - 1).toBe(1);
    expect(sql).toContain("IN tuple({p_project:String}, {p_s0:String}, {s0:String})");
    expect(params).toEqual({ p_project: "prj_other", p_s0: "x", s0: "lit" });
    expect(sql.replace(GUARD, "")).not.toContain("{project:");
  });

  it("never writes a value into the SQL, whatever it holds", () => {
    const hostile = [
      "x') OR 1=1 --",
      "' UNION SELECT * FROM system.tables --",
      "{project:String}",
      "\\' \\\\ \n\r\t\0 `\"",
    ];
    for (const value of hostile) {
      const { sql, params } = compile(
        "SELECT count() FROM logs WHERE message = {m:String} OR message IN {ms:Array(String)}",
        { m: value, ms: [value, value] },
      );
      expect(sql.replace(GUARD, "")).not.toContain(value);
      expect(sql).toContain(
        "WHERE ((`message` = {p_m:String}) OR (`message` IN {p_ms:Array(String)}))",
      );
      expect(params).toMatchObject({ p_m: value, p_ms: [value, value] });
    }
  });

  it("takes x IN {list:Array(T)} and refuses IN a scalar parameter", () => {
    expect(compile("SELECT 1 WHERE 2 NOT IN {xs:Array(UInt8)}", { xs: [1] }).sql).toContain(
      "(2 NOT IN {p_xs:Array(UInt8)})",
    );
    expect(told("SELECT 1 WHERE 2 IN {x:UInt8}")).toMatchObject({
      message: expect.stringContaining("IN takes a list, a subquery or an Array parameter"),
      position: { line: 1, column: 21 },
    });
  });

  it("binds placeholders in every position: CTEs, subqueries, joins, unions, casts, lambdas", () => {
    const { sql, params } = compile(
      `WITH {k:String} AS k, s AS (SELECT trace_id FROM traces WHERE service_name = {svc:String})
       SELECT arrayMap(x -> x * {m:Float64}, [1, 2]), CAST({n:Int8} AS String), {n:Int8}::Int64
       FROM logs AS l JOIN s ON l.trace_id = s.trace_id AND {on:Bool}
       WHERE l.timestamp BETWEEN {from:DateTime64(3)} AND {to:DateTime64(3)}
       LIMIT 5
       UNION ALL SELECT {a:Array(Int64)}, k, 1 FROM traces WHERE {n:Int8} > 0`,
      { ...WINDOW, k: "key", svc: "s", m: 1.5, n: "-3", on: "true", a: [1, -2] },
    );
    expect(sql.split(GUARD).length - 1).toBe(3);
    for (const key of ["p_k", "p_svc", "p_m", "p_n", "p_on", "p_from", "p_to", "p_a"])
      expect(sql).toContain(`{${key}:`);
    expect(params).toMatchObject({ p_m: 1.5, p_n: "-3", p_on: "true", p_a: [1, -2] });
  });

  it("ignores values no placeholder uses, and binds nothing when there are none", () => {
    expect(compile("SELECT 1", { unused: "x", other: [1, 2] }).params).toEqual({});
    expect(compile("SELECT {a:String}", { a: "x", b: "y" }).params).toEqual({ p_a: "x" });
  });
});

describe("TQL time macros", () => {
  it("expands $__timeFilter(col) into col >= {from} AND col < {to}", () => {
    const { sql, params } = compile(
      "SELECT count() FROM traces WHERE $__timeFilter(timestamp) AND status = 'error'",
      WINDOW,
    );
    expect(sql).toContain(
      "WHERE (((`timestamp` >= {p_from:DateTime64(3, 'UTC')}) AND (`timestamp` < {p_to:DateTime64(3, 'UTC')})) AND (`status` = {s0:String}))",
    );
    expect(params).toEqual({
      p_from: "2026-03-01 10:00:00.000",
      p_to: "2026-03-01 11:00:00.000",
      s0: "error",
    });
  });

  it("expands $__timeInterval(col) into toStartOfInterval over {bucket_seconds}", () => {
    const { sql, params } = compile(
      "SELECT $__timeInterval(l.timestamp) AS t, count() FROM logs AS l WHERE $__timeFilter(l.timestamp) OR $__timeFilter(l.observed_timestamp) GROUP BY t ORDER BY t",
      WINDOW,
    );
    expect(sql).toContain(
      "SELECT toStartOfInterval(`l`.`timestamp`, toIntervalSecond({p_bucket_seconds:UInt32})) AS `t`",
    );
    expect(sql).toContain("(`l`.`observed_timestamp` < {p_to:DateTime64(3, 'UTC')})");
    expect(params).toMatchObject({ p_bucket_seconds: "60" });
  });

  it("lets a query use the window's placeholders itself, with their fixed types", () => {
    const { sql } = compile(
      "SELECT {from:DateTime64(3)}, {to:DateTime64(3)}, {bucket_seconds:UInt32}",
      WINDOW,
    );
    expect(sql).toBe(
      "SELECT {p_from:DateTime64(3, 'UTC')}, {p_to:DateTime64(3, 'UTC')}, {p_bucket_seconds:UInt32} LIMIT 10001",
    );
    expect(told("SELECT 1,\n  {from:DateTime}")).toEqual({
      message: "{from} is the time window's and is always {from:DateTime64(3)}",
      field: "query",
      position: { line: 2, column: 3 },
    });
    expect(told("SELECT {bucket_seconds:UInt64}").message).toContain("{bucket_seconds:UInt32}");
  });

  it("refuses misuse where it is written", () => {
    expect(told("SELECT count()\nFROM traces WHERE $__timeFilter(timestamp, 1)")).toMatchObject({
      message: expect.stringMatching(/^\$__timeFilter takes one argument, the time column.*not 2$/),
      position: { line: 2, column: 19 },
    });
    expect(told("SELECT $__timeInterval()").position).toEqual({ line: 1, column: 8 });
    expect(told("SELECT\n\n    $__timeFiltr(timestamp)")).toMatchObject({
      message: expect.stringContaining("Unknown macro $__timeFiltr (did you mean $__timeFilter?)"),
      position: { line: 3, column: 5 },
    });
    expect(told("SELECT $__interval_ms").message).toMatch(
      /^Unknown macro \$__interval_ms; TQL has/,
    );
    expect(told("SELECT $__timeFilter timestamp")).toMatchObject({
      message: "Expected '(' after $__timeFilter: $__timeFilter(timestamp) but found 'timestamp'",
      position: { line: 1, column: 22 },
    });
    // The expansion is analyzed like any query: an unknown column is named.
    expect(told("SELECT count() FROM traces WHERE $__timeFilter(tstamp)", WINDOW)).toMatchObject({
      message: expect.stringContaining("Unknown column 'tstamp'"),
      position: { line: 1, column: 48 },
    });
  });

  it("names the window's missing value and the macro that needs it", () => {
    expect(
      told("SELECT 1 FROM traces\nWHERE $__timeFilter(timestamp)", { from: WINDOW.from }),
    ).toEqual({
      message:
        "Parameter 'to' (DateTime64(3), of $__timeFilter) has no value: give it as parameters.to",
      field: "parameters.to",
      position: { line: 2, column: 7 },
    });
  });
});

describe("TQL placeholders: refusals", () => {
  const cases: [string, string, { line: number; column: number }][] = [
    ["SELECT {1a:String}", "Malformed number", { line: 1, column: 9 }],
    ["SELECT {select:String}", "", { line: 1, column: 1 }],
    ["SELECT {`a`:String}", "Expected a parameter name in {name:Type}", { line: 1, column: 9 }],
    [
      "SELECT {a String}",
      "Expected ':' and a type after {a but found 'String'",
      { line: 1, column: 11 },
    ],
    ["SELECT {a:String", "Expected '}' but found the end of the query", { line: 1, column: 17 }],
    [
      "SELECT {a:Map(String, String)}",
      "A parameter's type is one of String, Bool",
      { line: 1, column: 11 },
    ],
    ["SELECT {a:Nullable(String)}", "not 'Nullable'", { line: 1, column: 11 }],
    ["SELECT {a:Array(Array(String))}", "not an array of arrays", { line: 1, column: 17 }],
    ["SELECT {a:Array()}", "Array takes one element type", { line: 1, column: 11 }],
    ["SELECT {a:DateTime('UTC')}", "DateTime takes no arguments here", { line: 1, column: 11 }],
    [
      "SELECT {a:DateTime64}",
      "DateTime64 takes one precision from 0 to 9",
      { line: 1, column: 11 },
    ],
    ["SELECT {a:DateTime64(3, 'UTC')}", "DateTime64 takes one precision", { line: 1, column: 11 }],
    ["SELECT {a:DateTime64(12)}", "DateTime64 takes one precision", { line: 1, column: 11 }],
    ["SELECT {a:String(1)}", "String takes no arguments here", { line: 1, column: 11 }],
    [
      "SELECT {a:String}, {a:UInt8}",
      "Parameter {a} is used as String and as UInt8",
      { line: 1, column: 20 },
    ],
    [`SELECT {${"a".repeat(65)}:String}`, "Expected a parameter name", { line: 1, column: 9 }],
    ["SELECT {a:String}}", "Unexpected '}' after the end of the query", { line: 1, column: 18 }],
  ];
  for (const [text, message, position] of cases)
    it(`refuses ${text.slice(0, 60)}`, () => {
      const error = told(text, { a: "x" });
      if (message === "") {
        // A reserved word is still a name here: {select:String} is a parameter.
        expect(compile(text, { select: "x" }).sql).toBe("SELECT {p_select:String} LIMIT 10001");
        return;
      }
      expect(error.message).toContain(message);
      expect(error.field).toBe("query");
      expect(error.position).toEqual(position);
    });
});

describe("TqlRequest: parameters", () => {
  it("accepts a record of values and refuses bad names, too many, or unfit values", () => {
    const ok = TqlRequest.safeParse({
      query: "SELECT 1",
      parameters: { a: "x", n: 1, b: true, l: ["a", 2] },
    });
    expect(ok.success).toBe(true);
    expect(TqlRequest.safeParse({ query: "SELECT 1" }).success).toBe(true);
    const paths = (value: unknown) =>
      TqlRequest.safeParse({ query: "SELECT 1", parameters: value }).error?.issues.map((i) =>
        i.path.join("."),
      );
    expect(paths({ "a-b": "x" })).toEqual(["parameters.a-b"]);
    expect(paths({ a: null })).toEqual(["parameters.a"]);
    expect(paths({ a: { nested: 1 } })).toEqual(["parameters.a"]);
    expect(paths({ a: [[1]] })).toEqual(["parameters.a"]);
    expect(paths({ a: "x".repeat(4097) })).toEqual(["parameters.a"]);
    expect(paths({ a: Array.from({ length: 1001 }, () => 1) })).toEqual(["parameters.a"]);
    expect(paths(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, i])))).toEqual([
      "parameters",
    ]);
    expect(TqlParameters.safeParse({ [`${"a".repeat(64)}`]: 1 }).success).toBe(true);
  });
});
