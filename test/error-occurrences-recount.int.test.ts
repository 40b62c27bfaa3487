import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionErrorKey } from "../src/ingest/derive/occurrence-key.js";
import { SESSION_ERRORS } from "../src/read/browser-sessions.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { sessionRecountStatement } from "../src/telemetry/occurrence-recount.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import type { SchemaState } from "../src/telemetry/schema-layout.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const T = Date.now() - 3_600_000;
const time = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");
const P = "prj_recount";

/**
 * A data directory from before error_occurrences.log_id counted an exception event and its log
 * of the same span as two occurrences. Starting the release that adds the column takes those
 * second sources off the groups' counts, once.
 */
describe("error groups and sessions counted by an earlier release", () => {
  const dir = makeTempDir();
  let executor: TelemetryExecutor;

  const counts = async () =>
    Object.fromEntries(
      (
        await executor.query<{ fingerprint: string; occurrence_count: string }>(
          "SELECT fingerprint, occurrence_count FROM vigil.error_groups FINAL WHERE project_id = {p:String} ORDER BY fingerprint",
          { params: { p: P } },
        )
      ).map((r) => [r.fingerprint, Number(r.occurrence_count)]),
    );

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil", sessions: 2 });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    // The earlier release's table: no log_id.
    await executor.command("ALTER TABLE vigil.error_occurrences DROP COLUMN log_id");
    const occurrence = (fingerprint: string, n: number, span: string, message = "boom") => ({
      project_id: P,
      fingerprint,
      timestamp: time(T + n),
      service_name: "api",
      trace_id: span ? "a".repeat(32) : "",
      span_id: span,
      source: "backend",
      message,
    });
    await executor.insert("error_occurrences", [
      // fp_twice: two spans, each with its exception event and its log: 4 rows, 2 occurrences.
      occurrence("fp_twice", 1, "1".repeat(16)),
      occurrence("fp_twice", 2, "1".repeat(16)),
      occurrence("fp_twice", 3, "2".repeat(16)),
      occurrence("fp_twice", 4, "2".repeat(16)),
      // fp_distinct: one span, two different messages; and two logs without a span.
      occurrence("fp_distinct", 5, "3".repeat(16), "first"),
      occurrence("fp_distinct", 6, "3".repeat(16), "second"),
      occurrence("fp_distinct", 7, ""),
      occurrence("fp_distinct", 8, ""),
    ]);
    const group = (fingerprint: string, count: number) => ({
      project_id: P,
      fingerprint,
      exception_type: "TypeError",
      message: "boom",
      stacktrace: "",
      culprit: "",
      first_seen: time(T),
      last_seen: time(T + 8),
      occurrence_count: count,
      status: "active",
      resolved_at: time(0),
      severity: "medium",
      services: ["api"],
      sample_trace_id: "",
      sample_span_id: "",
      source: "backend",
      version: 5,
    });
    // fp_twice also had 3 occurrences whose rows the retention has since removed.
    await executor.insert("error_groups", [group("fp_twice", 7), group("fp_distinct", 4)]);
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  it("takes the second sources off the counts when the release starts, and only then", async () => {
    expect(await counts()).toEqual({ fp_distinct: 4, fp_twice: 7 });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    expect(await counts()).toEqual({ fp_distinct: 4, fp_twice: 5 });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    expect(await counts()).toEqual({ fp_distinct: 4, fp_twice: 5 });
  });

  it("recounts the sessions' errors from the spans and logs that hold them", async () => {
    // Before error_keys: a failed span with an exception event and its log (counted 2), a failed
    // span that recorded nothing (1) and a log without a span (1).
    await executor.command("ALTER TABLE vigil.sessions DROP COLUMN error_keys");
    const trace = "b".repeat(32);
    const session = { project_id: P, session_id: "sess-old" };
    const exception = { "exception.type": "TypeError", "exception.message": "boom" };
    await executor.insert("traces", [
      {
        ...session,
        timestamp: time(T),
        end_timestamp: time(T + 5),
        trace_id: trace,
        span_id: "1".repeat(16),
        status: "error",
        operation_name: "op",
        events_timestamp: [time(T + 1)],
        events_name: ["exception"],
        events_attributes: [exception],
      },
      {
        ...session,
        timestamp: time(T + 10),
        end_timestamp: time(T + 15),
        trace_id: trace,
        span_id: "2".repeat(16),
        status: "error",
        operation_name: "op",
      },
    ]);
    await executor.insert("logs", [
      {
        ...session,
        id: "log_1",
        timestamp: time(T + 2),
        trace_id: trace,
        span_id: "1".repeat(16),
        level: "error",
        message: "request failed",
        attributes: exception,
      },
      { ...session, id: "log_2", timestamp: time(T + 20), level: "fatal", message: "gone" },
    ]);
    // Their rows in error_occurrences, as that release wrote them (no log_id).
    const source = (n: number, span: string, message: string) => ({
      project_id: P,
      fingerprint: span ? "fp_session" : "fp_gone",
      timestamp: time(T + n),
      service_name: "api",
      trace_id: span ? trace : "",
      span_id: span,
      source: "backend",
      message,
    });
    await executor.insert("error_occurrences", [
      source(1, "1".repeat(16), "boom"),
      source(2, "1".repeat(16), "boom"),
      source(20, "", "gone"),
    ]);
    await executor.insert("sessions", [
      { ...session, first_seen: time(T), last_seen: time(T + 10), span_count: 2, error_count: 3 },
      {
        ...session,
        first_seen: time(T + 2),
        last_seen: time(T + 20),
        log_count: 2,
        error_count: 2,
      },
    ]);
    const errors = async () => {
      const [row] = await executor.query<{ errors: string }>(
        `SELECT ${SESSION_ERRORS} AS errors FROM vigil.sessions WHERE project_id = {p:String}`,
        { params: { p: P } },
      );
      return Number(row?.errors);
    };
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    expect(await errors()).toBe(3);
    // Running it again changes nothing.
    await executor.command(sessionRecountStatement("vigil"));
    expect(await errors()).toBe(3);
  });
});

