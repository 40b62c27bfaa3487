import type { Logger } from "pino";
import type { Config } from "../config/config-schema.js";
import type { Clock } from "../lib/clock.js";
import { createOutboundAgent } from "../lib/http/outbound-agent.js";
import type { IdGenerator } from "../lib/ids.js";
import type { WorkerLeases } from "../lib/leased-scheduler.js";
import type { Metrics } from "../lib/metrics.js";
import type { MetaStore } from "../meta/meta-store.js";
import {
  createMonitorEngine,
  type MonitorEngine,
  type MonitorEngineDeps,
} from "../monitors/engine.js";
import { listScheduleEntries, type MonitorDeps } from "../monitors/monitors.js";
import { createResultRetention, type ResultRetention } from "../monitors/retention.js";
import { createCheckRunner } from "../monitors/runner.js";
import { createMonitorScheduler, type MonitorScheduler } from "../monitors/scheduler.js";

/** HTTP monitors: the check engine and, when this process runs them, the scheduler. */
export type AppMonitors = MonitorDeps & {
  scheduler?: MonitorScheduler | undefined;
  retention: ResultRetention;
};

/** The guarded agent every request to a user-supplied URL goes through. */
export type OutboundAgent = ReturnType<typeof createOutboundAgent>;

/** One guarded keep-alive pool for every request to a user-supplied URL (monitors, Slack). */
export function createOutbound(config: Config): OutboundAgent {
  return createOutboundAgent({ allowPrivateNetworks: config.monitors.allowPrivateTargets });
}

/** The check engine: checks run through `outbound` with the `monitors` settings. */
export function monitorEngineFor(
  config: Config,
  deps: Omit<MonitorEngineDeps, "run"> & { outbound: OutboundAgent },
): MonitorEngine {
  const { outbound, ...engineDeps } = deps;
  return createMonitorEngine({
    ...engineDeps,
    run: createCheckRunner({ dispatcher: outbound, clock: deps.clock, ...config.monitors }),
  });
}

/**
 * The scheduler of the active monitors, run under this worker's leases; undefined on an API node
 * (no leases) or with monitors.enabled off.
 */
export function monitorSchedulerFor(
  config: Config,
  deps: {
    engine: Pick<MonitorEngine, "check" | "isRunning" | "idle">;
    meta: MetaStore;
    clock: Clock;
    logger: Logger;
    metrics: Metrics;
    lease: WorkerLeases | undefined;
  },
): MonitorScheduler | undefined {
  const { meta, lease } = deps;
  if (!lease || !config.monitors.enabled) return undefined;
  return createMonitorScheduler({
    engine: deps.engine,
    clock: deps.clock,
    concurrency: config.monitors.concurrency,
    logger: deps.logger,
    metrics: deps.metrics,
    listActive: () => listScheduleEntries(meta),
    version: () => meta.repos.monitors.activeVersion(),
    lease,
  });
}

/** The monitors' section: engine, scheduler and result retention. */
export function createMonitors(
  config: Config,
  deps: {
    meta: MetaStore;
    clock: Clock;
    newId: IdGenerator;
    logger: Logger;
    metrics: Metrics;
    outbound: OutboundAgent;
    lease: WorkerLeases | undefined;
  } & Pick<MonitorEngineDeps, "onNotificationsQueued" | "webhooks" | "statusPages">,
): AppMonitors {
  const { lease, ...engineDeps } = deps;
  const engine = monitorEngineFor(config, engineDeps);
  return {
    engine,
    scheduler: monitorSchedulerFor(config, { ...deps, engine }),
    retention: createResultRetention({
      meta: deps.meta,
      clock: deps.clock,
      logger: deps.logger,
      retentionDays: config.monitors.resultRetentionDays,
    }),
    allowPrivateTargets: config.monitors.allowPrivateTargets,
  };
}
