import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorGroupStore } from "../src/ingest/error-groups.js";
import type { ErrorOccurrence } from "../src/ingest/ingest-batch.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { hexId } from "./helpers/otlp.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const BASE = Date.now() - 600_000;

const inSpan = (projectId: string, n: number, atMs: number, logId = ""): ErrorOccurrence => ({
  projectId,
  fingerprint: "fp_retry",
  type: "TypeError",
  message: "x is undefined",
  stacktrace: "at handler (app.js:1:1)",
  culprit: "app.js in handler",
  timestampMs: atMs,
  service: "api",
  traceId: hexId(n, 32),
  spanId: hexId(n, 16),
  source: "backend",
  logId,
  severity: "high",
});

/**
 * The group store writes an occurrence's row before its group: a request whose group write
 * fails is retried by the exporter, and the retry must find its own first attempt's row as its
 * own, not as a second source. A second source of a counted occurrence never reopens a group.
 */
describe("error groups: retried requests and second sources", () => {
  const dir = makeTempDir();
  let executor: TelemetryExecutor;
  /** Group writes still to fail. */
  let failGroupWrites = 0;
  let flaky: TelemetryExecutor;

  const group = async (projectId: string) => {
    const [row] = await executor.query<{ occurrence_count: string; status: string; n: string }>(
      `SELECT occurrence_count, status FROM vigil.error_groups FINAL
       WHERE project_id = {p:String} AND fingerprint = 'fp_retry'`,
      { params: { p: projectId } },
    );
    return row ? { count: Number(row.occurrence_count), status: row.status } : undefined;
  };
  const rows = async (projectId: string) => {
    const [row] = await executor.query<{ n: string }>(
      "SELECT count() AS n FROM vigil.error_occurrences WHERE project_id = {p:String}",
      { params: { p: projectId } },
    );
    return Number(row?.n);
  };

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil", sessions: 2 });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    flaky = Object.create(executor, {
      insert: {
        value: (table: string, data: readonly Record<string, unknown>[]) => {
          if (table === "error_groups" && failGroupWrites > 0) {
            failGroupWrites--;
            return Promise.reject(new Error("error_groups insert failed"));
          }
          return executor.insert(table, data);
        },
      },
    }) as TelemetryExecutor;
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  it("counts a retried request once when its first group write failed", async () => {
    const store = new ErrorGroupStore(flaky);
    const exception = inSpan("prj_retry", 1, BASE);
    failGroupWrites = 1;
    await expect(store.record([exception])).rejects.toThrow("error_groups insert failed");
    const transitions = await store.record([{ ...exception }]);
    expect(transitions.map((t) => [t.kind, t.group.occurrenceCount])).toEqual([["created", 1]]);
    expect(await group("prj_retry")).toEqual({ count: 1, status: "active" });
    // The retry does not store its row a second time.
    expect(await rows("prj_retry")).toBe(1);
    // The span's log, arriving later, is still the same occurrence.
    await store.record([inSpan("prj_retry", 1, BASE + 1, "log_1")]);
    expect(await group("prj_retry")).toEqual({ count: 1, status: "active" });
    expect(await rows("prj_retry")).toBe(2);
  });

  it("counts the retry once when the other source is already stored", async () => {
    const store = new ErrorGroupStore(flaky);
    await store.record([inSpan("prj_retry_log", 2, BASE)]);
    failGroupWrites = 1;
    const log = inSpan("prj_retry_log", 2, BASE + 1, "log_2");
    await expect(store.record([log])).rejects.toThrow("error_groups insert failed");
    // The exporter's retry: the same record, its log stored under a new id.
    await store.record([{ ...log, logId: "log_2b" }]);
    expect(await group("prj_retry_log")).toEqual({ count: 1, status: "active" });
  });

  it("does not reopen a resolved group for a second source of a counted occurrence", async () => {
    const store = new ErrorGroupStore(executor);
    await store.record([inSpan("prj_resolved", 3, BASE)]);
    await store.update("prj_resolved", "fp_retry", { status: "resolved" }, BASE + 100);
    // The span's log, stamped after the resolve: the occurrence was counted before it.
    const transitions = await store.record([inSpan("prj_resolved", 3, BASE + 200, "log_3")]);
    expect(transitions).toEqual([]);
    expect(await group("prj_resolved")).toEqual({ count: 1, status: "resolved" });
    // A new occurrence after the resolve reopens it.
    const again = await store.record([inSpan("prj_resolved", 4, BASE + 300)]);
    expect(again.map((t) => t.kind)).toEqual(["regressed"]);
    expect(await group("prj_resolved")).toEqual({ count: 2, status: "active" });
  });
});
