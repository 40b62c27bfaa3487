import type { IncidentEventType } from "../contracts/incident-catalog.js";
import type { IncidentActor } from "../contracts/incidents.js";
import type { DomainEvent } from "../events/event-bus.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { IncidentRecord, IncidentSeverity } from "../meta/repositories/incidents.js";
import {
  appendIncidentEvents,
  type IncidentDeps,
  incidentCreatedEvent,
  incidentResolvedEvent,
  markResolved,
  type NewIncidentEvent,
  stopEscalationIn,
} from "./incident-lifecycle.js";

// The incidents monitors and alert rules open and resolve themselves, inside their own
// transaction (docs/design.md §4 "Incidents: one model, three sources").

/** A timeline entry a monitor or alert rule writes. */
export interface SourceEvent {
  type: IncidentEventType;
  message?: string | null | undefined;
  data?: Record<string, unknown> | undefined;
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
    acknowledgedAt: null,
    acknowledgedBy: null,
    assigneeId: null,
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
  await stopEscalationIn(meta, deps, open.id, "resolved", input.at);
  return { incident, events: [incidentResolvedEvent(incident)] };
}

/**
 * Why a monitor's or alert rule's incident may not be reopened, or undefined when it may: only
 * the source's latest incident, and only while the source is still failing, so its recovery
 * resolves it again and its next outage opens a new incident.
 */
export async function refuseSourceReopen(
  tx: MetaAccess,
  incident: IncidentRecord,
): Promise<string | undefined> {
  const { source, sourceId } = incident;
  if (source === "manual" || sourceId === null) return undefined;
  const latest = await tx.repos.incidents.findLatestBySource(source, sourceId);
  if (latest && latest.id !== incident.id)
    return `The ${source} '${sourceId}' has a later incident '${latest.id}'; only its latest incident can be reopened`;
  if (source === "monitor") {
    const monitor = await tx.repos.monitors.findById(sourceId);
    if (monitor?.health !== "outage")
      return `The monitor '${sourceId}' is not in an outage any more; open a manual incident instead`;
    return undefined;
  }
  const rule = await tx.repos.alertRules.findById(sourceId);
  if (rule?.state !== "firing")
    return `The alert rule '${sourceId}' is not firing any more; open a manual incident instead`;
  return undefined;
}
