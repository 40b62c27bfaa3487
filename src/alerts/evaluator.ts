import type { Logger } from "pino";
import { renderMessage, withUnit } from "../contracts/alert-catalog.js";
import type { DomainEvent } from "../events/event-bus.js";
import type { Clock } from "../lib/clock.js";
import { UnavailableError } from "../lib/domain-errors.js";
import type { IdGenerator } from "../lib/ids.js";
import { LeaseLostError } from "../lib/leased-scheduler.js";
import type { Metrics } from "../lib/metrics.js";
import { SerialByKey } from "../lib/serial-by-key.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { AlertEventRecord } from "../meta/repositories/alert-events.js";
import type { AlertRuleRecord } from "../meta/repositories/alert-rules.js";
import type { LeaseFence } from "../meta/repositories/work-leases.js";
import type { AlertEvent, AlertNotification } from "../notifications/notification-payloads.js";
import type { StatusPageSignals } from "../status-pages/signals.js";
import type { ResultColumn } from "../telemetry/executor.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import { alertEventId, alertEventPayload } from "./alert-webhook-events.js";
import {
  type EvaluationPlan,
  isBackingOff,
  planEvaluation,
  type QueryOutcome,
  type SeriesChange,
} from "./evaluation.js";
import type { AlertIncidents } from "./incidents-port.js";
import { presetUnit } from "./presets.js";
import { readSeries } from "./series.js";

export interface AlertEngineDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  /** Runs a rule's TQL confined to its project (TqlService.queryForAlert). */
  query(projectId: string, text: string): Promise<{ columns: ResultColumn[]; rows: unknown[][] }>;
  incidents: AlertIncidents;
  webhooks: Pick<WebhookService, "enqueueIn" | "kick">;
  /** Status pages follow the rule's state (firing or not) and its incident. */
  statusPages?: StatusPageSignals | undefined;
  /** Called after an evaluation queued notifications, so the dispatcher sends them at once. */
  onNotificationsQueued?: () => void;
  logger: Logger;
  metrics?: Metrics;
}

/** One evaluation as recorded. */
export interface AlertEvaluation {
  ruleId: string;
  at: string;
  durationMs: number;
  plan: EvaluationPlan;
  /** Channel deliveries and webhook events (alert.* and incident.*) queued. */
  notifications: number;
  webhooks: number;
  /** The rule's incident after this evaluation, when it has one. */
  incidentId: string | null;
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

const NOTIFYING: Record<SeriesChange["kind"], AlertEvent | undefined> = {
  pending: undefined,
  fired: "alert.fired",
  resolved: "alert.resolved",
  renotified: "alert.renotified",
};

/** `value > 5%`: the condition in the rule's unit, as notifications and webhooks say it. */
export const conditionText = (rule: Pick<AlertRuleRecord, "definition">): string =>
  `value ${rule.definition.condition.op} ${withUnit(rule.definition.condition.threshold, presetUnit(rule.definition.preset))}`;

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
      record(tx, ruleId, outcome, now, durationMs, fence),
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

  /** Writes one evaluation: series, events, the rule, notifications, webhooks and the incident. */
  async function record(
    tx: MetaAccess,
    ruleId: string,
    outcome: QueryOutcome,
    now: Date,
    durationMs: number,
    fence: LeaseFence | undefined,
  ): Promise<AlertEvaluation | undefined> {
    // Locked and re-read: an edit, a mute or another node's evaluation may have moved it.
    if (!(await tx.repos.alertRules.lock(ruleId))) return undefined;
    // Fenced: a worker whose lease moved on records nothing (the new holder evaluates the slot).
    if (fence && !(await tx.repos.workLeases.advance(fence))) throw new LeaseLostError(fence);
    const rule = await tx.repos.alertRules.findById(ruleId);
    if (!rule) return undefined;
    const known = await tx.repos.alertSeries.list(ruleId);
    const plan = planEvaluation(rule, known, outcome, now);
    const at = now.toISOString();
    const { threshold } = rule.definition.condition;
    const message = (c: Pick<SeriesChange, "value" | "labels">) =>
      renderMessage(rule.definition.messageTemplate, {
        value: c.value,
        threshold,
        labels: c.labels,
      });
    const domainEvents: DomainEvent[] = [];
    const incidentId = await applyIncident(tx, rule, plan, at, message, domainEvents);

    for (const series of plan.upserts) await tx.repos.alertSeries.upsert(series);
    for (const key of plan.deletes) await tx.repos.alertSeries.delete(ruleId, key);
    const events: AlertEventRecord[] = [
      ...plan.ruleEvents.map((e) => ({
        // Ids are monotonic: events of one instant keep this order in lists.
        id: deps.newId("ale"),
        ruleId,
        projectId: rule.projectId,
        seriesKey: "{}",
        labels: {},
        kind: e.kind,
        severity: rule.severity,
        value: null,
        threshold,
        at,
        notified: false,
        incidentId,
        message: e.message,
      })),
      ...plan.changes.map((c) => ({
        id: deps.newId("ale"),
        ruleId,
        projectId: rule.projectId,
        seriesKey: c.key,
        labels: c.labels,
        kind: c.kind,
        severity: rule.severity,
        value: c.value,
        threshold,
        at,
        notified: c.kind !== "pending" && !plan.muted,
        incidentId: c.incidentId,
        message: message(c),
      })),
    ];
    await tx.repos.alertEvents.insertMany(events);
    await tx.repos.alertRules.recordEvaluation(ruleId, {
      state: plan.state,
      lastEvaluatedAt: at,
      lastDurationMs: durationMs,
      lastValue: plan.lastValue,
      lastSeries: plan.lastSeries,
      lastError: plan.lastError,
      failures: plan.failures,
      failingSince: plan.failingSince,
    });

    let notifications = 0;
    if (!plan.muted) {
      const notes = plan.changes.flatMap((c) => {
        const event = NOTIFYING[c.kind];
        return event ? [notificationOf(event, rule, c, at, message(c))] : [];
      });
      const deliveries = notes.flatMap((note) =>
        rule.channelIds.map((channelId) => ({
          id: deps.newId("ntf"),
          projectId: rule.projectId,
          channelId,
          monitorId: null,
          ruleId,
          incidentId: note.incidentId,
          event: note.event,
          payload: note,
          createdAt: at,
        })),
      );
      await tx.repos.notificationDeliveries.insertMany(deliveries);
      notifications = deliveries.length;
      for (const note of notes) {
        if (note.event === "alert.renotified") continue;
        domainEvents.push({
          id: alertEventId(note.event, rule.id, note.series.keyHash, Date.parse(note.firedAt)),
          type: note.event,
          projectId: rule.projectId,
          data: alertEventPayload(note),
          occurredAt: at,
        });
      }
    }
    if (domainEvents.length > 0) await deps.webhooks.enqueueIn(tx, domainEvents);
    // A fire or a resolve of any series writes to the rule's incident, which pages show.
    const moved = plan.changes.some((c) => c.kind === "fired" || c.kind === "resolved");
    if (plan.state !== rule.state || moved)
      await deps.statusPages?.sourcesChanged(tx, [{ kind: "alert_rule", id: ruleId }]);
    return {
      ruleId,
      at,
      durationMs,
      plan,
      notifications,
      webhooks: domainEvents.length,
      incidentId,
    };
  }

