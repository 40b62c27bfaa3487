import { setMaxListeners } from "node:events";
import type { Logger } from "pino";
import type { Metrics } from "../lib/metrics.js";
import { SerialByKey } from "../lib/serial-by-key.js";
import type { LeaseFence } from "../meta/repositories/work-leases.js";
import type { CheckMetricsBuffer } from "./check-metrics-buffer.js";
import type {
  CheckRecordingDeps,
  CheckTrigger,
  RecordCheckInput,
  RecordedCheck,
} from "./check-recording.js";
import type { CheckResult } from "./check-result.js";
import type { MonitorDefinition } from "./definition.js";
import { createGroupCommit } from "./group-commit.js";

export interface MonitorEngineDeps extends CheckRecordingDeps {
  /** Executes a definition's requests (the undici runner); the signal aborts them at shutdown. */
  run(definition: MonitorDefinition, signal: AbortSignal): Promise<CheckResult>;
  /** Called after a check queued notifications, so the dispatcher sends them without waiting. */
  onNotificationsQueued?: () => void;
  logger: Logger;
  metrics?: Metrics;
  /** Where each recorded check's points (vigil.monitor.*) go, to be written to its project's telemetry. */
  checkMetrics?: Pick<CheckMetricsBuffer, "add"> | undefined;
  /**
   * Group commit: records ending within this many ms share one transaction (see
   * group-commit.ts); 0 or absent, each commits alone. A manual check never waits for others.
   */
  groupCommitMs?: number;
}

/** Runs checks and records them: one result, the state machine, incidents and queued notifications. */
export interface MonitorEngine {
  /**
   * Runs one check of the monitor now and records it, after any run of the same monitor still in
   * flight (a monitor never overlaps itself). Undefined when the monitor no longer exists. With a
   * fence (a scheduled slot under a worker's lease) the record is written only while the lease
   * holds and the slot was not recorded yet; otherwise it rejects with LeaseLostError.
   */
  check(
    monitorId: string,
    trigger: CheckTrigger,
    fence?: LeaseFence,
  ): Promise<RecordedCheck | undefined>;
  /**
   * Records a result made outside the runner (a heartbeat's ping or missed deadline) like a
   * check, after any check of the same monitor in flight, with a check's after-effects (metrics,
   * notifications, webhooks). `guard` runs in the record's transaction (see recordCheck).
   */
  record(check: ExternalCheck): Promise<RecordedCheck | undefined>;
  isRunning(monitorId: string): boolean;
  /** Resolves when every check in flight has been recorded. */
  idle(): Promise<void>;
  /** Cancels the requests of every check in flight (shutdown); cancelled checks are not recorded. */
  abort(): void;
}

/** A result made outside the runner, with the guard its record runs under. */
export type ExternalCheck = Omit<RecordCheckInput, "fence">;

export function createMonitorEngine(deps: MonitorEngineDeps): MonitorEngine {
  const running = new SerialByKey<RecordedCheck | undefined>();
  const commits = createGroupCommit(deps, { windowMs: deps.groupCommitMs ?? 0 });
  const shutdown = new AbortController();
  // Every check in flight listens for the shutdown (the scheduler's concurrency bounds them).
  setMaxListeners(0, shutdown.signal);

  async function execute(monitorId: string, trigger: CheckTrigger, fence?: LeaseFence) {
    const monitor = await deps.meta.repos.monitors.findCheckable(monitorId);
    // A paused monitor is checked only on request (spec: pause stops checks).
    if (!monitor || (trigger === "scheduled" && monitor.status !== "active")) return undefined;
    const { signal } = shutdown;
    const result = await deps.run(monitor.definition as MonitorDefinition, signal);
    if (signal.aborted) return undefined;
    const check = { monitorId, result, trigger, fence };
    return afterRecord(await commits.record(check, { now: trigger === "manual" }));
  }

  /** A check's after-effects: its metrics, the transition's log line, what it queued sent. */
  function afterRecord(recorded: RecordedCheck | undefined): RecordedCheck | undefined {
    if (!recorded) return undefined;
    const { monitorId, trigger, result } = recorded;
    deps.metrics?.monitorChecks.inc({ trigger, outcome: result.passed ? "passed" : "failed" });
    deps.checkMetrics?.add(recorded);
    if (recorded.transition !== "none") {
      deps.metrics?.monitorTransitions.inc({ kind: recorded.transition });
      deps.logger.info(
        { monitorId, transition: recorded.transition, resultId: recorded.id },
        recorded.transition === "recovered" ? "monitor recovered" : "monitor outage started",
      );
      if (recorded.notifications > 0) deps.onNotificationsQueued?.();
      if (recorded.webhooks > 0) deps.webhooks?.kick();
    }
    return recorded;
  }

  return {
    check: (monitorId, trigger, fence) =>
      running.run(monitorId, () => execute(monitorId, trigger, fence)),
    record: (check) =>
      running.run(check.monitorId, async () =>
        afterRecord(await commits.record({ ...check, fence: undefined })),
      ),
    isRunning: (monitorId) => running.isRunning(monitorId),
    idle: () => running.idle(),
    abort: () => shutdown.abort(),
  };
}
