import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import { createLeasedScheduler, type WorkerLeases } from "../lib/leased-scheduler.js";
import type { Metrics } from "../lib/metrics.js";
import { createPeriodicScheduler, type PeriodicScheduler } from "../lib/periodic-scheduler.js";
import type { AlertRuleRepository } from "../meta/repositories/alert-rules.js";
import type { AlertEngine } from "./evaluator.js";

export interface AlertSchedulerDeps {
  engine: Pick<AlertEngine, "evaluateScheduled" | "isRunning" | "idle">;
  /** Where the rules are read from at start and at each sync (every rule, muted ones too). */
  rules: Pick<AlertRuleRepository, "listSchedulable"> &
    Partial<Pick<AlertRuleRepository, "schedulableVersion">>;
  clock: Clock;
  /**
   * Evaluations in flight at once (VIGIL_ALERTS_CONCURRENCY), half of them for one project and
   * all but one for one organization at most; due ones beyond take turns, organization first.
   */
  concurrency: number;
  syncIntervalMs?: number;
  logger: Logger;
  metrics?: Metrics;
  /** Share the rules with other workers through leases (every slot evaluated once). */
  lease?: WorkerLeases;
}

/**
 * Keeps every alert rule on its interval (muted ones too: they are evaluated and recorded).
 * Rule edits reach it through schedule/unschedule, and other nodes' edits through the sync.
 */
export function createAlertScheduler(deps: AlertSchedulerDeps): PeriodicScheduler {
  const { engine, metrics } = deps;
  const common = {
    what: "alert rule",
    clock: deps.clock,
    concurrency: deps.concurrency,
    logger: deps.logger,
    onLag: (seconds: number) => metrics?.alertEvaluationLag.observe(seconds),
  };
  const listActive = async () =>
    (await deps.rules.listSchedulable()).map((r) => ({
      id: r.id,
      periodMs: r.intervalMs,
      // Due rules take turns by organization and project: one with many slow rules never
      // starves another's.
      tenant: r.projectId,
      group: r.orgId,
      fresh: r.lastEvaluatedAt === null,
    }));
  if (deps.lease)
    return createLeasedScheduler({
      ...common,
      ...deps.lease,
      kind: "alert_rule",
      listActive,
      ...(deps.rules.schedulableVersion ? { version: deps.rules.schedulableVersion } : {}),
      run: (id, fence) => engine.evaluateScheduled(id, fence),
      isRunning: (id) => engine.isRunning(id),
      idle: () => engine.idle(),
      ...(deps.syncIntervalMs === undefined ? {} : { syncMs: deps.syncIntervalMs }),
    });
  return createPeriodicScheduler({
    ...common,
    runner: {
      run: (id) => engine.evaluateScheduled(id),
      isRunning: (id) => engine.isRunning(id),
      idle: () => engine.idle(),
    },
    listActive,
    ...(deps.syncIntervalMs === undefined ? {} : { syncIntervalMs: deps.syncIntervalMs }),
  });
}
