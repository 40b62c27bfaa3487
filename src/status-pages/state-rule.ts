import type { Severity } from "../contracts/severity.js";
import { type ComponentState, type PageState, worstState } from "../contracts/status-pages.js";

// THE rule of status page state (docs/design.md §4, docs/status-pages.md "How state is computed"),
// written once: the state engine computes components and pages with it, the public payload
// computes incident impact with it. Pure, no imports but the contracts' state types; the states'
// words, which every public format and the dashboard share, are in src/contracts/status-pages.ts.

export type IncidentSeverity = Severity;
export type IncidentImpact = "degraded" | "down";

/** What a component's monitors and alert rules say. */
export interface SourceSignals {
  /** Its monitors: paused ones are left out (they say nothing about the service). */
  monitors: readonly { active: boolean; inOutage: boolean }[];
  /** Its alert rules: a muted rule does not count as failing (mute means "not to be told"). */
  rules: readonly { firing: boolean; muted: boolean }[];
}

/**
 * An open incident a component counts: one linked to it by hand, or the own incident of one of
 * its sources (a monitor outage, a rule's) when the component publishes them.
 */
export interface CountedIncident {
  severity: IncidentSeverity;
  /** It was opened by one of this component's sources. */
  ownSource: boolean;
}

/** What a component's state is computed from. */
export interface ComponentInputs extends SourceSignals {
  incidents: readonly CountedIncident[];
  /** A maintenance window covers it now. */
  inMaintenance: boolean;
}

/** An incident's severity as a state: low/medium degrade, high/critical take down. */
export const severityImpact = (severity: IncidentSeverity): IncidentImpact =>
  severity === "high" || severity === "critical" ? "down" : "degraded";

/** The sources alone: operational when all that count pass, down when all fail, else degraded. */
export function sourcesStateOf(signals: SourceSignals): PageState {
  const failing: boolean[] = [
    ...signals.monitors.filter((m) => m.active).map((m) => m.inOutage),
    ...signals.rules.map((r) => r.firing && !r.muted),
  ];
  const failed = failing.filter(Boolean).length;
  return failed === 0 ? "operational" : failed === failing.length ? "down" : "degraded";
}

/**
 * The state one incident puts one component in: its severity's, and for a source's own incident
 * at least what its failing source does there (the incident *is* that failure).
 */
const incidentStateOn = (incident: CountedIncident, sources: PageState): IncidentImpact =>
  worstState([
    severityImpact(incident.severity),
    incident.ownSource ? sources : "operational",
  ]) as IncidentImpact;

/**
 * A component's state: maintenance while a window covers it; otherwise the worst of what its
 * sources say and what each incident it counts puts it in.
 */
export function componentStateOf(inputs: ComponentInputs): ComponentState {
  if (inputs.inMaintenance) return "maintenance";
  const sources = sourcesStateOf(inputs);
  return worstState([sources, ...inputs.incidents.map((i) => incidentStateOn(i, sources))]);
}

/** One component an incident affects, as its impact needs it. */
export interface AffectedComponent {
  /** `sourcesStateOf` the component's sources. */
  sources: PageState;
  ownSource: boolean;
  inMaintenance: boolean;
}

/**
 * An incident's impact: the worst state it puts any component it affects in, components under
 * maintenance left out (its severity's when all are). By construction no component it affects
 * (outside maintenance) is in a better state, so neither is the page.
 */
export function incidentImpactOf(
  severity: IncidentSeverity,
  affected: readonly AffectedComponent[],
): IncidentImpact {
  let impact = severityImpact(severity);
  for (const c of affected) {
    if (c.inMaintenance) continue;
    if (incidentStateOn({ severity, ownSource: c.ownSource }, c.sources) === "down")
      impact = "down";
  }
  return impact;
}

/** A page's state: its worst component's; maintenance counts as operational. */
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
