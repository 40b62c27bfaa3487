import type { HistoryDay, PublicIncident } from "../contracts/status-page-data.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { IncidentRecord } from "../meta/repositories/incidents.js";
import type { SourceStates } from "../meta/repositories/status-page-state.js";
import type {
  ComponentSources,
  StatusPageComponentRecord,
} from "../meta/repositories/status-pages.js";
import { splitByUtcDay } from "./history.js";
import { type AffectedComponent, incidentImpactOf, isMuted, sourcesStateOf } from "./state-rule.js";

// The incidents a public page shows (docs/status-pages.md): those of its components' sources
// that they publish and those linked to them by hand, titled and with an impact for the public.

/** Resolved incidents a payload lists at most (every open one is listed): a flapping monitor's
 * hundreds would swamp the page and its feeds. */
export const MAX_RESOLVED_INCIDENTS = 100;

/**
 * What the public reads as an incident's title: a person's own for an incident opened by hand;
 * for a monitor's or rule's, the components it affects, since the title names the source.
 */
function publicTitle(
  incident: IncidentRecord,
  componentIds: readonly string[],
  names: ReadonlyMap<string, string>,
): string {
  if (incident.source === "manual") return incident.title;
  const shown = componentIds.flatMap((id) => names.get(id) ?? []);
  const list =
    shown.length <= 3
      ? shown.join(", ")
      : `${shown.slice(0, 3).join(", ")} and ${shown.length - 3} more`;
  return list === "" ? "Service disruption" : `${list}: service disruption`;
}

/** The incidents' public updates (`update` entries marked public), oldest first. */
async function publicUpdates(meta: MetaAccess, incidents: readonly IncidentRecord[]) {
  const events = await meta.repos.incidents.listEvents(
    incidents.map((i) => i.id),
    ["update"],
  );
  const byIncident = new Map<string, PublicIncident["updates"]>();
  for (const e of events) {
    if (!e.public || e.message === null) continue;
    const list = byIncident.get(e.incidentId) ?? [];
    list.push({
      id: e.id,
      at: e.at,
      phase: e.phase as PublicIncident["updates"][number]["phase"],
      message: e.message,
    });
    byIncident.set(e.incidentId, list);
  }
  return byIncident;
}

/** What the page's incidents are drawn from: its components, their sources and what these say. */
export interface PageIncidentInputs {
  /** The page's components in display order. */
  components: readonly StatusPageComponentRecord[];
  sources: ReadonlyMap<string, ComponentSources>;
  signals: SourceStates;
  /** The first shown day's start: resolved incidents before it are not listed. */
  since: string;
  now: Date;
}

/**
 * The page's incidents, newest first: each with the page's components it affects in display
 * order (an incident no component shows is left out), its public title, impact and updates.
 */
