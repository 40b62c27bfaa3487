/**
 * TQL's bound parameters on the embedded engine (chDB): values of every type come back as bound,
 * hostile values are data (never SQL) and read only the caller's project, a user's placeholder
 * named `project` or `s0` cannot stand for the guard's, the time macros select and bucket the
 * window, and a query that waits for its turn is not refused for its project's bound.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError, RateLimitedError } from "../src/lib/domain-errors.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { TqlError } from "../src/tql/tql-errors.js";
import { createTqlService, type TqlLimits, type TqlService } from "../src/tql/tql-service.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const A = "prj_attacker_params";
const B = "prj_victim_params";
const LIMITS: TqlLimits = {
  maxExecutionSeconds: 10,
  maxMemoryBytes: 512 * 1024 ** 2,
  maxRowsToRead: 100_000_000,
  maxConcurrentPerProject: 1,
};
/** A's spans at 10:00:10, 10:00:40 and 10:01:30; B's (the victim's) at 10:00:20. */
const DAY = "2026-03-01";
const at = (time: string) => `${DAY} ${time}.000`;
const WINDOW = { from: `${DAY}T10:00:00Z`, to: `${DAY}T10:02:00Z`, bucket_seconds: 60 };

const HOSTILE = [
  "x') OR 1=1 --",
  "' OR '1'='1",
  "' UNION SELECT * FROM system.tables --",
  "'; DROP TABLE vigil.traces; --",
  "{project:String}",
  "{s0:String}",
  "{p_v:String}",
  "\\",
  "\\'",
  "'",
  '"',
  "`",
  "a\nb\r\nc\td",
  "nul\0byte",
  "ünïcødé 🚀",
  "victim-secret-svc",
  B,
  `'${"\\'".repeat(2000)}`,
];

