import type { MonitorEngine } from "../../src/monitors/engine.js";
import { nextSlot } from "../../src/monitors/scheduler.js";
import { PERIOD_MS } from "./settings.js";

/** One scheduled check as the scheduler started it. */
export interface Started {
  id: string;
  slot: number;
  startedAt: number;
  endedAt?: number;
  outcome?: "passed" | "failed" | "gone" | "error";
  requestMs?: number;
  reason?: string;
}

/** The engine, its check wrapped to note when each scheduled check started, ended and how. */
export function trackChecks(engine: MonitorEngine) {
  const checks: Started[] = [];
  const tracked: MonitorEngine = {
    check(monitorId, trigger, fence) {
      const startedAt = Date.now();
      const entry: Started = {
        id: monitorId,
        slot: fence?.slot ?? nextSlot(monitorId, PERIOD_MS, startedAt - PERIOD_MS),
        startedAt,
      };
      checks.push(entry);
      const running = engine.check(monitorId, trigger, fence);
      running.then(
        (recorded) => {
          entry.endedAt = Date.now();
          if (!recorded) {
            entry.outcome = "gone";
            return;
          }
          entry.outcome = recorded.result.passed ? "passed" : "failed";
          entry.requestMs = recorded.result.durationMs;
          if (!recorded.result.passed) {
            const step = recorded.result.steps.find((s) => s.status === "failed");
            entry.reason =
              step?.transportError?.code ??
              step?.assertions.find((a) => !a.passed)?.message ??
              "failed";
          }
        },
        (error: unknown) => {
          entry.endedAt = Date.now();
          entry.outcome = "error";
          entry.reason = (error as Error).message;
        },
      );
      return running;
    },
    record: (check) => engine.record(check),
    isRunning: (monitorId) => engine.isRunning(monitorId),
    idle: () => engine.idle(),
    abort: () => engine.abort(),
  };
  return { tracked, checks };
}
