import type { Logger } from "pino";
import type { Config } from "../config/config-schema.js";
import type { ApiKeyActor } from "../context.js";
import type { IngestService } from "../ingest/ingest.js";
import type { Clock } from "../lib/clock.js";
import { createOutboundAgent } from "../lib/http/outbound-agent.js";
import type { IdGenerator } from "../lib/ids.js";
import type { WorkerLeases } from "../lib/leased-scheduler.js";
import type { Metrics } from "../lib/metrics.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaAccess, MetaStore } from "../meta/meta-store.js";
import {
  type CheckMetricsBuffer,
  createCheckMetricsBuffer,
} from "../monitors/check-metrics-buffer.js";
import {
  createMonitorEngine,
  type MonitorEngine,
  type MonitorEngineDeps,
} from "../monitors/engine.js";
import { createCheckRunner } from "../monitors/kinds/registry.js";
import { listScheduleEntries, type MonitorDeps } from "../monitors/monitors.js";
import { createResultRetention, type ResultRetention } from "../monitors/retention.js";
import { createMonitorScheduler, type MonitorScheduler } from "../monitors/scheduler.js";

/** HTTP monitors: the check engine and, when this process runs them, the scheduler. */
export type AppMonitors = MonitorDeps & {
  scheduler?: MonitorScheduler | undefined;
  retention: ResultRetention;
  /** The checks' vigil.monitor.* points on their way to each project's metrics table. */
  checkMetrics: CheckMetricsBuffer;
};

/** The guarded agent every request to a user-supplied URL goes through. */
export type OutboundAgent = ReturnType<typeof createOutboundAgent>;

/** One guarded keep-alive pool for every request to a user-supplied URL (monitors, Slack). */
export function createOutbound(config: Config): OutboundAgent {
  return createOutboundAgent({ allowPrivateNetworks: config.monitors.allowPrivateTargets });
}

/** Checks due within this many ms start together, one wake-up for all (see periodic-scheduler.ts). */
export const SCHEDULE_TICK_MS = 100;

/** How long a check's record waits for others to share its commit (see group-commit.ts). */
export const GROUP_COMMIT_MS = 50;

/**
 * Group commit on SQLite only: its one writer runs transactions one after another anyway. On
 * PostgreSQL, records of several monitors in one transaction would hold their row and page
 * locks together, taken in no common order with another node's.
 */
function groupCommitMsFor(meta: MetaAccess | MetaStore): number {
  return "engine" in meta && meta.engine === "sqlite" ? GROUP_COMMIT_MS : 0;
}

/** What runs a check's requests: each kind's runner on `outbound`, with the `monitors` settings. */
export function checkRunnerFor(
  config: Config,
  deps: { outbound: OutboundAgent; clock: Clock },
): MonitorEngineDeps["run"] {
  return createCheckRunner({ dispatcher: deps.outbound, clock: deps.clock, ...config.monitors });
}

/** The check engine: checks run through `outbound` with the `monitors` settings. */
export function monitorEngineFor(
  config: Config,
  deps: Omit<MonitorEngineDeps, "run"> & { outbound: OutboundAgent },
): MonitorEngine {
  const { outbound, ...engineDeps } = deps;
  return createMonitorEngine({
    ...engineDeps,
    run: checkRunnerFor(config, { outbound, clock: deps.clock }),
    groupCommitMs: groupCommitMsFor(deps.meta),
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
    tickMs: SCHEDULE_TICK_MS,
  });
}

/**
 * The checks' points go through ingestion like any OTLP export of the project, as a sender of
 * its own (no API key exists for it): the batch writer joins them with other writes.
 */
export function checkMetricsFor(deps: {
  ingest: Pick<IngestService, "export">;
  logger: Logger;
}): CheckMetricsBuffer {
  return createCheckMetricsBuffer({
    logger: deps.logger,
    write: async (projectId, request) => {
      const actor: ApiKeyActor = {
        kind: "api_key",
        keyId: "vigil-monitors",
        projectId,
        permissions: ["ingest"],
      };
      const written = await deps.ingest.export(actor, "metrics", request);
      if (written.rejected > 0)
        deps.logger.warn({ projectId, ...written }, "monitor check metrics partly refused");
    },
  });
}

/** The monitors' section: engine, scheduler, result retention and the checks' metrics. */
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
    ingest: Pick<IngestService, "export">;
    /** Seals a heartbeat's ping token (the server key's box). */
    secretBox: SecretBox;
  } & Pick<MonitorEngineDeps, "onNotificationsQueued" | "webhooks" | "statusPages" | "appUrl">,
): AppMonitors {
  const { lease, ingest, secretBox, ...engineDeps } = deps;
  const checkMetrics = checkMetricsFor({ ingest, logger: deps.logger });
  const engine = monitorEngineFor(config, { ...engineDeps, checkMetrics });
  return {
    engine,
    checkMetrics,
    scheduler: monitorSchedulerFor(config, { ...deps, engine }),
    retention: createResultRetention({
      meta: deps.meta,
      clock: deps.clock,
      logger: deps.logger,
      retentionDays: config.monitors.resultRetentionDays,
    }),
    allowPrivateTargets: config.monitors.allowPrivateTargets,
    secretBox,
  };
}