describe("TQL parameters on the engine", () => {
  const dir = makeTempDir("vigil-tql-params-");
  let executor: TelemetryExecutor;
  let tql: TqlService;

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil" });
    await ensureTelemetrySchema(executor, { retentionDays: 3650 });
    const span = (project: string, time: string, service: string, i: number) => ({
      project_id: project,
      timestamp: at(time),
      end_timestamp: at(time),
      trace_id: `${i}`.padStart(32, "0"),
      span_id: `${i}`.padStart(16, "0"),
      service_name: service,
      operation_name: project === A ? "GET /a" : "GET /victim-secret",
      duration_ms: 10 * i,
    });
    // Both projects in one insert, as the batch writer does: their rows share parts.
    await executor.insert("traces", [
      span(A, "10:00:10", "svc-a", 1),
      span(B, "10:00:20", "victim-secret-svc", 2),
      span(A, "10:00:40", "svc-a", 3),
      span(A, "10:01:30", "svc-b", 4),
    ]);
    tql = createTqlService({ executor, limits: LIMITS });
  });
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  const rows = async (text: string, parameters: Record<string, unknown> = {}) =>
    (await tql.query(A, text, { parameters })).rows;

  it("binds every type and returns it as bound, date-times in UTC", async () => {
    const result = await tql.query(
      A,
      `SELECT {s:String} AS s, {i:Int64} AS i, {u:UInt64} AS u, {f:Float64} AS f, {b:Bool} AS b,
              {d:Date} AS d, {t:DateTime64(6)} AS t, {dt:DateTime} AS dt, {ids:Array(String)} AS ids,
              {ns:Array(UInt32)} AS ns, {bs:Array(Bool)} AS bs, {ts:Array(DateTime64(3))} AS ts`,
      {
        parameters: {
          s: "it's",
          i: "-9223372036854775808",
          u: "18446744073709551615",
          f: "0.25",
          b: "true",
          d: "2026-03-01",
          t: "2026-03-01T12:00:00.123456+02:00",
          dt: "2026-03-01T10:00:00Z",
          ids: ["a'b", "c\\d"],
          ns: [1, "2"],
          bs: [true, false],
          ts: ["2026-03-01T10:00:00.5Z"],
        },
      },
    );
    expect(result.columns.map((c) => c.type)).toEqual([
      "String",
      "Int64",
      "UInt64",
      "Float64",
      "Bool",
      "Date",
      "DateTime64(6, 'UTC')",
      "DateTime('UTC')",
      "Array(String)",
      "Array(UInt32)",
      "Array(Bool)",
      "Array(DateTime64(3, 'UTC'))",
    ]);
    expect(result.rows).toEqual([
      [
        "it's",
        "-9223372036854775808",
        "18446744073709551615",
        0.25,
        true,
        "2026-03-01",
        "2026-03-01 10:00:00.123456",
        "2026-03-01 10:00:00",
        ["a'b", "c\\d"],
        [1, 2],
        [true, false],
        ["2026-03-01 10:00:00.500"],
      ],
    ]);
  });

  it("treats hostile values as data: they come back as sent and read only the caller's rows", async () => {
    for (const value of HOSTILE) {
      expect(
        await rows("SELECT {v:String}, {vs:Array(String)}", { v: value, vs: [value] }),
      ).toEqual([[value, [value]]]);
      expect(
        await rows(
          "SELECT count() FROM traces WHERE service_name = {v:String} OR operation_name IN {vs:Array(String)} OR position(trace_id, {v:String}) > 0",
          { v: value, vs: [value, value] },
        ),
      ).toEqual([[0]]);
    }
  });

  it("takes a 1,000-item list of hostile values and still matches only the caller's rows", async () => {
    const short = HOSTILE.filter((value) => value.length < 100);
    const list = Array.from({ length: 1000 }, (_, i) => short[i % short.length] ?? "");
    list[999] = "svc-a";
    expect(
      await rows(
        "SELECT service_name, count() FROM traces WHERE service_name IN {names:Array(String)} OR has({names:Array(String)}, operation_name) GROUP BY service_name",
        { names: list },
      ),
    ).toEqual([["svc-a", 2]]);
  });

  it("binds values up to their total budget however they escape, and refuses more as input", async () => {
    // Backslashes and quotes: the worst case of the engine's escaping, just under 50,000 bytes.
    const worst = "\\'".repeat(2048);
    const list = Array.from({ length: 12 }, () => worst);
    const scalars = Object.fromEntries(list.slice(1).map((value, i) => [`s${i}`, value]));
    const names = Object.keys(scalars);
    expect(
      await rows(
        `SELECT length({l:Array(String)}), ${names.map((n) => `{${n}:String} = {l:Array(String)}[1]`).join(" AND ")}`,
        {
          l: list.slice(0, 1),
          ...scalars,
        },
      ),
    ).toEqual([[1, 1]]);
    expect(
      await rows("SELECT arrayAll(x -> x = {one:String}, {l:Array(String)})", {
        l: list,
        one: worst.slice(0, 10),
      }),
    ).toEqual([[0]]);
    const over = await tql
      .query(A, "SELECT {l:Array(String)}, {x:String}", {
        parameters: { l: list, x: "x".repeat(2000) },
      })
      .catch((error: unknown) => error);
    expect(over).toBeInstanceOf(TqlError);
    expect((over as TqlError).issues[0]?.field).toBe("parameters.l");
    expect((over as TqlError).message).toMatch(
      /^The parameters' values total 51,188 bytes; at most 50,000/,
    );
  });

  it("cannot point the guard elsewhere: a placeholder named project or s0 is the user's own", async () => {
    expect(
      await rows(
        "SELECT {project:String} AS project, {s0:String} AS s, 'literal' AS lit, count() FROM traces",
        { project: B, s0: B },
      ),
    ).toEqual([[B, B, "literal", 3]]);
    expect(
      await rows(
        "SELECT groupArray(service_name) FROM (SELECT service_name FROM traces WHERE {project:String} != '' ORDER BY service_name)",
        { project: B, p_project: B, s0: "x" },
      ),
    ).toEqual([[["svc-a", "svc-a", "svc-b"]]]);
  });

  it("selects and buckets the window with $__timeFilter and $__timeInterval", async () => {
    const query =
      "SELECT $__timeInterval(timestamp) AS t, count() AS n FROM traces WHERE $__timeFilter(timestamp) GROUP BY t ORDER BY t";
    expect(await rows(query, WINDOW)).toEqual([
      ["2026-03-01 10:00:00", 2],
      ["2026-03-01 10:01:00", 1],
    ]);
    // to is exclusive; the offset is honoured; the bucket follows bucket_seconds.
    expect(
      await rows(query, {
        from: `${DAY}T12:00:10+02:00`,
        to: `${DAY}T10:01:30Z`,
        bucket_seconds: 30,
      }),
    ).toEqual([
      ["2026-03-01 10:00:00", 1],
      ["2026-03-01 10:00:30", 1],
    ]);
    expect(
      await rows("SELECT count() FROM traces WHERE timestamp >= {from:DateTime64(3)}", WINDOW),
    ).toEqual([[3]]);
  });

  it("answers the result columns of a query with placeholders", async () => {
    expect(
      await tql.columns(A, "SELECT {n:UInt8} AS n, $__timeInterval(timestamp) AS t FROM traces", {
        parameters: { n: 1, bucket_seconds: 60 },
      }),
    ).toEqual([
      { name: "n", type: "UInt8" },
      { name: "t", type: "DateTime('UTC')" },
    ]);
  });

  it("refuses a missing or unfit value as invalid input, never as an internal error", async () => {
    const failure = (text: string, parameters: Record<string, unknown>) =>
      tql.query(A, text, { parameters }).then(
        () => undefined,
        (error: unknown) => error,
      );
    const missing = await failure("SELECT count() FROM traces WHERE $__timeFilter(timestamp)", {});
    expect(missing).toBeInstanceOf(TqlError);
    expect((missing as TqlError).issues[0]?.field).toBe("parameters.from");
    const unfit = await failure("SELECT {n:UInt8}", { n: "x') OR 1=1 --" });
    expect((unfit as TqlError).issues[0]?.field).toBe("parameters.n");
    // The engine's own type error on a bound value is the query's (400), named by the user's name.
    const typed = await failure("SELECT {a:String} + 1", { a: "x" });
    expect(typed).toBeInstanceOf(TqlError);
    expect((typed as TqlError).message).toMatch(/ILLEGAL_TYPE_OF_ARGUMENT|NO_COMMON_TYPE/);
    expect((typed as TqlError).message).not.toContain("p_a");
  });
});

