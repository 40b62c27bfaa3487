import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import type { Metrics } from "../lib/metrics.js";
import { createPeriodicTask } from "../lib/periodic-task.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { DueHeartbeat } from "../meta/repositories/heartbeats.js";
import type { RecordHeartbeatCheck } from "./heartbeat-pings.js";
import {
  heartbeatTarget,
  heartbeatTiming,
  missedResult,
  nextMissedDeadline,
} from "./heartbeat-results.js";

/** What the watcher needs: the store, a clock, the recording, and how often and much it looks. */
export interface HeartbeatWatcherDeps {
  meta: MetaAccess;
  clock: Clock;
  record: RecordHeartbeatCheck;
  logger: Logger;
  metrics?: Pick<Metrics, "heartbeatMissed" | "heartbeatLateness"> | undefined;
  /** How often it looks for passed deadlines (default 1 s). */
  intervalMs?: number;
  /** Due heartbeats read per query (default 200); a full batch is followed by the next at once. */
  batch?: number;
  /** Missed pings recorded at once (default 8). */
  concurrency?: number;
}

/** Looks for heartbeats whose deadline passed and records each missed ping once. */
export interface HeartbeatWatcher {
  start(): void;
  stop(): Promise<void>;
  /** One pass now (tests drive it with a fake clock): how many missed pings it recorded. */
  runOnce(): Promise<number>;
}

/**
 * The deadline watcher (docs/heartbeats.md). Every `intervalMs` it reads the heartbeats of active
 * monitors whose deadline passed (an index range, most overdue first) and records a failed check
 * (trigger `missed`) for each through the same recording as every check, so alertAfter counts
 * missed periods. Each record moves the deadline one period on with a compare-and-set on the
 * deadline it saw, in the record's transaction after the monitor's row lock: of several workers
 * that saw the same deadline (every worker runs a watcher), exactly one records it.
 */
export function createHeartbeatWatcher(deps: HeartbeatWatcherDeps): HeartbeatWatcher {
  const batch = deps.batch ?? 200;
  const concurrency = deps.concurrency ?? 8;

  async function recordMissed(due: DueHeartbeat): Promise<boolean> {
    const nowMs = deps.clock.now().getTime();
    const monitor = await deps.meta.repos.monitors.findCheckable(due.monitorId);
    if (monitor?.status !== "active") return false;
    const timing = heartbeatTiming(monitor.definition);
    const result = missedResult({
      target: heartbeatTarget(timing),
      nowMs,
      deadline: due.nextDeadlineAt,
      lastPingAt: due.lastPingAt,
      createdAt: due.createdAt,
      traceId: randomBytes(16).toString("hex"),
    });
    const recorded = await deps.record({
      monitorId: due.monitorId,
      trigger: "missed",
      result,
      guard: async (tx, current) => {
        if (current.status !== "active") return false;
        const { periodMs } = heartbeatTiming(current.definition);
        const seen = Date.parse(due.nextDeadlineAt);
        return tx.repos.heartbeats.advanceDeadline(
          due.monitorId,
          due.nextDeadlineAt,
          nextMissedDeadline(seen, periodMs, nowMs),
        );
      },
    });
    if (!recorded) return false;
    deps.metrics?.heartbeatMissed.inc();
    deps.metrics?.heartbeatLateness.observe(
      Math.max(0, nowMs - Date.parse(due.nextDeadlineAt)) / 1000,
    );
    return true;
  }

  async function pass(): Promise<number> {
    let recorded = 0;
    for (;;) {
      const due = await deps.meta.repos.heartbeats.listDue(deps.clock.now().toISOString(), batch);
      let next = 0;
      const worker = async () => {
        while (next < due.length) {
          const item = due[next++];
          if (!item) break;
          try {
            if (await recordMissed(item)) recorded++;
          } catch (error) {
            deps.logger.warn(
              { monitorId: item.monitorId, err: (error as Error).message },
              "heartbeat missed ping not recorded",
            );
          }
        }
      };
      const before = recorded;
      await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
      // A full batch may have more behind it; a short one was everything due, and a batch that
      // recorded nothing (other watchers won, or the store fails) waits for the next interval.
      if (due.length < batch || recorded === before) return recorded;
    }
  }

  let last = 0;
  const task = createPeriodicTask({
    run: async () => {
      last = await pass();
    },
    intervalMs: deps.intervalMs ?? 1000,
    onError: (error) => deps.logger.warn({ err: error.message }, "heartbeat watcher pass failed"),
  });
  return {
    start: () => task.start(),
    stop: () => task.stop(),
    async runOnce() {
      await task.runOnce();
      return last;
    },
  };
}
