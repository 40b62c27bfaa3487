import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import type { Metrics } from "../lib/metrics.js";
import { createPeriodicScheduler, type PeriodicScheduler } from "../lib/periodic-scheduler.js";
import type { AlertRuleRepository } from "../meta/repositories/alert-rules.js";
import type { AlertEngine } from "./evaluator.js";

export interface AlertSchedulerDeps {
  engine: Pick<AlertEngine, "evaluate" | "isRunning" | "idle">;
  /** Where the rules are read from at start and at each sync (every rule, muted ones too). */
  rules: Pick<AlertRuleRepository, "listSchedulable">;
  clock: Clock;
  /** Evaluations in flight at once (VIGIL_ALERTS_CONCURRENCY); due ones beyond wait in FIFO order. */
  concurrency: number;
  syncIntervalMs?: number;
  logger: Logger;
  metrics?: Metrics;
}

/**
 * Keeps every alert rule on its interval (muted ones too: they are evaluated and recorded).
 * Rule edits reach it through schedule/unschedule, and other nodes' edits through the sync.
 */
export function createAlertScheduler(deps: AlertSchedulerDeps): PeriodicScheduler {
  const { engine, metrics } = deps;
  return createPeriodicScheduler({
    what: "alert rule",
    runner: {
      run: (id) => engine.evaluate(id),
      isRunning: (id) => engine.isRunning(id),
      idle: () => engine.idle(),
    },
    listActive: async () =>
      (await deps.rules.listSchedulable()).map((r) => ({
        id: r.id,
        periodMs: r.intervalMs,
      })),
    ...(deps.syncIntervalMs === undefined ? {} : { syncIntervalMs: deps.syncIntervalMs }),
    clock: deps.clock,
    concurrency: deps.concurrency,
    logger: deps.logger,
    onLag: (seconds) => metrics?.alertEvaluationLag.observe(seconds),
  });
}
