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
] as const;
export type IncidentEventType = (typeof INCIDENT_EVENT_TYPES)[number];
export const ACTOR_KINDS = ["user", "system", "monitor", "alert"] as const;
/** Status page components one incident may be linked to. */
export const MAX_INCIDENT_COMPONENTS = 100;
