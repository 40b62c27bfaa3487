import { describe, expect, it } from "vitest";
import { compileTql } from "./compile.js";
import { tokenize } from "./lexer.js";
import { TqlError } from "./tql-errors.js";

const GUARD = "PREWHERE `project_id` = {project:String}";
const compile = (text: string) => compileTql(text, { database: "vigil", rowCap: 10_001 });

function rejection(text: string): TqlError {
  try {
    compile(text);
  } catch (error) {
    if (error instanceof TqlError) return error;
    throw error;
  }
  throw new Error(`expected TQL to refuse: ${text}`);
}

describe("TQL lexer", () => {
  it("unescapes strings, re-spells numbers and drops nested comments", () => {
    const tokens = tokenize(
      "SELECT 'it''s \\n \\x41 \\' \\\\', 0x1F, 0b101, .5, 1e3 /* a /* nested */ comment */ -- tail\n",
    );
    expect(tokens.map((t) => [t.kind, t.text])).toEqual([
      ["word", "SELECT"],
      ["string", "it's \n A ' \\"],
      ["op", ","],
      ["number", "31"],
      ["op", ","],
      ["number", "5"],
      ["op", ","],
      ["number", "0.5"],
      ["op", ","],
      ["number", "1e3"],
      ["eof", ""],
    ]);
  });

  it("reads t.1 as tuple access, not a decimal", () => {
    expect(tokenize("t.1").map((t) => t.text)).toEqual(["t", ".", "1", ""]);
  });
});

describe("TQL printer", () => {
  it("guards every table reference at every level", () => {
    const { sql } = compile(`
      WITH errs AS (SELECT trace_id FROM traces WHERE status = 'error')
      SELECT l.message FROM logs AS l
      LEFT JOIN (SELECT trace_id, count() AS n FROM traces GROUP BY trace_id) AS t USING (trace_id)
      WHERE l.trace_id IN (SELECT trace_id FROM errs)
        AND EXISTS (SELECT 1 FROM ai_spans)
        AND l.service_name = (SELECT any(service_name) FROM metrics)
      UNION ALL SELECT message FROM error_groups`);
    expect(sql.split(GUARD).length - 1).toBe(6);
    expect(sql).toContain("FROM `vigil`.`error_groups` FINAL PREWHERE");
    expect(sql.replaceAll(GUARD, "")).not.toContain("project_id");
  });

  it("binds strings, keeps numbers as digits and quotes names", () => {
    const { sql, params } = compile(
      "SELECT `odd``name` FROM (SELECT 1 AS `odd``name`) WHERE 'a' = 'a' OR 'b' != \"odd`name\"",
    );
    expect(params).toEqual({ s0: "a", s1: "b" });
    expect(sql).toContain("{s0:String} = {s0:String}");
    expect(sql).toContain("SELECT 1 AS `odd\\`name`");
  });

  it("caps the outermost result at the row cap", () => {
    expect(compile("SELECT 1").sql).toMatch(/LIMIT 10001$/);
    expect(compile("SELECT 1 LIMIT 5 OFFSET 2").sql).toMatch(/LIMIT 5 OFFSET 2$/);
    expect(compile("SELECT 1 LIMIT 2, 20000").sql).toMatch(/LIMIT 10001 OFFSET 2$/);
    expect(compile("SELECT 1 UNION ALL SELECT 2").sql).toMatch(
      /^SELECT \* FROM \(.*\) LIMIT 10001$/,
    );
    // Inner limits are the user's own.
    expect(compile("SELECT * FROM (SELECT 1 LIMIT 50000)").sql).toContain("LIMIT 50000)");
  });

  it("prints operators with explicit grouping in ClickHouse precedence", () => {
    const { sql } = compile("SELECT 1 + 2 * 3 - 4, NOT 1 = 2 AND 3 OR 4, 1 ? 2 : 3 ? 4 : 5");
    expect(sql).toContain("((1 + (2 * 3)) - 4)");
    expect(sql).toContain("(((NOT (1 = 2)) AND 3) OR 4)");
    expect(sql).toContain("if(1, 2, if(3, 4, 5))");
  });

  it("resolves functions, combinators and lambdas", () => {
    const { sql } = compile(
      "SELECT COUNT(*), countIf(status = 'error'), quantile(0.95)(duration_ms), arrayMap(x -> x * 2, [1, 2]) FROM traces",
    );
    expect(sql).toContain("count()");
    expect(sql).toContain("countIf((`status` = {s0:String}))");
    expect(sql).toContain("quantile(0.95)(`duration_ms`)");
    expect(sql).toContain("arrayMap(`x` -> (`x` * 2), [1, 2])");
  });
});

