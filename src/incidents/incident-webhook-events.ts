import { z } from "zod";
import { ACKNOWLEDGER_KINDS, INCIDENT_SOURCES } from "../contracts/incident-catalog.js";
import type { DomainEvent } from "../events/event-bus.js";
import type { IncidentAcknowledger, IncidentRecord } from "../meta/repositories/incidents.js";
import {
  defineWebhookEventType,
  EXAMPLE_AT,
  EXAMPLE_PROJECT_ID,
  isoTime,
} from "../webhooks/webhook-event-type.js";

// The incidents' webhook events (docs/webhooks.md): incident.created and incident.resolved, and
// the response to one: incident.acknowledged, incident.assigned, incident.severity_changed.

const IncidentPayload = z.object({
  incidentId: z.string(),
  projectId: z.string(),
  title: z.string(),
  severity: z.string(),
  status: z.enum(["active", "resolved"]),
  ruleId: z.string().nullable(),
  startedAt: isoTime,
  resolvedAt: isoTime.nullable(),
  source: z.enum(INCIDENT_SOURCES).describe("What opened it"),
  sourceId: z.string().nullable().describe("The monitor or alert rule id; null when manual"),
});
type IncidentPayload = z.infer<typeof IncidentPayload>;

const incidentExample = (resolved: boolean): IncidentPayload => ({
  incidentId: "inc_01kaexample0000000000001",
  projectId: EXAMPLE_PROJECT_ID,
  title: "Checkout p95 over 800 ms",
  severity: "high",
  status: resolved ? "resolved" : "active",
  ruleId: "alr_01kaexample0000000000000",
  startedAt: EXAMPLE_AT,
  resolvedAt: resolved ? "2026-11-21T09:50:00.000Z" : null,
  source: "alert",
  sourceId: "alr_01kaexample0000000000000",
});

const Acknowledger = z.object({
  kind: z.enum(ACKNOWLEDGER_KINDS).describe("A user, a one-click link a channel sent, or the CLI"),
  id: z.string().nullable().describe("The user's id, or the channel's that sent the link"),
  label: z.string().nullable().describe("The user's name, or the channel's name and type"),
});
const AcknowledgedPayload = IncidentPayload.extend({
  acknowledgedAt: isoTime,
  acknowledgedBy: Acknowledger,
});
const Assignee = z
  .object({ id: z.string(), name: z.string(), email: z.string() })
  .describe("A member of the project's organization");
const AssignedPayload = IncidentPayload.extend({
  assignee: Assignee.nullable().describe("Who it is assigned to now; null when unassigned"),
  previousAssigneeId: z.string().nullable(),
  actor: z.object({ kind: z.enum(["user", "system"]), id: z.string().nullable() }),
});
const SeverityChangedPayload = IncidentPayload.extend({
  from: z.string().describe("The severity before"),
  to: z.string().describe("The severity now (also in `severity`)"),
  actor: z.object({ kind: z.enum(["user", "system"]), id: z.string().nullable() }),
});

const EXAMPLE_USER = "usr_01kaexample0000000000000";

const EMITTED_BY =
  "incidents opened or resolved by hand, by monitor outages, and by alert rules with openIncident";

