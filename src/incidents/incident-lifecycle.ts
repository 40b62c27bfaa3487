import type { IncidentEventType, IncidentPhase } from "../contracts/incident-catalog.js";
import type { IncidentActor } from "../contracts/incidents.js";
import type { DomainEvent } from "../events/event-bus.js";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { IncidentEventRecord, IncidentRecord } from "../meta/repositories/incidents.js";
import { incidentEventPayload } from "./incident-webhook-events.js";

// What every incident writer shares, whoever opened it: timeline entries, the resolve with its
// active time, and the incident.created / incident.resolved events enqueued with them.

/** What the incident verbs need: the time and ids (a subset of DomainDeps). */
export interface IncidentDeps {
  clock: Clock;
  newId: IdGenerator;
}

/** A timeline entry as any caller appends it. */
export interface NewIncidentEvent {
  type: IncidentEventType;
  at: string;
  actor: IncidentActor;
  message?: string | null | undefined;
  data?: Record<string, unknown> | undefined;
  /** For `update`: the public phase. */
  phase?: IncidentPhase | undefined;
  /** Shown publicly (status pages, /v1 updates); `update` events are. */
  public?: boolean | undefined;
}

/** `incident.created`, once per incident. */
export const incidentCreatedEvent = (incident: IncidentRecord): DomainEvent => ({
  id: `incident.created:${incident.id}`,
  type: "incident.created",
  projectId: incident.projectId,
  data: incidentEventPayload(incident),
  occurredAt: incident.startedAt,
});

/** `incident.resolved`, once per resolution (reopened and resolved again is a new event). */
export const incidentResolvedEvent = (incident: IncidentRecord): DomainEvent => {
  const resolvedAt = incident.resolvedAt ?? incident.updatedAt;
  return {
    id: `incident.resolved:${incident.id}:${Date.parse(resolvedAt)}`,
    type: "incident.resolved",
    projectId: incident.projectId,
    data: incidentEventPayload(incident),
    occurredAt: resolvedAt,
  };
};

/**
 * Stores timeline entries. Ids are time-sortable and the timeline is ordered by (at, id): the
 * ids of one batch are handed out in order, so entries of the same instant keep their order.
 */
export async function appendIncidentEvents(
  meta: MetaAccess,
  deps: IncidentDeps,
  incidentId: string,
  events: readonly NewIncidentEvent[],
): Promise<IncidentEventRecord[]> {
  const ids = events.map(() => deps.newId("ine")).sort();
  const records = events.map(
    (e, i): IncidentEventRecord => ({
      id: ids[i] ?? deps.newId("ine"),
      incidentId,
      type: e.type,
      at: e.at,
      actorKind: e.actor.kind,
      actorId: e.actor.id,
      message: e.message ?? null,
      phase: e.phase ?? null,
      public: e.public ?? false,
      data: e.data ?? {},
    }),
  );
  await meta.repos.incidents.insertEvents(records);
  return records;
}

/**
 * The time an incident spent active until `at`: the sum of its active periods, read from its
 * timeline (each `reopened` starts a period, each `resolved` ends one), so the time it sat
 * resolved between a resolve and a reopen does not count.
 */
async function activeMsUntil(
  meta: MetaAccess,
  incident: IncidentRecord,
  at: string,
): Promise<number> {
  const marks = await meta.repos.incidents.listEvents([incident.id], ["resolved", "reopened"]);
  let total = 0;
  let since = Date.parse(incident.startedAt);
  for (const mark of marks) {
    if (mark.type === "reopened") since = Date.parse(mark.at);
    else total += Math.max(0, Date.parse(mark.at) - since);
  }
  return total + Math.max(0, Date.parse(at) - since);
}

/**
 * Sets an active incident resolved at `at`, with its duration (active time only); returns it as
 * stored, or undefined when it was no longer active (resolved meanwhile). Call it before
 * appending the `resolved` entry.
 */
export async function markResolved(
  meta: MetaAccess,
  deps: IncidentDeps,
  incident: IncidentRecord,
  at: string,
): Promise<IncidentRecord | undefined> {
  const change = {
    status: "resolved" as const,
    resolvedAt: at,
    durationMs: await activeMsUntil(meta, incident, at),
    updatedAt: deps.clock.now().toISOString(),
  };
  if (!(await meta.repos.incidents.update(incident.id, change, "active"))) return undefined;
  return { ...incident, ...change };
}

/** The `escalation_stopped` timeline entry of an escalation stopped for `reason`. */
export const escalationStoppedEntry = (
  escalation: { policyId: string; policy: { name: string } },
  reason: "acknowledged" | "resolved",
  at: string,
): NewIncidentEvent => ({
  type: "escalation_stopped",
  at,
  actor: { kind: "system", id: null },
  message: `escalation stopped: ${reason}`,
  data: { policyId: escalation.policyId, policyName: escalation.policy.name, reason },
});

/**
 * Stops the incident's active escalation, if any, in the transaction that acknowledges or
 * resolves it (docs/escalation.md), with its one `escalation_stopped` entry: a step the worker
 * is about to send then fails its fence instead. Call it after the acknowledged / resolved entry.
 */
export async function stopEscalationIn(
  meta: MetaAccess,
  deps: IncidentDeps,
  incidentId: string,
  reason: "acknowledged" | "resolved",
  at: string,
): Promise<boolean> {
  const stopped = await meta.repos.incidentEscalations.stopActive(incidentId, reason, at);
  if (!stopped) return false;
  await appendIncidentEvents(meta, deps, incidentId, [escalationStoppedEntry(stopped, reason, at)]);
  return true;
}

/**
 * What a reopen does to the response, in its transaction: the acknowledgement is cleared (the
 * incident can be acknowledged again, and get acknowledge links), and the escalation restarts
 * from step 1 when it escalated before and its source has a policy now. Returns the `reopened`
 * entry, its message (after the optional note) and data saying both.
 */
/**
 * Restarts an incident's escalation from step 1 in the caller's transaction, when it escalated
 * before and its source has a policy now (the escalation domain's restartEscalation, given by the
 * composition root: escalation reads incidents, so incidents only hold this port of it).
 */
export type EscalationRestart = (
  tx: MetaAccess,
  incident: IncidentRecord,
  at: string,
) => Promise<{ policyId: string; policyName: string } | undefined>;

export async function resetResponse(
  meta: MetaAccess,
  incident: IncidentRecord,
  reopen: { at: string; actor: IncidentActor; message?: string | undefined },
  restartEscalation: EscalationRestart,
): Promise<NewIncidentEvent> {
  const { at } = reopen;
  const ack = incident.acknowledgedBy;
  const cleared = await meta.repos.incidents.clearAcknowledgement(incident.id, at);
  const escalation = await restartEscalation(meta, incident, at);
  const said = [
    ...(cleared ? [`acknowledgement by ${ack?.label ?? ack?.kind ?? "someone"} cleared`] : []),
    ...(escalation ? [`escalation restarted from step 1 — ${escalation.policyName}`] : []),
  ].join("; ");
  return {
    type: "reopened",
    at,
    actor: reopen.actor,
    message: [reopen.message, said].filter((m) => m).join(" — ") || null,
    data: {
      resolvedAt: incident.resolvedAt,
      ...(cleared ? { acknowledgedAt: incident.acknowledgedAt, acknowledgedBy: ack } : {}),
      ...(escalation ? { escalationRestarted: escalation } : {}),
    },
  };
}
