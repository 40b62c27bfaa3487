import { SEVERITIES } from "../contracts/severity.js";

/** The closed sets of the incident model (docs/design.md §4 "Incidents: one model, three sources"). */
export const INCIDENT_STATUSES = ["active", "resolved"] as const;
export const INCIDENT_SEVERITIES = SEVERITIES;
export const INCIDENT_SOURCES = ["manual", "monitor", "alert"] as const;
export const INCIDENT_PHASES = ["investigating", "identified", "monitoring", "resolved"] as const;
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
export const ACTOR_KINDS = ["user", "system", "monitor", "alert"] as const;

export type IncidentPhase = (typeof INCIDENT_PHASES)[number];
export type IncidentEventType = (typeof INCIDENT_EVENT_TYPES)[number];

/** Who wrote a timeline entry: a signed-in user, the system, or the monitor / rule by its id. */
export interface IncidentActor {
  kind: (typeof ACTOR_KINDS)[number];
  id: string | null;
}
