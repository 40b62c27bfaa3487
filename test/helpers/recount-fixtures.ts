// What an earlier release left in the telemetry store, and executors that fail or read stale
// columns as a dying start or a second node would: the upgrade recount tests' fixtures.
import type { TelemetryExecutor } from "../../src/telemetry/executor.js";
import type { SchemaState } from "../../src/telemetry/schema-layout.js";

export const T = Date.now() - 3_600_000;
export const time = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");

/** A data directory as the release before error_occurrences.log_id left it: fp_twice counted 7, 5 in truth. */
export async function earlierRelease(executor: TelemetryExecutor, project: string): Promise<void> {
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
export function failing(
  executor: TelemetryExecutor,
  fails: (sql: string) => boolean,
): TelemetryExecutor {
  return Object.create(executor, {
    command: {
      value: (sql: string, options?: Parameters<TelemetryExecutor["command"]>[1]) =>
        fails(sql) ? Promise.reject(new Error("died here")) : executor.command(sql, options),
    },
  }) as TelemetryExecutor;
}

/** An executor reading the columns as another node read them before this one's ALTER. */
export function staleColumns(executor: TelemetryExecutor, columns: SchemaState["columns"]) {
  return Object.create(executor, {
    query: {
      value: (sql: string, options?: Parameters<TelemetryExecutor["query"]>[1]) =>
        sql.includes("FROM system.columns")
          ? Promise.resolve(columns)
          : executor.query(sql, options),
    },
  }) as TelemetryExecutor;
}
