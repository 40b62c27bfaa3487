import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import {
  createLeasedScheduler,
  type LeasableEntry,
  type WorkerLeases,
} from "../lib/leased-scheduler.js";
import type { Metrics } from "../lib/metrics.js";
import { createPeriodicScheduler, type PeriodicScheduler } from "../lib/periodic-scheduler.js";
import type { MonitorEngine } from "./engine.js";

export { nextSlot, type ScheduleEntry } from "../lib/periodic-scheduler.js";

export interface SchedulerDeps {
  engine: Pick<MonitorEngine, "check" | "isRunning" | "idle">;
  /** Every active monitor: read at start, then every `syncIntervalMs` to pick up other nodes' edits. */
  listActive(): Promise<LeasableEntry[]>;
  /** A cheap fingerprint of the active monitors (leased: skips re-reading them while unchanged). */
  version?: () => Promise<string>;
  syncIntervalMs?: number;
  clock: Clock;
  /** Checks in flight at once; due checks beyond it wait in a FIFO queue. */
  concurrency: number;
  logger: Logger;
  metrics?: Metrics;
  /** Share the monitors with other workers through leases (every slot checked once). */
  lease?: WorkerLeases;
  /** Slots due within this many ms start together (see PeriodicSchedulerDeps.tickMs). */
  tickMs?: number;
}

/** Keeps every active monitor on its period (the generic periodic scheduler running checks). */
export type MonitorScheduler = PeriodicScheduler;

export function createMonitorScheduler(deps: SchedulerDeps): MonitorScheduler {
  const { engine, metrics } = deps;
  const common = {
    what: "monitor",
    clock: deps.clock,
    concurrency: deps.concurrency,
    logger: deps.logger,
    onSkipped: () => metrics?.monitorChecksSkipped.inc(),
    onLag: (seconds: number) => metrics?.monitorScheduleLag.observe(seconds),
    ...(deps.tickMs ? { tickMs: deps.tickMs } : {}),
  };
  if (deps.lease)
    return createLeasedScheduler({
      ...common,
      ...deps.lease,
      kind: "monitor",
      listActive: deps.listActive,
      ...(deps.version ? { version: deps.version } : {}),
      run: (id, fence) => engine.check(id, "scheduled", fence),
      isRunning: (id) => engine.isRunning(id),
      idle: () => engine.idle(),
      ...(deps.syncIntervalMs === undefined ? {} : { syncMs: deps.syncIntervalMs }),
    });
  return createPeriodicScheduler({
    ...common,
    runner: {
      run: (id) => engine.check(id, "scheduled"),
      isRunning: (id) => engine.isRunning(id),
      idle: () => engine.idle(),
    },
    listActive: deps.listActive,
    ...(deps.syncIntervalMs === undefined ? {} : { syncIntervalMs: deps.syncIntervalMs }),
  });
}