/** A data directory as the release before error_occurrences.log_id left it: fp_twice counted 7, 5 in truth. */
async function earlierRelease(executor: TelemetryExecutor, project: string): Promise<void> {
  await executor.command("ALTER TABLE vigil.error_occurrences DROP COLUMN IF EXISTS log_id");
  const row = (n: number, span: string) => ({
    project_id: project,
    fingerprint: "fp_twice",
    timestamp: time(T + n),
    service_name: "api",
    trace_id: "a".repeat(32),
    span_id: span,
    source: "backend",
    message: "boom",
  });
  await executor.insert("error_occurrences", [
    row(1, "1".repeat(16)),
    row(2, "1".repeat(16)),
    row(3, "2".repeat(16)),
    row(4, "2".repeat(16)),
  ]);
  await executor.insert("error_groups", [
    {
      project_id: project,
      fingerprint: "fp_twice",
      exception_type: "TypeError",
      message: "boom",
      stacktrace: "",
      culprit: "",
      first_seen: time(T),
      last_seen: time(T + 4),
      occurrence_count: 7,
      status: "active",
      resolved_at: time(0),
      severity: "medium",
      services: ["api"],
      sample_trace_id: "",
      sample_span_id: "",
      source: "backend",
      version: 5,
    },
  ]);
}

/** An executor whose given statements fail, as a process dying there would leave the data. */
function failing(executor: TelemetryExecutor, fails: (sql: string) => boolean): TelemetryExecutor {
  return Object.create(executor, {
    command: {
      value: (sql: string, options?: Parameters<TelemetryExecutor["command"]>[1]) =>
        fails(sql) ? Promise.reject(new Error("died here")) : executor.command(sql, options),
    },
  }) as TelemetryExecutor;
}

/** An executor reading the columns as another node read them before this one's ALTER. */
function staleColumns(executor: TelemetryExecutor, columns: SchemaState["columns"]) {
  return Object.create(executor, {
    query: {
      value: (sql: string, options?: Parameters<TelemetryExecutor["query"]>[1]) =>
        sql.includes("FROM system.columns")
          ? Promise.resolve(columns)
          : executor.query(sql, options),
    },
  }) as TelemetryExecutor;
}

