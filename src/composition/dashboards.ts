import type { Config } from "../config/config-schema.js";
import { PanelCache } from "../dashboards/panel-cache.js";
import { PanelLimiter } from "../dashboards/panel-limiter.js";
import type { PanelQueryDeps } from "../dashboards/panel-queries.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";

/** Panel results kept for viewers of the same dashboards, in bytes of JSON, at most. */
export const PANEL_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** A project's panel queries waiting for its turn at most; one more is a 429. */
export const PANEL_QUEUE_PER_PROJECT = 64;

/**
 * What dashboards' panel queries run on besides TQL: a line per project as wide as the project's
 * TQL bound (tql.maxConcurrentPerProject), whose wait is bounded by the TQL time limit, and one
 * result cache for the node.
 */
export function createDashboardPanels(
  config: Config,
  deps: { telemetry: Pick<TelemetryExecutor, "database"> },
  options: { cacheBytes?: number; queuePerProject?: number } = {},
): PanelQueryDeps {
  return {
    database: deps.telemetry.database,
    limiter: new PanelLimiter({
      maxRunning: config.tql.maxConcurrentPerProject,
      maxQueued: options.queuePerProject ?? PANEL_QUEUE_PER_PROJECT,
      maxWaitMs: config.tql.maxExecutionSeconds * 1000,
    }),
    cache: new PanelCache({ maxBytes: options.cacheBytes ?? PANEL_CACHE_MAX_BYTES }),
  };
}