describe("TQL refusals", () => {
  it.each([
    ["DROP TABLE traces", "Only SELECT is permitted; DROP statements are not allowed"],
    [
      "insert into traces values (1)",
      "Only SELECT is permitted; INSERT statements are not allowed",
    ],
    ["SELECT 1; SELECT 2", "Only one statement is allowed per query"],
    ["SELECT 1 SETTINGS readonly = 0", "SETTINGS is not allowed"],
    ["SELECT 1 FORMAT CSV", "FORMAT is not allowed"],
    ["SELECT 1 INTO OUTFILE 'x'", "INTO OUTFILE is not allowed"],
    ["SELECT * FROM numbers(10)", "Table functions such as numbers() are not allowed"],
    ["SELECT * FROM system.tables", "system tables are not accessible"],
    ["SELECT * FROM vigil.traces", "cannot be qualified with a database"],
    ["SELECT project_id FROM traces", "project_id is not available in TQL"],
    ["SELECT 1 AS project_id", "project_id is not available in TQL"],
    ["SELECT * FROM spans", "Unknown table 'spans'"],
    ["SELECT * FROM sessions", "Unknown table 'sessions'"],
    ["SELECT * FROM trace_data", "Unknown table 'trace_data'"],
    ["SELECT * FROM vigil.trace_data", "cannot be qualified with a database"],
    [
      "SELECT durations_ms FROM traces",
      "Unknown column 'durations_ms'. Did you mean 'duration_ms'?",
    ],
    ["SELECT sleep(3)", "Unknown or disallowed function 'sleep'"],
    ["SELECT getSetting('readonly')", "Unknown or disallowed function 'getSetting'"],
    ["SELECT quantile(0.5, 0.9, 0.99, 1, 2)(duration_ms) FROM traces", "quantile takes"],
    ["SELECT count(1, 2, 3, 4) FROM traces", "count takes"],
    ["SELECT lower(x -> x)", "does not take a lambda"],
    ["SELECT 1 WHERE service_name IN traces", "parenthesized list or subquery after IN"],
    ["SELECT CAST(1 AS Evil)", "Unknown data type 'Evil'"],
    ["SELECT CAST(1 AS DateTime('UTC'')--'))", "time zone"],
  ])("%s", (query, message) => {
    expect(rejection(query).message).toContain(message);
  });

  it("points at the offending token by line and column", () => {
    const error = rejection("SELECT count()\nFROM traces\nWHERE duraton_ms > 5");
    expect(error.extensions).toEqual({ position: { line: 3, column: 7 } });
    expect(error.message).toBe("Unknown column 'duraton_ms'. Did you mean 'duration_ms'?");
  });

  it("caps nesting and size without overflowing the stack", () => {
    expect(rejection(`SELECT ${"(".repeat(5000)}1${")".repeat(5000)}`).message).toContain(
      "nested too deeply",
    );
    expect(rejection(`SELECT ${"NOT ".repeat(5000)}1`).message).toContain("nested too deeply");
    expect(rejection(`SELECT 1 WHERE 1 IN (${Array(25_000).fill(1).join(",")})`).message).toContain(
      "too large",
    );
    // Long AND/OR chains are flat and fine.
    expect(compile(`SELECT 1 WHERE ${Array(2000).fill("1 = 1").join(" OR ")}`).sql).toBeTruthy();
  });
});