describe("the upgrade's recount of error groups, interrupted or run by two nodes", () => {
  const dir = makeTempDir();
  let executor: TelemetryExecutor;
  const count = async (project: string) => {
    const [row] = await executor.query<{ n: string }>(
      "SELECT occurrence_count AS n FROM vigil.error_groups FINAL WHERE project_id = {p:String}",
      { params: { p: project } },
    );
    return Number(row?.n);
  };
  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil", sessions: 2 });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  it("finishes at the next start when the first died after adding the column", async () => {
    await earlierRelease(executor, "prj_died");
    const dies = failing(executor, (sql) => /^INSERT INTO .*error_groups/.test(sql));
    await expect(ensureTelemetrySchema(dies, { retentionDays: 30 })).rejects.toThrow("died here");
    expect(await count("prj_died")).toBe(7);
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    expect(await count("prj_died")).toBe(5);
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    expect(await count("prj_died")).toBe(5);
  }, 60_000);

  it("recounts the sessions at the next start when the first died after adding error_keys", async () => {
    await executor.command("ALTER TABLE vigil.sessions DROP COLUMN IF EXISTS error_keys");
    const session = { project_id: "prj_sessions", session_id: "sess-died" };
    const exception = { "exception.type": "TypeError", "exception.message": "boom" };
    await executor.insert("traces", [
      {
        ...session,
        timestamp: time(T),
        end_timestamp: time(T + 5),
        trace_id: "c".repeat(32),
        span_id: "1".repeat(16),
        status: "error",
        operation_name: "op",
        events_timestamp: [time(T + 1)],
        events_name: ["exception"],
        events_attributes: [exception],
      },
    ]);
    await executor.insert("logs", [
      {
        ...session,
        id: "log_died",
        timestamp: time(T + 2),
        trace_id: "c".repeat(32),
        span_id: "1".repeat(16),
        level: "error",
        message: "request failed",
        attributes: exception,
      },
    ]);
    await executor.insert(
      "error_occurrences",
      [1, 2].map((n) => ({
        project_id: "prj_sessions",
        fingerprint: "fp_session",
        timestamp: time(T + n),
        service_name: "api",
        trace_id: "c".repeat(32),
        span_id: "1".repeat(16),
        source: "backend",
        message: "boom",
      })),
    );
    await executor.insert("sessions", [
      { ...session, first_seen: time(T), last_seen: time(T + 2), span_count: 1, error_count: 2 },
    ]);
    const errors = async () => {
      const [row] = await executor.query<{ errors: string }>(
        `SELECT ${SESSION_ERRORS} AS errors FROM vigil.sessions WHERE project_id = 'prj_sessions'`,
      );
      return Number(row?.errors);
    };
    const dies = failing(executor, (sql) => /^INSERT INTO .*sessions/.test(sql));
    await expect(ensureTelemetrySchema(dies, { retentionDays: 30 })).rejects.toThrow("died here");
    expect(await errors()).toBe(2);
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    expect(await errors()).toBe(1);
  }, 60_000);

  it("recounts sessions with the keys ingestion writes (the group and the message)", async () => {
    await executor.command("ALTER TABLE vigil.sessions DROP COLUMN IF EXISTS error_keys");
    const project = "prj_keys";
    const trace = "d".repeat(32);
    const span = (n: number) => String(n).repeat(16);
    const exception = { "exception.type": "TypeError", "exception.message": "boom" };
    // sess-straddle: a span's exception counted before the upgrade, its log after it.
    // sess-two: one span, two exceptions of one type and message in two groups (their stacks).
    await executor.insert("traces", [
      {
        project_id: project,
        session_id: "sess-straddle",
        timestamp: time(T),
        end_timestamp: time(T + 5),
        trace_id: trace,
        span_id: span(1),
        status: "error",
        operation_name: "op",
        events_timestamp: [time(T + 1)],
        events_name: ["exception"],
        events_attributes: [exception],
      },
      {
        project_id: project,
        session_id: "sess-two",
        timestamp: time(T),
        end_timestamp: time(T + 5),
        trace_id: trace,
        span_id: span(2),
        status: "error",
        operation_name: "op",
        events_timestamp: [time(T + 1), time(T + 2)],
        events_name: ["exception", "exception"],
        events_attributes: [exception, exception],
      },
    ]);
    const row = (fingerprint: string, n: number, at: number) => ({
      project_id: project,
      fingerprint,
      timestamp: time(T + at),
      service_name: "api",
      trace_id: trace,
      span_id: span(n),
      source: "backend",
      message: "boom",
    });
    await executor.insert("error_occurrences", [
      row("fp_one", 1, 1),
      row("fp_a", 2, 1),
      row("fp_b", 2, 2),
    ]);
    await executor.insert("sessions", [
      {
        project_id: project,
        session_id: "sess-straddle",
        first_seen: time(T),
        last_seen: time(T + 5),
        span_count: 1,
        error_count: 1,
      },
      {
        project_id: project,
        session_id: "sess-two",
        first_seen: time(T),
        last_seen: time(T + 5),
        span_count: 1,
        error_count: 2,
      },
    ]);
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    // The log arrives after the upgrade: ingestion keys it by its group and message.
    const logKey = sessionErrorKey({
      fingerprint: "fp_one",
      traceId: trace,
      spanId: span(1),
      message: "boom",
      logId: "log_after",
    });
    await executor.insert("sessions", [
      {
        project_id: project,
        session_id: "sess-straddle",
        first_seen: time(T + 3),
        last_seen: time(T + 3),
        log_count: 1,
        error_count: 1,
        error_keys: [logKey],
      },
    ]);
    const errors = Object.fromEntries(
      (
        await executor.query<{ session_id: string; errors: string }>(
          `SELECT session_id, ${SESSION_ERRORS} AS errors FROM vigil.sessions
           WHERE project_id = {p:String} GROUP BY session_id ORDER BY session_id`,
          { params: { p: project } },
        )
      ).map((r) => [r.session_id, Number(r.errors)]),
    );
    expect(errors).toEqual({ "sess-straddle": 1, "sess-two": 2 });
  }, 60_000);

  it("subtracts once when a second node read the schema before the first added the column", async () => {
    await earlierRelease(executor, "prj_nodes");
    const before = await executor.query<SchemaState["columns"][number]>(
      "SELECT table, name FROM system.columns WHERE database = 'vigil'",
    );
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    expect(await count("prj_nodes")).toBe(5);
    await ensureTelemetrySchema(staleColumns(executor, before), { retentionDays: 30 });
    expect(await count("prj_nodes")).toBe(5);
  }, 60_000);
});
