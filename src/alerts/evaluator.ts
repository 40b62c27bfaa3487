import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import { UnavailableError } from "../lib/domain-errors.js";
import type { Metrics } from "../lib/metrics.js";
import { SerialByKey } from "../lib/serial-by-key.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { AlertRuleRecord } from "../meta/repositories/alert-rules.js";
import type { LeaseFence } from "../meta/repositories/work-leases.js";
import type { ResultColumn } from "../telemetry/executor.js";
import { isBackingOff, type QueryOutcome } from "./evaluation.js";
import {
  type AlertEvaluation,
  type EvaluationWriteDeps,
  recordEvaluation,
} from "./evaluation-writes.js";
import { readSeries } from "./series.js";

export interface AlertEngineDeps extends EvaluationWriteDeps {
  meta: MetaAccess;
  clock: Clock;
  /** Runs a rule's TQL confined to its project (TqlService.queryForAlert). */
  query(projectId: string, text: string): Promise<{ columns: ResultColumn[]; rows: unknown[][] }>;
  /** Called after an evaluation queued notifications, so the dispatcher sends them at once. */
  onNotificationsQueued?: () => void;
  logger: Logger;
  metrics?: Metrics;
}

/** A scheduled slot's outcome: an evaluation, a slot given up (see evaluateScheduled), or gone. */
export type ScheduledOutcome = AlertEvaluation | "backing_off" | "engine_busy" | undefined;

/** Evaluates alert rules one at a time per rule and records each in one transaction. */
export interface AlertEngine {
  /**
   * Evaluates the rule now; undefined when it no longer exists. With a fence (a scheduled slot
   * under a worker's lease) it records only while the lease holds, else rejects LeaseLostError.
   */
  evaluate(ruleId: string, fence?: LeaseFence): Promise<AlertEvaluation | undefined>;
  /**
   * A scheduled slot: evaluates the rule as `evaluate` does, unless its evaluations keep failing
   * and it is backing off (see backoffUntil): then it answers "backing_off", and nothing runs;
   * or the engine was too busy with others' work to take its query in time ("engine_busy"):
   * then nothing is recorded.
   */
  evaluateScheduled(ruleId: string, fence?: LeaseFence): Promise<ScheduledOutcome>;
  isRunning(ruleId: string): boolean;
  idle(): Promise<void>;
}

export function createAlertEngine(deps: AlertEngineDeps): AlertEngine {
  /** A rule's evaluations run one at a time: never two of a rule at once. */
  const running = new SerialByKey<ScheduledOutcome>();

  /** The rule's query's outcome, or "busy" when the engine could not take it (not its fault). */
  async function runQuery(rule: AlertRuleRecord): Promise<QueryOutcome | "busy"> {
    try {
      const result = await deps.query(rule.projectId, rule.query);
      return { ok: true, samples: readSeries(result) };
    } catch (error) {
      if (error instanceof UnavailableError) return "busy";
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  async function execute(
    ruleId: string,
    fence: LeaseFence | undefined,
    scheduled: boolean,
  ): Promise<ScheduledOutcome> {
    const rule = await deps.meta.repos.alertRules.findById(ruleId);
    if (!rule) return undefined;
    const now = deps.clock.now();
    if (scheduled && isBackingOff(rule, now)) {
      deps.metrics?.alertEvaluations.inc({ outcome: "backing_off" });
      return "backing_off";
    }
    const started = performance.now();
    const answer = await runQuery(rule);
    // Other tenants' load is no failure of the rule: a scheduled slot is skipped, unrecorded,
    // so it neither counts towards the rule's backoff nor shows it as failing.
    if (answer === "busy" && scheduled) {
      deps.metrics?.alertEvaluations.inc({ outcome: "engine_busy" });
      return "engine_busy";
    }
    const outcome: QueryOutcome =
      answer === "busy"
        ? { ok: false, error: "The telemetry engine was too busy to run the query; retry" }
        : answer;
    const durationMs = Math.round(performance.now() - started);
    const recorded = await deps.meta.transaction((tx) =>
      recordEvaluation(deps, tx, { ruleId, outcome, now, durationMs, fence }),
    );
    const seconds = (performance.now() - started) / 1000;
    if (!recorded) {
      deps.metrics?.alertEvaluations.inc({ outcome: "gone" });
      return undefined;
    }
    deps.metrics?.alertEvaluations.inc({ outcome: outcome.ok ? "ok" : "error" });
    deps.metrics?.alertEvaluationDuration.observe(seconds);
    for (const change of recorded.plan.changes) {
      const to =
        change.kind === "pending"
          ? "pending"
          : change.kind === "fired"
            ? "firing"
            : change.kind === "resolved"
              ? "ok"
              : undefined;
      if (to) deps.metrics?.alertTransitions.inc({ to });
    }
    if (recorded.plan.ruleEvents.some((e) => e.kind === "error")) {
      deps.metrics?.alertTransitions.inc({ to: "error" });
      deps.logger.warn({ ruleId, err: recorded.plan.lastError }, "alert rule query failed");
    }
    if (recorded.notifications > 0) deps.onNotificationsQueued?.();
    if (recorded.webhooks > 0) deps.webhooks.kick();
    return recorded;
  }

  return {
    // Unscheduled, it never backs off.
    evaluate: (ruleId, fence) =>
      running
        .run(ruleId, () => execute(ruleId, fence, false))
        .then((run) => (typeof run === "string" ? undefined : run)),
    evaluateScheduled: (ruleId, fence) => running.run(ruleId, () => execute(ruleId, fence, true)),
    isRunning: (ruleId) => running.isRunning(ruleId),
    idle: () => running.idle(),
  };
}
