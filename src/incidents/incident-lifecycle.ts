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