describe("TQL parameters: waiting for a turn", () => {
  const dir = makeTempDir("vigil-tql-turn-");
  let engine: TelemetryExecutor;
  let release: () => void = () => undefined;
  let held: Promise<void> | undefined;

  beforeAll(async () => {
    engine = createChdbExecutor({ path: dir.path, database: "vigil" });
    await ensureTelemetrySchema(engine, { retentionDays: 3650 });
  });
  afterAll(async () => {
    release();
    await engine?.close();
    dir.remove();
  });

  it("is not refused for the project's bound, and still runs under the guard", async () => {
    // The real engine, with the first query held at the door so it keeps the project's place.
    let started!: () => void;
    const first = new Promise<void>((resolve) => {
      started = resolve;
    });
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gated: TelemetryExecutor = {
      ...engine,
      queryCompact: async (sql, options) => {
        const gate = held;
        held = undefined;
        if (gate) {
          started();
          await gate;
        }
        return engine.queryCompact(sql, options);
      },
    };
    const tql = createTqlService({ executor: gated, limits: LIMITS });
    const holding = tql.query(A, "SELECT 1");
    await first;
    const refused = await tql.query(A, "SELECT 2").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    // Waiting for its turn instead: admitted, and answered once the session frees.
    const waiting = tql
      .query(A, "SELECT {n:UInt8}, count() FROM traces", {
        parameters: { n: 3 },
        waitForTurn: true,
      })
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    expect((await holding).rows).toEqual([[1]]);
    const waited = await waiting;
    expect(waited).not.toBeInstanceOf(DomainError);
    expect((waited as { rows: unknown[][] }).rows).toEqual([[3, 0]]);
  });
});
