import { SEVERITIES } from "./severity.js";

// The closed sets of the incident model as plain data (docs/design.md §4 "Incidents: one model,
// three sources"), shared by the schemas (incidents.ts), the domain and the dashboard, which
// bundles this file: it imports no zod.

export const INCIDENT_STATUSES = ["active", "resolved"] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export const INCIDENT_SEVERITIES = SEVERITIES;
export const INCIDENT_SOURCES = ["manual", "monitor", "alert"] as const;
export type IncidentSource = (typeof INCIDENT_SOURCES)[number];
export const INCIDENT_PHASES = ["investigating", "identified", "monitoring", "resolved"] as const;
export type IncidentPhase = (typeof INCIDENT_PHASES)[number];
export const INCIDENT_EVENT_TYPES = [
  "opened",
  "update",
  "severity_changed",
  "title_changed",
  "alert_fired",
  "alert_resolved",
  "monitor_down",
  "monitor_recovered",
  "notified",
  "comment",
  "resolved",
  "reopened",
  "acknowledged",
  "assigned",
  "escalated",
  "escalation_stopped",
] as const;
export type IncidentEventType = (typeof INCIDENT_EVENT_TYPES)[number];
/** `link`: a one-click acknowledge link a channel sent (its id the channel's). */
export const ACTOR_KINDS = ["user", "system", "monitor", "alert", "link"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];
/** Who may acknowledge: a user, a link a channel sent, or the operator (CLI). */
export const ACKNOWLEDGER_KINDS = ["user", "link", "system"] as const;
/** How long a one-click acknowledge link works, by default. */
export const ACK_LINK_TTL_HOURS = 24;
/** Status page components one incident may be linked to. */
export const MAX_INCIDENT_COMPONENTS = 100;