  /**
   * `openIncident`: the first fire opens the rule's incident (not while muted), later fires and
   * resolves are appended to it, and it is resolved when no series fires any more. Sets the
   * incident on the changes and firing series; returns the rule's incident, if any.
   */
  async function applyIncident(
    tx: MetaAccess,
    rule: AlertRuleRecord,
    plan: EvaluationPlan,
    at: string,
    message: (c: SeriesChange) => string,
    domainEvents: DomainEvent[],
  ): Promise<string | null> {
    const actor = { kind: "alert" as const, id: rule.id };
    const data = (c: SeriesChange) => ({ seriesKey: c.key, labels: c.labels, value: c.value });
    let incidentId =
      plan.firing.find((s) => s.incidentId)?.incidentId ??
      plan.changes.find((c) => c.kind === "resolved" && c.incidentId)?.incidentId ??
      null;
    const wanted = rule.definition.openIncident && !plan.muted;
    const fires = plan.changes.filter((c) => c.kind === "fired");
    // Still firing after an unmute (or openIncident switched on): the incident opens now.
    const pending =
      fires.length === 0 && wanted && incidentId === null ? plan.firing[0] : undefined;
    const opening: SeriesChange[] = pending
      ? [
          {
            kind: "fired",
            key: pending.seriesKey,
            keyHash: "",
            labels: pending.labels,
            value: pending.lastValue,
            firedAt: pending.firedAt,
            incidentId: null,
          },
        ]
      : fires;
    for (const fire of opening) {
      const event = { type: "alert_fired" as const, message: message(fire), data: data(fire) };
      if (wanted) {
        const opened = await deps.incidents.open(tx, {
          projectId: rule.projectId,
          sourceId: rule.id,
          sourceKey: fire.key,
          title: rule.name,
          severity: rule.severity,
          cause: message(fire),
          at,
          event,
        });
        incidentId = opened.incident.id;
        domainEvents.push(...opened.events);
      } else if (incidentId) await deps.incidents.append(tx, incidentId, { ...event, at, actor });
      fire.incidentId = incidentId;
    }
    const resolves = plan.changes.filter(
      (c) => c.kind === "resolved" && (c.incidentId ?? incidentId),
    );
    for (const [index, resolve] of resolves.entries()) {
      const target = resolve.incidentId ?? incidentId;
      if (!target) continue;
      resolve.incidentId = target;
      const event = {
        type: "alert_resolved" as const,
        message: message(resolve),
        data: data(resolve),
      };
      if (plan.firing.length === 0 && index === resolves.length - 1) {
        const resolved = await deps.incidents.resolve(tx, { sourceId: rule.id, at, event });
        if (resolved) domainEvents.push(...resolved.events);
        else await deps.incidents.append(tx, target, { ...event, at, actor });
      } else await deps.incidents.append(tx, target, { ...event, at, actor });
    }
    if (incidentId) for (const series of plan.firing) series.incidentId = incidentId;
    return plan.firing.length > 0 ? incidentId : null;
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

function notificationOf(
  event: AlertEvent,
  rule: AlertRuleRecord,
  change: SeriesChange,
  at: string,
  message: string,
): AlertNotification {
  return {
    event,
    projectId: rule.projectId,
    rule: { id: rule.id, name: rule.name, severity: rule.severity, condition: conditionText(rule) },
    series: { key: change.key, keyHash: change.keyHash, labels: change.labels },
    value: change.value,
    threshold: rule.definition.condition.threshold,
    firedAt: change.firedAt ?? at,
    resolvedAt: event === "alert.resolved" ? at : null,
    message,
    incidentId: change.incidentId,
  };
}
