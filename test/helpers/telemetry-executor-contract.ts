import { beforeAll, expect, it } from "vitest";
import { refusedDataCode } from "../../src/ingest/insert-errors.js";
import { DomainError, UnavailableError } from "../../src/lib/domain-errors.js";
import { RefusedValueError, type TelemetryExecutor } from "../../src/telemetry/executor.js";
import { DERIVED_TABLES, INTERNAL_TABLES } from "../../src/telemetry/internal-tables.js";
import { createSchemaStatements, ensureTelemetrySchema } from "../../src/telemetry/schema.js";
import { type TableDef, TELEMETRY_TABLES } from "../../src/telemetry/tables.js";
import { classifyEngineError } from "../../src/tql/engine-errors.js";

export interface ExecutorUnderTest {
  /** The executor the cases share; its database holds nothing when the suite starts. */
  executor(): TelemetryExecutor;
  /** Another executor on the same engine and database; the case that opens it closes it. */
  open(): TelemetryExecutor;
}

const PROJECT = "prj_contract";
/** Today (UTC): rows older than the 30-day retention would be dropped by the next merge. */
const DAY = new Date().toISOString().slice(0, 10);
const TRICKY = "it's a \\ backslash, a\ttab, a\nnewline, {x:String}, ünïcødé ✓";

/**
 * A value of a column's type, as the engine prints it back in JSON (64-bit integers as numbers,
 * as chDB prints them): what goes in must come out unchanged from either adapter.
 */
function sampleValue(type: string, column: string): unknown {
  const array = /^Array\((.*)\)$/.exec(type);
  if (array)
    return [sampleValue(array[1] ?? "", column), sampleValue(array[1] ?? "", `${column}2`)];
  if (type === "String" || type === "LowCardinality(String)") return `${column}: ${TRICKY}`;
  if (type === "Map(LowCardinality(String), String)")
    return { "http.method": "GET", [`${column}'key`]: `v\\${column}\t` };
  if (type === "DateTime64(9, 'UTC')") return `${DAY} 10:00:00.123456789`;
  if (type === "DateTime64(6, 'UTC')") return `${DAY} 10:00:00.123456`;
  if (type === "DateTime64(3, 'UTC')") return `${DAY} 10:00:00.123`;
  if (type === "DateTime('UTC')") return `${DAY} 10:00:00`;
  if (type === "UInt64") return 1_234_567_890_123;
  if (type === "UInt16") return 503;
  if (type === "UInt8") return 9;
  if (type === "Int32") return -7;
  if (type === "Float64") return 12.5;
  if (type === "Bool") return true;
  throw new Error(`The contract has no value for the type ${type}: add one`);
}

/** One row of the table with a sample value in every column, as it must read back. */
export function sampleRow(table: TableDef): Record<string, unknown> {
  return Object.fromEntries(
    table.columns.map((c) => [
      c.name,
      c.name === "project_id" ? PROJECT : sampleValue(c.type, c.name),
    ]),
  );
}

const context = { projectId: PROJECT, database: "x", maxExecutionSeconds: 1 };

/** Fails unless `work` rejects; resolves with the error. */
async function failure(work: Promise<unknown>): Promise<Error> {
  const outcome = await work.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  if (outcome === undefined) throw new Error("expected the statement to fail");
  return outcome;
}

/**
 * The behaviour every TelemetryExecutor must show, whatever the engine: the schema, values of
 * every column type in and out unchanged, typed compact results, parameters, settings, errors
 * worded as ClickHouse words them, and shutdown. Run once per adapter.
 */
