import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import type { Metrics } from "../lib/metrics.js";
import {
  createPeriodicScheduler,
  type PeriodicScheduler,
  type ScheduleEntry,
} from "../lib/periodic-scheduler.js";
import type { MonitorEngine } from "./engine.js";

export { nextSlot, type ScheduleEntry } from "../lib/periodic-scheduler.js";

export interface SchedulerDeps {
  engine: Pick<MonitorEngine, "check" | "isRunning" | "idle">;
  /** Every active monitor: read at start, then every `syncIntervalMs` to pick up other nodes' edits. */
  listActive(): Promise<ScheduleEntry[]>;
  syncIntervalMs?: number;
  clock: Clock;
  /** Checks in flight at once; due checks beyond it wait in a FIFO queue. */
  concurrency: number;
  logger: Logger;
  metrics?: Metrics;
}

/** Keeps every active monitor on its period (the generic periodic scheduler running checks). */
export type MonitorScheduler = PeriodicScheduler;

export function createMonitorScheduler(deps: SchedulerDeps): MonitorScheduler {
  const { engine, metrics } = deps;
  return createPeriodicScheduler({
    what: "monitor",
    runner: {
      run: (id) => engine.check(id, "scheduled"),
      isRunning: (id) => engine.isRunning(id),
      idle: () => engine.idle(),
    },
    listActive: deps.listActive,
    ...(deps.syncIntervalMs === undefined ? {} : { syncIntervalMs: deps.syncIntervalMs }),
    clock: deps.clock,
    concurrency: deps.concurrency,
    logger: deps.logger,
    onSkipped: () => metrics?.monitorChecksSkipped.inc(),
    onLag: (seconds) => metrics?.monitorScheduleLag.observe(seconds),
  });
}
