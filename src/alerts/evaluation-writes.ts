import { renderMessage, withUnit } from "../contracts/alert-catalog.js";
import { startEscalation } from "../escalation/escalation-start.js";
import type { DomainEvent } from "../events/event-bus.js";
import type { IdGenerator } from "../lib/ids.js";
import { LeaseLostError } from "../lib/leased-scheduler.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { AlertEventRecord } from "../meta/repositories/alert-events.js";
import type { AlertRuleRecord } from "../meta/repositories/alert-rules.js";
import type { LeaseFence } from "../meta/repositories/work-leases.js";
import type { AlertEvent, AlertNotification } from "../notifications/notification-payloads.js";
import type { StatusPageSignals } from "../status-pages/signals.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import { alertEventId, alertEventPayload } from "./alert-webhook-events.js";
import {
  type EvaluationPlan,
  planEvaluation,
  type QueryOutcome,
  type SeriesChange,
} from "./evaluation.js";
import type { AlertIncidents } from "./incidents-port.js";
import { presetUnit } from "./presets.js";

// What one evaluation writes, in its transaction: the series and their events, the rule's last
// evaluation, the channels' notifications, the webhooks and the rule's incident. The engine
// (evaluator.ts) runs the query and calls recordEvaluation.

/** What recording an evaluation needs. */
export interface EvaluationWriteDeps {
  newId: IdGenerator;
  incidents: AlertIncidents;
  webhooks: Pick<WebhookService, "enqueueIn" | "kick">;
  /** Status pages follow the rule's state (firing or not) and its incident. */
  statusPages?: StatusPageSignals | undefined;
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

/** A change's message: the rule's template filled with its value, threshold and labels. */
type MessageOf = (c: Pick<SeriesChange, "value" | "labels">) => string;

/** Writes one evaluation: series, events, the rule, notifications, webhooks and the incident. */
export async function recordEvaluation(
  deps: EvaluationWriteDeps,
  tx: MetaAccess,
  input: {
    ruleId: string;
    outcome: QueryOutcome;
    now: Date;
    durationMs: number;
    fence: LeaseFence | undefined;
  },
): Promise<AlertEvaluation | undefined> {
  const { ruleId, outcome, now, durationMs, fence } = input;
  // Locked and re-read: an edit, a mute or another node's evaluation may have moved it.
  if (!(await tx.repos.alertRules.lock(ruleId))) return undefined;
  // Fenced: a worker whose lease moved on records nothing (the new holder evaluates the slot).
  if (fence && !(await tx.repos.workLeases.advance(fence))) throw new LeaseLostError(fence);
  const rule = await tx.repos.alertRules.findById(ruleId);
  if (!rule) return undefined;
  const known = await tx.repos.alertSeries.list(ruleId);
  const plan = planEvaluation(rule, known, outcome, now);
  const at = now.toISOString();
  const message: MessageOf = (c) =>
    renderMessage(rule.definition.messageTemplate, {
      value: c.value,
      threshold: rule.definition.condition.threshold,
      labels: c.labels,
    });
  const domainEvents: DomainEvent[] = [];
  const incidentId = await applyIncident(deps, tx, { rule, plan, at, message, domainEvents });

  for (const series of plan.upserts) await tx.repos.alertSeries.upsert(series);
  for (const key of plan.deletes) await tx.repos.alertSeries.delete(ruleId, key);
  await tx.repos.alertEvents.insertMany(
    eventsOf(deps.newId, { rule, plan, at, message, incidentId }),
  );
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
  const notifications = plan.muted
    ? 0
    : await queueNotifications(deps, tx, { rule, plan, at, message, domainEvents });
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

/** The evaluation's events: the rule's own (errors, no data), then each series' change. */
function eventsOf(
  newId: IdGenerator,
  {
    rule,
    plan,
    at,
    message,
    incidentId,
  }: {
    rule: AlertRuleRecord;
    plan: EvaluationPlan;
    at: string;
    message: MessageOf;
    incidentId: string | null;
  },
): AlertEventRecord[] {
  const { threshold } = rule.definition.condition;
  return [
    ...plan.ruleEvents.map((e) => ({
      // Ids are monotonic: events of one instant keep this order in lists.
      id: newId("ale"),
      ruleId: rule.id,
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
      id: newId("ale"),
      ruleId: rule.id,
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
}

/** One evaluation of a rule as the writes after it see it; domainEvents collects their webhooks. */
interface EvaluationStep {
  rule: AlertRuleRecord;
  plan: EvaluationPlan;
  at: string;
  message: MessageOf;
  domainEvents: DomainEvent[];
}

/**
 * Queues a notification per notifying change and channel, and adds the alert.fired /
 * alert.resolved webhook events; returns the deliveries queued.
 */
async function queueNotifications(
  { newId, incidents }: Pick<EvaluationWriteDeps, "newId" | "incidents">,
  tx: MetaAccess,
  { rule, plan, at, message, domainEvents }: EvaluationStep,
): Promise<number> {
  const notes = plan.changes.flatMap((c) => {
    const event = NOTIFYING[c.kind];
    return event ? [notificationOf(event, rule, c, at, message(c))] : [];
  });
  const deliveries = [];
  for (const note of notes) {
    // A problem with an open incident carries a one-click acknowledge link per channel.
    const problem = note.event !== "alert.resolved" && note.incidentId !== null;
    const links =
      problem && note.incidentId && incidents.acknowledgeLinks
        ? await incidents.acknowledgeLinks(tx, {
            incidentId: note.incidentId,
            channelIds: rule.channelIds,
          })
        : undefined;
    for (const channelId of rule.channelIds) {
      const acknowledgeUrl = links?.get(channelId);
      deliveries.push({
        id: newId("ntf"),
        projectId: rule.projectId,
        channelId,
        monitorId: null,
        ruleId: rule.id,
        incidentId: note.incidentId,
        event: note.event,
        payload: acknowledgeUrl ? { ...note, acknowledgeUrl } : note,
        createdAt: at,
      });
    }
  }
  await tx.repos.notificationDeliveries.insertMany(deliveries);
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
  return deliveries.length;
}

/**
 * `openIncident`: the first fire opens the rule's incident (not while muted), later fires and
 * resolves are appended to it, and it is resolved when no series fires any more. Sets the
 * incident on the changes and firing series; returns the rule's incident, if any.
 */
async function applyIncident(
  deps: Pick<EvaluationWriteDeps, "incidents">,
  tx: MetaAccess,
  { rule, plan, at, message, domainEvents }: EvaluationStep,
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
  const pending = fires.length === 0 && wanted && incidentId === null ? plan.firing[0] : undefined;
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
      // A new incident starts the rule's escalation policy, resending this fire step by step.
      if (opened.created)
        await startEscalation(tx, {
          incident: { id: incidentId, projectId: rule.projectId, startedAt: at },
          policyId: rule.definition.escalationPolicyId,
          notification: notificationOf(
            "alert.fired",
            rule,
            { ...fire, incidentId },
            at,
            message(fire),
          ),
          now: at,
        });
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

const NOTIFYING: Record<SeriesChange["kind"], AlertEvent | undefined> = {
  pending: undefined,
  fired: "alert.fired",
  resolved: "alert.resolved",
  renotified: "alert.renotified",
};

/** `value > 5%`: the condition in the rule's unit, as notifications and webhooks say it. */
export const conditionText = (rule: Pick<AlertRuleRecord, "definition">): string =>
  `value ${rule.definition.condition.op} ${withUnit(rule.definition.condition.threshold, presetUnit(rule.definition.preset))}`;

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