export function telemetryExecutorContract(subject: ExecutorUnderTest): void {
  const commands: string[] = [];
  const recording = (): TelemetryExecutor => {
    const inner = subject.executor();
    return {
      ...inner,
      engine: inner.engine,
      database: inner.database,
      command: (sql, options) => {
        commands.push(sql);
        return inner.command(sql, options);
      },
      query: (sql, options) => inner.query(sql, options),
      queryCompact: (sql, options) => inner.queryCompact(sql, options),
      insert: (table, rows) => inner.insert(table, rows),
      ping: () => inner.ping(),
      close: () => inner.close(),
    };
  };
  const db = () => subject.executor().database;

  beforeAll(async () => {
    await ensureTelemetrySchema(recording(), { retentionDays: 30 });
  });

  it("says how many reads it runs side by side (the read API's slots)", () => {
    const { readSlots } = subject.executor();
    expect(Number.isInteger(readSlots) && (readSlots ?? 0) >= 1).toBe(true);
  });

  it("creates the schema once; a second run only checks, altering nothing", async () => {
    const first = commands.length;
    // Nothing to fill on an empty database: only the schema statements.
    expect(first).toBe(createSchemaStatements(db(), { retentionDays: 30 }).length);
    await ensureTelemetrySchema(recording(), { retentionDays: 30 });
    // Creates only what is missing, drops only what an earlier release left.
    const idempotent = /^(CREATE (\w+ )+IF NOT EXISTS|DROP \w+ IF EXISTS) /;
    expect(commands.slice(first).every((sql) => idempotent.test(sql))).toBe(true);
    const tables = await subject
      .executor()
      .query<{ name: string }>(
        "SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name",
        { params: { db: db() } },
      );
    expect(tables.map((t) => t.name)).toEqual(
      [
        ...[...TELEMETRY_TABLES, ...INTERNAL_TABLES, ...DERIVED_TABLES].map((t) => t.name),
        ...DERIVED_TABLES.flatMap((t) => t.views.map((v) => v.name)),
      ].sort(),
    );
  });

  for (const table of [...TELEMETRY_TABLES, ...INTERNAL_TABLES]) {
    it(`round-trips every column type of ${table.name} unchanged`, async () => {
      const executor = subject.executor();
      const row = sampleRow(table);
      expect(await executor.insert(table.name, [row])).toEqual({ rowsWritten: 1 });
      const rows = await executor.query(
        `SELECT * FROM ${db()}.${table.name} WHERE project_id = {p:String}`,
        { params: { p: PROJECT } },
      );
      expect(rows).toEqual([row]);
    });
  }

  it("prints 64-bit integers as strings when a query asks, as numbers otherwise", async () => {
    const sql = `SELECT duration_ns, [toUInt64(1)] AS a FROM ${db()}.traces WHERE project_id = {p:String}`;
    const params = { p: PROJECT };
    const executor = subject.executor();
    expect(await executor.query(sql, { params })).toEqual([
      { duration_ns: 1_234_567_890_123, a: [1] },
    ]);
    const settings = { output_format_json_quote_64bit_integers: 1 };
    expect(await executor.query(sql, { params, settings })).toEqual([
      { duration_ns: "1234567890123", a: ["1"] },
    ]);
    expect((await executor.queryCompact(sql, { params, settings })).rows).toEqual([
      ["1234567890123", ["1"]],
    ]);
  });

  it("answers compact results with column types, rows in order and statistics", async () => {
    const result = await subject.executor().queryCompact(
      `SELECT number AS n, toString(number) AS s, toLowCardinality('lc') AS lc,
              toDateTime64('2026-01-01 00:00:00.5', 9, 'UTC') AS t, map('k', 'v') AS m,
              [1.5, 2] AS f, toBool(number % 2 = 0) AS even, toNullable(NULL) AS nothing
       FROM numbers(3) ORDER BY n`,
    );
    expect(result.columns).toEqual([
      { name: "n", type: "UInt64" },
      { name: "s", type: "String" },
      { name: "lc", type: "LowCardinality(String)" },
      { name: "t", type: "DateTime64(9, 'UTC')" },
      { name: "m", type: "Map(String, String)" },
      { name: "f", type: "Array(Float64)" },
      { name: "even", type: "Bool" },
      { name: "nothing", type: "Nullable(Nothing)" },
    ]);
    const t = "2026-01-01 00:00:00.500000000";
    expect(result.rows).toEqual([
      [0, "0", "lc", t, { k: "v" }, [1.5, 2], true, null],
      [1, "1", "lc", t, { k: "v" }, [1.5, 2], false, null],
      [2, "2", "lc", t, { k: "v" }, [1.5, 2], true, null],
    ]);
    expect(result.rowsRead).toBe(3);
    expect(result.elapsedSeconds).toBeGreaterThanOrEqual(0);
    expect(result.elapsedSeconds).toBeLessThan(10);
    const empty = await subject.executor().queryCompact("SELECT 1 AS one WHERE 0");
    expect(empty.rows).toEqual([]);
    expect(await subject.executor().query("SELECT 1 AS one WHERE 0")).toEqual([]);
  });

  it("binds parameters of several types server-side, values never read as SQL", async () => {
    const params = {
      s: TRICKY,
      neg: -42,
      big: 9_007_199_254_740_991,
      f: 0.25,
      strings: ["a'b", "c\\d", "tab\there", "{y:String}"],
      numbers: [1, 2, 3],
      at: "2026-03-01 10:00:00.123",
      flag: true,
    };
    const rows = await subject.executor().query(
      `SELECT {s:String} AS s, {neg:Int64} AS neg, {big:UInt64} AS big, {f:Float64} AS f,
              {strings:Array(String)} AS strings, {numbers:Array(UInt32)} AS numbers,
              {at:DateTime64(3, 'UTC')} AS at, {flag:Bool} AS flag, '{s:String}' AS literal`,
      { params },
    );
    expect(rows).toEqual([{ ...params, literal: "{s:String}" }]);
  });

  it("applies per-query settings", async () => {
    const rows = await subject
      .executor()
      .query("SELECT getSetting('max_threads') AS threads, getSetting('max_result_rows') AS cap", {
        settings: { max_threads: 3, max_result_rows: 1000 },
      });
    expect(rows).toEqual([{ threads: 3, cap: 1000 }]);
    const error = await failure(
      subject.executor().query("SELECT number FROM numbers(10)", {
        settings: { max_result_rows: 1, result_overflow_mode: "throw" },
      }),
    );
    expect(error.message).toMatch(/^Code: 396\. DB::Exception: .*\(TOO_MANY_ROWS_OR_BYTES\)$/s);
    expect(classifyEngineError(error, context)?.code).toBe("query_limit_exceeded");
  });

  it("takes hints for write-path and ad-hoc reads without changing their results", async () => {
    const executor = subject.executor();
    for (const hint of [{ writePath: true }, { adHoc: true }, {}])
      expect(await executor.query("SELECT 1 AS one", hint)).toEqual([{ one: 1 }]);
  });

  it("words engine errors as ClickHouse does, so TQL maps them the same", async () => {
    const executor = subject.executor();
    const syntax = await failure(executor.query("SELEC 1"));
    expect(syntax.message).toMatch(/^Code: 62\. DB::Exception: Syntax error.*\(SYNTAX_ERROR\)$/s);
    expect(classifyEngineError(syntax, context)?.message).toMatch(/SYNTAX_ERROR/);
    const unknown = await failure(executor.queryCompact(`SELECT nosuch FROM ${db()}.traces`));
    expect(unknown.message).toMatch(
      /^Code: 47\. DB::Exception: .*nosuch.*\(UNKNOWN_IDENTIFIER\)$/s,
    );
    expect(classifyEngineError(unknown, context)).toMatchObject({ code: "invalid_input" });
    const table = await failure(executor.query(`SELECT 1 FROM ${db()}.no_such_table`));
    expect(table.message).toMatch(/^Code: 60\. DB::Exception: .*\(UNKNOWN_TABLE\)$/s);
    const timeout = await failure(
      executor.queryCompact("SELECT sum(cityHash64(number)) FROM numbers(100000000000)", {
        settings: { max_execution_time: 0.3 },
        adHoc: true,
      }),
    );
    expect(timeout.message).toMatch(/^Code: 159\. DB::Exception: .*\(TIMEOUT_EXCEEDED\)$/s);
    expect(classifyEngineError(timeout, context)?.code).toBe("query_timeout");
    // The engine is fine afterwards.
    expect(await executor.query("SELECT 2 AS two")).toEqual([{ two: 2 }]);
  });

  it("refuses an insert of values its columns cannot hold, naming the data error", async () => {
    const executor = subject.executor();
    const error = await failure(
      executor.insert("traces", [{ project_id: PROJECT, duration_ns: "not a number" }]),
    );
    expect(error).not.toBeInstanceOf(DomainError);
    // The engine's own error, or the same refusal found while encoding the rows (Native inserts).
    if (!(error instanceof RefusedValueError))
      expect(error.message).toMatch(/^Code: \d+\. DB::Exception: /);
    expect(refusedDataCode(error)).toBeDefined();
    expect(await executor.insert("traces", [])).toEqual({ rowsWritten: 0 });
  });

  it("answers ping", async () => {
    await subject.executor().ping();
  });

  it("runs reads side by side", async () => {
    const executor = subject.executor();
    const started = performance.now();
    const both = await Promise.all(
      [1, 2].map((n) => executor.query<{ n: number }>(`SELECT sleep(0.8), ${n} AS n`)),
    );
    expect(both.map((rows) => rows[0]?.n)).toEqual([1, 2]);
    // One after the other would take 1.6 s.
    expect(performance.now() - started).toBeLessThan(1400);
  });

  it("reports what runs, and lets in-flight work finish on close, refusing new work", async () => {
    const executor = subject.open();
    const slow = executor.query<{ done: number }>("SELECT sleep(0.6), 1 AS done");
    await new Promise((resolve) => setTimeout(resolve, 150));
    const load = executor.stats?.();
    if (load) {
      expect(load.sessions).toBeGreaterThanOrEqual(1);
      expect(load.busySessions).toBeGreaterThanOrEqual(1);
      expect(load.writeWaitMs).toBe(0);
      expect(load.running?.map((r) => r.what)).toContain("SELECT sleep(0.6), 1 AS done");
    }
    const started = performance.now();
    const closed = executor.close();
    await expect(executor.query("SELECT 1")).rejects.toBeInstanceOf(UnavailableError);
    await expect(executor.insert("traces", [{ project_id: PROJECT }])).rejects.toBeInstanceOf(
      UnavailableError,
    );
    await closed;
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect((await slow)[0]?.done).toBe(1);
    await executor.close();
  });
}
