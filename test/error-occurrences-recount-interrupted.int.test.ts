// The upgrade's recount when a start dies midway or two nodes run it (the first start:
// error-occurrences-recount.int.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionErrorKey } from "../src/ingest/derive/occurrence-key.js";
import { SESSION_ERRORS } from "../src/read/browser-sessions.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import type { SchemaState } from "../src/telemetry/schema-layout.js";
import { earlierRelease, failing, staleColumns, T, time } from "./helpers/recount-fixtures.js";
import { makeTempDir } from "./helpers/temp-dir.js";

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
