import { z } from "zod";
import { INCIDENT_SOURCES } from "../contracts/incident-catalog.js";
import type { IncidentRecord } from "../meta/repositories/incidents.js";
import {
  defineWebhookEventType,
  EXAMPLE_AT,
  EXAMPLE_PROJECT_ID,
  isoTime,
} from "../webhooks/webhook-event-type.js";

// The incidents' webhook events, incident.created and incident.resolved (docs/webhooks.md).

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
