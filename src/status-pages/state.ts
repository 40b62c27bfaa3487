import type { IncidentSeverity } from "../meta/repositories/incidents.js";
import { type ComponentState, type PageState, worstState } from "./model.js";

/** What a component's state is computed from, as the state engine reads it. */
export interface ComponentInputs {
  /** Its monitors: paused ones are left out (they say nothing about the service). */
  monitors: readonly { active: boolean; inOutage: boolean }[];
  /** Its alert rules: a muted rule does not count as failing (mute means "not to be told"). */
  rules: readonly { firing: boolean; muted: boolean }[];
  /**
   * Severities of the open incidents linked to it by hand (a source's own incident is counted
   * through its source failing).
   */
  incidents: readonly IncidentSeverity[];
  /** A maintenance window covers it now. */
  inMaintenance: boolean;
}

/** The state an open incident puts its components in: low/medium degrade, high/critical take down. */
export const incidentImpact = (severity: IncidentSeverity): "degraded" | "down" =>
  severity === "high" || severity === "critical" ? "down" : "degraded";

/**
 * DESIGN §4: operational when every source passes; degraded when some fail or a low/medium
 * incident linked to it is open; down when all fail or a high/critical one is. Maintenance wins
 * over all of them, and a component with no source that counts is operational.
 */
export function componentStateOf(inputs: ComponentInputs): ComponentState {
  if (inputs.inMaintenance) return "maintenance";
  const failing: boolean[] = [
    ...inputs.monitors.filter((m) => m.active).map((m) => m.inOutage),
    ...inputs.rules.map((r) => r.firing && !r.muted),
  ];
  const failed = failing.filter(Boolean).length;
  const fromSources: PageState =
    failed === 0 ? "operational" : failed === failing.length ? "down" : "degraded";
  return worstState([fromSources, ...inputs.incidents.map(incidentImpact)]);
}

/** A page's (or group's) state: its worst component's; maintenance counts as operational. */
export const pageStateOf = (states: Iterable<ComponentState>): PageState =>
  worstState([...states].map((s) => (s === "maintenance" ? "operational" : s)));

/** A group's state: maintenance when every component is under maintenance, else the worst. */
export function groupStateOf(states: readonly ComponentState[]): ComponentState {
  if (states.length > 0 && states.every((s) => s === "maintenance")) return "maintenance";
  return pageStateOf(states);
}

/** Whether a rule's mute holds at `now` (an expired mute counts as unmuted). */
export const isMuted = (rule: { muted: boolean; mutedUntil: string | null }, now: Date): boolean =>
  rule.muted && (rule.mutedUntil === null || Date.parse(rule.mutedUntil) > now.getTime());
