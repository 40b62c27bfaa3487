import type { DomainEvent } from "../events/event-bus.js";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type {
  IncidentEventRecord,
  IncidentRecord,
  IncidentSeverity,
} from "../meta/repositories/incidents.js";
import { incidentEventPayload } from "./incident-webhook-events.js";
import type { IncidentActor, IncidentEventType, IncidentPhase } from "./model.js";

/** What the incident verbs need: the time and ids (a subset of DomainDeps). */
export interface IncidentDeps {
  clock: Clock;
  newId: IdGenerator;
}

/** A timeline entry a monitor or alert rule writes. */
export interface SourceEvent {
  type: IncidentEventType;
  message?: string | null | undefined;
  data?: Record<string, unknown> | undefined;
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

/** Appends one entry to an incident's timeline (a fire of an alert, a notification, …). */
export async function appendIncidentEvent(
  meta: MetaAccess,
  deps: IncidentDeps,
  incidentId: string,
  event: NewIncidentEvent,
): Promise<void> {
  await appendIncidentEvents(meta, deps, incidentId, [event]);
}

export interface OpenSourceIncidentInput {
  projectId: string;
  source: "monitor" | "alert";
  sourceId: string;
  sourceKey?: string | null | undefined;
  title: string;
  severity: IncidentSeverity;
  cause: string | null;
  at: string;
  event: SourceEvent;
}

/**
 * Opens the incident of a monitor outage or a firing alert rule, inside the caller's transaction.
 * When the source already has one open, that one is returned (`created` false) and `event` is
 * appended to it. `events` holds `incident.created` for the caller to enqueue in the same
 * transaction (empty when nothing was created).
 */
export async function openSourceIncident(
  meta: MetaAccess,
  deps: IncidentDeps,
  input: OpenSourceIncidentInput,
): Promise<{ incident: IncidentRecord; created: boolean; events: DomainEvent[] }> {
  const actor: IncidentActor = { kind: input.source, id: input.sourceId };
  const sourceEvent: NewIncidentEvent = { ...input.event, at: input.at, actor };
  const open = await meta.repos.incidents.findOpenBySource(input.source, input.sourceId);
  if (open) {
    await appendIncidentEvent(meta, deps, open.id, sourceEvent);
    return { incident: open, created: false, events: [] };
  }
  const incident: IncidentRecord = {
    id: deps.newId("inc"),
    projectId: input.projectId,
    title: input.title,
    status: "active",
    severity: input.severity,
    source: input.source,
    sourceId: input.sourceId,
    sourceKey: input.sourceKey ?? null,
    startedAt: input.at,
    resolvedAt: null,
    durationMs: null,
    cause: input.cause,
    createdBy: null,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: deps.clock.now().toISOString(),
  };
  await meta.repos.incidents.insert(incident);
  await appendIncidentEvents(meta, deps, incident.id, [
    { type: "opened", at: input.at, actor, message: input.title },
    sourceEvent,
  ]);
  return { incident, created: true, events: [incidentCreatedEvent(incident)] };
}

/**
 * Resolves the open incident of a monitor or alert rule (its recovery), appending `event` then
 * `resolved`. Undefined when the source has none open (e.g. someone resolved it by hand).
 */
export async function resolveSourceIncident(
  meta: MetaAccess,
  deps: IncidentDeps,
  input: {
    source: "monitor" | "alert";
    sourceId: string;
    at: string;
    event: SourceEvent;
    /** Who resolves it; the source itself unless given (e.g. the user deleting a rule). */
    actor?: IncidentActor | undefined;
  },
): Promise<{ incident: IncidentRecord; events: DomainEvent[] } | undefined> {
  const open = await meta.repos.incidents.findOpenBySource(input.source, input.sourceId);
  if (!open) return undefined;
  const actor: IncidentActor = input.actor ?? { kind: input.source, id: input.sourceId };
  const incident = await markResolved(meta, deps, open, input.at);
  if (!incident) return undefined;
  await appendIncidentEvents(meta, deps, open.id, [
    { ...input.event, at: input.at, actor },
    { type: "resolved", at: input.at, actor },
  ]);
  return { incident, events: [incidentResolvedEvent(incident)] };
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