export async function publicIncidentsOf(
  meta: MetaAccess,
  { components, sources, signals, since, now }: PageIncidentInputs,
): Promise<PublicIncident[]> {
  const componentIds = components.map((c) => c.id);
  // The sources that count now: an open incident of a paused monitor or a muted rule is left
  // off its components (as in their states) until the monitor resumes or the mute ends.
  const counting = new Set([
    ...[...signals.monitors.values()].flat().flatMap((m) => (m.active ? [m.id] : [])),
    ...[...signals.rules.values()].flat().flatMap((r) => (isMuted(r, now) ? [] : [r.id])),
  ]);
  // A source's own incidents show on the components that publish them (a setting, on by
  // default), in display order, so an incident lists its components as the page shows them.
  const componentsOfSource = new Map<string, string[]>();
  for (const c of components) {
    if (!c.publishIncidents) continue;
    const s = sources.get(c.id);
    for (const id of [...(s?.monitors ?? []), ...(s?.alertRules ?? [])].map((x) => x.id))
      componentsOfSource.set(id, [...(componentsOfSource.get(id) ?? []), c.id]);
  }
  const published = components.flatMap((c) => (c.publishIncidents ? [sources.get(c.id)] : []));
  const pageIncidents = await meta.repos.incidents.listForPage(
    {
      monitorIds: published.flatMap((s) => s?.monitors.map((m) => m.id) ?? []),
      ruleIds: published.flatMap((s) => s?.alertRules.map((r) => r.id) ?? []),
      componentIds,
    },
    since,
    MAX_RESOLVED_INCIDENTS,
  );
  // What each component's sources say now, for the impact of the incidents of those sources.
  const sourcesState = new Map(
    components.map((c) => [
      c.id,
      sourcesStateOf({
        monitors: signals.monitors.get(c.id) ?? [],
        rules: (signals.rules.get(c.id) ?? []).map((r) => ({
          firing: r.firing,
          muted: isMuted(r, now),
        })),
      }),
    ]),
  );
  const stateOf = new Map(components.map((c) => [c.id, c.state]));
  const [updates, links] = await Promise.all([
    publicUpdates(meta, pageIncidents),
    meta.repos.statusPageIncidentLinks.linksOfIncidents(pageIncidents.map((i) => i.id)),
  ]);
  const order = new Map(components.map((c, i) => [c.id, i]));
  /**
   * The components showing an incident as their source's own: those its source feeds, none while
   * it is open and the source does not count (a resolved one stays in their history).
   */
  const fedBy = (incident: IncidentRecord): string[] =>
    incident.sourceId && (incident.status !== "active" || counting.has(incident.sourceId))
      ? (componentsOfSource.get(incident.sourceId) ?? [])
      : [];
  /** The page's components an incident affects, in display order: fed by its source or linked. */
  const affected = (incident: IncidentRecord): string[] => {
    const ids = new Set([
      ...fedBy(incident),
      ...(links.get(incident.id) ?? []).filter((id) => order.has(id)),
    ]);
    return [...ids].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  };
  const names = new Map(components.map((c) => [c.id, c.name]));
  // An incident none of the page's components shows (its source's components do not publish
  // incidents, none is linked) is not on the page.
  const shown = pageIncidents.flatMap((i) => {
    const ids = affected(i);
    return ids.length === 0 ? [] : [{ incident: i, componentIds: ids }];
  });
  const publicIncidents = shown.map(({ incident: i, componentIds }): PublicIncident => {
    const fed = new Set(fedBy(i));
    // Sources are read as they are now: a resolved incident keeps its severity's impact.
    const on = (i.status === "active" ? componentIds : []).map(
      (id): AffectedComponent => ({
        sources: sourcesState.get(id) ?? "operational",
        ownSource: fed.has(id),
        inMaintenance: stateOf.get(id) === "maintenance",
      }),
    );
    return {
      id: i.id,
      title: publicTitle(i, componentIds, names),
      status: i.status,
      severity: i.severity,
      impact: incidentImpactOf(i.severity, on),
      startedAt: i.startedAt,
      resolvedAt: i.resolvedAt,
      componentIds,
      updates: updates.get(i.id) ?? [],
    };
  });
  return publicIncidents;
}

/** Each incident on every day it was open, for each of its components: by component, by day. */
export function incidentsByComponentDay(
  publicIncidents: readonly PublicIncident[],
  since: string,
  now: Date,
): Map<string, Map<string, HistoryDay["incidents"]>> {
  const incidentsByComponentDay = new Map<string, Map<string, HistoryDay["incidents"]>>();
  for (const incident of publicIncidents) {
    const end = incident.resolvedAt ? Date.parse(incident.resolvedAt) : now.getTime();
    // From the first shown day at the earliest: an incident open for a year walks 90 days.
    const start = Math.max(Date.parse(incident.startedAt), Date.parse(since));
    const days = splitByUtcDay(start, Math.max(end, start + 1));
    for (const componentId of incident.componentIds) {
      const byDay = incidentsByComponentDay.get(componentId) ?? new Map();
      incidentsByComponentDay.set(componentId, byDay);
      for (const { day } of days) {
        byDay.set(day, [
          ...(byDay.get(day) ?? []),
          { id: incident.id, title: incident.title, severity: incident.severity },
        ]);
      }
    }
  }
  return incidentsByComponentDay;
}