export const INCIDENT_WEBHOOK_EVENTS = [
  defineWebhookEventType({
    name: "incident.created",
    description: "An incident was opened",
    emittedBy: EMITTED_BY,
    payload: IncidentPayload,
    example: incidentExample(false),
  }),
  defineWebhookEventType({
    name: "incident.resolved",
    description: "An incident was resolved (again after a reopen: a new event)",
    emittedBy: EMITTED_BY,
    payload: IncidentPayload,
    example: incidentExample(true),
  }),
  defineWebhookEventType({
    name: "incident.acknowledged",
    description:
      "Someone acknowledged an active incident (the first acknowledge; again after a reopen; escalation stops)",
    emittedBy: "the acknowledge button and API, and one-click acknowledge links in notifications",
    payload: AcknowledgedPayload,
    example: {
      ...incidentExample(false),
      acknowledgedAt: "2026-11-21T09:34:00.000Z",
      acknowledgedBy: { kind: "link", id: "chn_01kaexample0000000000000", label: "Ops (email)" },
    },
  }),
  defineWebhookEventType({
    name: "incident.assigned",
    description: "An incident was assigned to a member, to another one, or unassigned",
    emittedBy: "the assignee picker and PUT …/incidents/:incidentId/assignee",
    payload: AssignedPayload,
    example: {
      ...incidentExample(false),
      assignee: { id: EXAMPLE_USER, name: "Ada Ops", email: "ada@example.com" },
      previousAssigneeId: null,
      actor: { kind: "user", id: EXAMPLE_USER },
    },
  }),
  defineWebhookEventType({
    name: "incident.severity_changed",
    description: "An incident's severity was changed by hand",
    emittedBy: "PATCH …/incidents/:incidentId with a new severity",
    payload: SeverityChangedPayload,
    example: {
      ...incidentExample(false),
      severity: "critical",
      from: "high",
      to: "critical",
      actor: { kind: "user", id: EXAMPLE_USER },
    },
  }),
] as const;

/** The payload of incident.created / incident.resolved for an incident as stored. */
export function incidentEventPayload(incident: IncidentRecord): IncidentPayload {
  return {
    incidentId: incident.id,
    projectId: incident.projectId,
    title: incident.title,
    severity: incident.severity,
    status: incident.status,
    ruleId: incident.source === "alert" ? incident.sourceId : null,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    source: incident.source,
    sourceId: incident.sourceId,
  };
}

/** `incident.acknowledged`, once per acknowledgement (the first; a reopen clears it, so again after). */
export function incidentAcknowledgedEvent(
  incident: IncidentRecord,
  ack: { at: string; by: IncidentAcknowledger },
): DomainEvent {
  return {
    id: `incident.acknowledged:${incident.id}:${Date.parse(ack.at)}`,
    type: "incident.acknowledged",
    projectId: incident.projectId,
    data: {
      ...incidentEventPayload(incident),
      acknowledgedAt: ack.at,
      acknowledgedBy: ack.by,
    } satisfies z.infer<typeof AcknowledgedPayload>,
    occurredAt: ack.at,
  };
}

/** Who changed an incident by hand, as the events name them. */
type HandActor = { kind: "user" | "system"; id: string | null };

/** `incident.assigned`, once per change of assignee. */
export function incidentAssignedEvent(
  incident: IncidentRecord,
  change: {
    at: string;
    assignee: z.infer<typeof Assignee> | null;
    previousAssigneeId: string | null;
    actor: HandActor;
  },
): DomainEvent {
  return {
    id: `incident.assigned:${incident.id}:${Date.parse(change.at)}:${change.assignee?.id ?? "none"}`,
    type: "incident.assigned",
    projectId: incident.projectId,
    data: {
      ...incidentEventPayload(incident),
      assignee: change.assignee,
      previousAssigneeId: change.previousAssigneeId,
      actor: change.actor,
    } satisfies z.infer<typeof AssignedPayload>,
    occurredAt: change.at,
  };
}

/** `incident.severity_changed`, once per change (`incident` carries the new severity). */
export function incidentSeverityChangedEvent(
  incident: IncidentRecord,
  change: { at: string; from: string; actor: HandActor },
): DomainEvent {
  return {
    id: `incident.severity_changed:${incident.id}:${Date.parse(change.at)}:${incident.severity}`,
    type: "incident.severity_changed",
    projectId: incident.projectId,
    data: {
      ...incidentEventPayload(incident),
      from: change.from,
      to: incident.severity,
      actor: change.actor,
    } satisfies z.infer<typeof SeverityChangedPayload>,
    occurredAt: change.at,
  };
}
