import type { Logger } from "pino";
import type { Config } from "../config/config-schema.js";
import type { Clock } from "../lib/clock.js";
import type { Metrics } from "../lib/metrics.js";
import type { MetaStore } from "../meta/meta-store.js";
import type { MonitorEngine } from "../monitors/engine.js";
import type { PingDeps, RecordHeartbeatCheck } from "../monitors/heartbeat-pings.js";
import { createHeartbeatWatcher, type HeartbeatWatcher } from "../monitors/heartbeat-watcher.js";

/** Heartbeat monitors: what the ping routes record through, and the deadline watcher of a worker. */
export interface AppHeartbeats {
  pings: PingDeps;
  /** Undefined on an API node (workers watch deadlines) or with monitors.enabled off. */
  watcher: HeartbeatWatcher | undefined;
  /** The ping routes' limits (docs/heartbeats.md). */
  limits: { perTokenPerMinute: number; perAddressPerMinute: number };
}

/**
 * Pings and missed deadlines are recorded through the monitor engine (the same recording, state
 * machine and after-effects as every check). Every worker runs a watcher; their records are
 * fenced by the deadline's compare-and-set, so a miss is recorded once.
 */
export function createHeartbeats(
  config: Config,
  deps: {
    meta: MetaStore;
    clock: Clock;
    logger: Logger;
    metrics: Metrics;
    engine: Pick<MonitorEngine, "record">;
  },
): AppHeartbeats {
  const record: RecordHeartbeatCheck = (check) => deps.engine.record(check);
  const watches = config.role !== "api" && config.monitors.enabled;
  return {
    pings: { meta: deps.meta, clock: deps.clock, record },
    watcher: watches
      ? createHeartbeatWatcher({
          meta: deps.meta,
          clock: deps.clock,
          record,
          logger: deps.logger,
          metrics: deps.metrics,
        })
      : undefined,
    limits: {
      perTokenPerMinute: config.monitors.heartbeatPingsPerMinute,
      perAddressPerMinute: config.monitors.heartbeatPingsPerMinutePerAddress,
    },
  };
}
