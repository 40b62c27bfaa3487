import { vi } from "vitest";
import type { AdmissionOptions, AdmissionRefusal } from "../../src/telemetry/admission-options.js";
import { EngineAdmission } from "../../src/telemetry/engine-admission.js";
import type { CompactResult, TelemetryExecutor } from "../../src/telemetry/executor.js";

/** An engine whose reads wait until released, one by one in order. */
export function heldEngine() {
  const waiting: { release(): void; fail(error: Error): void }[] = [];
  const held = <T>(value: T) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ release: () => resolve(value), fail: reject });
    });
  const calls: string[] = [];
  const engine: TelemetryExecutor = {
    engine: "held",
    database: "vigil",
    command: async (sql) => {
      calls.push(sql);
    },
    query: <T>(sql: string) => {
      calls.push(sql);
      return held<T[]>([]);
    },
    queryCompact: (sql) => {
      calls.push(sql);
      return held<CompactResult>({ columns: [], rows: [], rowsRead: 0, elapsedSeconds: 0 });
    },
    insert: async (_table, rows) => ({ rowsWritten: rows.length }),
    ping: async () => {},
    stats: () => ({ sessions: 3, busySessions: 1, writeWaitMs: 0 }),
    close: async () => {},
  };
  return { engine, waiting, calls };
}

/** An admission on fake timers (its clock is Date.now), recording why it refuses. */
export function onFakeTime(options: Omit<AdmissionOptions, "now" | "onRefused">) {
  vi.useFakeTimers();
  const refusals: AdmissionRefusal[] = [];
  const admission = new EngineAdmission({
    ...options,
    now: () => Date.now(),
    onRefused: (reason) => refusals.push(reason),
  });
  return { admission, refusals };
}
