import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_ERRORS } from "../src/read/browser-sessions.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { sessionRecountStatement } from "../src/telemetry/occurrence-recount.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { T, time } from "./helpers/recount-fixtures.js";
import { makeTempDir } from "./helpers/temp-dir.js";

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
