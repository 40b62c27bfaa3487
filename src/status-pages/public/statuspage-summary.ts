import { z } from "zod";
import type {
  PublicComponent,
  PublicIncident,
  PublicMaintenance,
  StatusPageData,
} from "../../contracts/status-page-data.js";
import type { ComponentState } from "../../contracts/status-pages.js";
import { incidentAnchor } from "./html.js";

// Atlassian Statuspage's public `/api/v2/summary.json`, built from our payload so that
// tools written for Statuspage (dashboards, chat bots, aggregators) read Vigil pages as is.
// Field names and enums follow Statuspage; what we do not track is null.

export const SpComponentStatus = z.enum([
  "operational",
  "degraded_performance",
  "partial_outage",
  "major_outage",
  "under_maintenance",
]);
export type SpComponentStatus = z.infer<typeof SpComponentStatus>;

export const SpComponent = z.object({
  id: z.string(),
  name: z.string(),
  status: SpComponentStatus,
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  /** 1-based, per level: top-level entries, then within each group. */
  position: z.number().int(),
  description: z.string().nullable(),
  showcase: z.boolean(),
  start_date: z.string().nullable(),
  group_id: z.string().nullable(),
  page_id: z.string(),
  group: z.boolean(),
  only_show_if_degraded: z.boolean(),
  /** Only on groups: ids of their components. */
  components: z.array(z.string()).optional(),
});
export type SpComponent = z.infer<typeof SpComponent>;

export const SpIncidentUpdate = z.object({
  id: z.string(),
  status: z.string(),
  body: z.string(),
  incident_id: z.string(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  display_at: z.string().nullable(),
  affected_components: z.null(),
  deliver_notifications: z.boolean(),
  custom_tweet: z.null(),
  tweet_id: z.null(),
});

const incidentBase = {
  id: z.string(),
  name: z.string(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  monitoring_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  shortlink: z.string(),
  started_at: z.string(),
  page_id: z.string(),
  incident_updates: z.array(SpIncidentUpdate),
  components: z.array(SpComponent),
};

export const SpIncident = z.object({
  ...incidentBase,
  status: z.enum(["investigating", "identified", "monitoring", "resolved", "postmortem"]),
  impact: z.enum(["none", "minor", "major", "critical"]),
});
export type SpIncident = z.infer<typeof SpIncident>;

export const SpScheduledMaintenance = z.object({
  ...incidentBase,
  status: z.enum(["scheduled", "in_progress", "verifying", "completed"]),
  impact: z.literal("maintenance"),
  scheduled_for: z.string(),
  scheduled_until: z.string(),
});
export type SpScheduledMaintenance = z.infer<typeof SpScheduledMaintenance>;

/** Statuspage's page indicator; `critical` is its word for a component in major outage. */
export const SpIndicator = z.enum(["none", "minor", "major", "critical", "maintenance"]);
export type SpIndicator = z.infer<typeof SpIndicator>;

/** The whole `summary.json` document. */
export const StatuspageSummary = z.object({
  page: z.object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    time_zone: z.string(),
    updated_at: z.string(),
  }),
  status: z.object({ indicator: SpIndicator, description: z.string() }),
  components: z.array(SpComponent),
  incidents: z.array(SpIncident),
  scheduled_maintenances: z.array(SpScheduledMaintenance),
});
export type StatuspageSummary = z.infer<typeof StatuspageSummary>;

/** Our component states in Statuspage's words (we have no "partial_outage"). */
export const SP_COMPONENT_STATUS: Record<ComponentState, SpComponentStatus> = {
  operational: "operational",
  degraded: "degraded_performance",
  down: "major_outage",
  maintenance: "under_maintenance",
};

// Statuspage derives the indicator from the worst component: degraded_performance → minor,
// partial_outage → major, major_outage → critical; maintenance only when nothing is worse.
const INDICATOR_DESCRIPTION: Record<SpIndicator, string> = {
  none: "All Systems Operational",
  minor: "Partially Degraded Service",
  major: "Partial System Outage",
  critical: "Major Service Outage",
  maintenance: "Service Under Maintenance",
};

const pageIndicator = (data: StatusPageData): SpIndicator => {
  if (data.page.status === "down") return "critical";
  if (data.page.status === "degraded") return "minor";
  const maintenance =
    data.services.some((c) => c.status === "maintenance") ||
    data.maintenance.some((m) => m.phase === "in_progress");
  return maintenance ? "maintenance" : "none";
};

// An incident's impact as the page's indicator words the same state (state-rule.ts' impact), so an
// incident never says more or less than the page: degraded is minor, down is critical.
const IMPACT: Record<PublicIncident["impact"], SpIncident["impact"]> = {
  degraded: "minor",
  down: "critical",
};

const nullIfEmpty = (s: string): string | null => (s === "" ? null : s);

/** Statuspage's component list: groups are components with `group: true`. */
const toComponents = (data: StatusPageData): SpComponent[] => {
  const pageId = data.page.id;
  const groups = new Map(data.groups.map((g) => [g.id, g]));
  const member = (c: PublicComponent, position: number): SpComponent => ({
    id: c.id,
    name: c.name,
    status: SP_COMPONENT_STATUS[c.status],
    created_at: null,
    updated_at: null,
    position,
    description: nullIfEmpty(c.description),
    showcase: true,
    start_date: null,
    group_id: c.groupId !== null && groups.has(c.groupId) ? c.groupId : null,
    page_id: pageId,
    group: false,
    only_show_if_degraded: false,
  });
  const out: SpComponent[] = [];
  const emitted = new Set<string>();
  let top = 0;
  for (const c of data.services) {
    const group = c.groupId === null ? undefined : groups.get(c.groupId);
    if (group === undefined) {
      out.push(member(c, ++top));
      continue;
    }
    if (emitted.has(group.id)) continue;
    emitted.add(group.id);
    const members = data.services.filter((m) => m.groupId === group.id);
    out.push({
      id: group.id,
      name: group.name,
      status: SP_COMPONENT_STATUS[group.status],
      created_at: null,
      updated_at: null,
      position: ++top,
      description: null,
      showcase: false,
      start_date: null,
      group_id: null,
      page_id: pageId,
      group: true,
      only_show_if_degraded: false,
      components: members.map((m) => m.id),
    });
    members.forEach((m, i) => {
      out.push(member(m, i + 1));
    });
  }
  return out;
};

const incidentStatus = (incident: PublicIncident): SpIncident["status"] => {
  if (incident.status === "resolved") return "resolved";
  const last = incident.updates.findLast((u) => u.phase !== null)?.phase ?? "investigating";
  // An open incident whose last update said "resolved" is not closed yet: monitoring is closest.
  return last === "resolved" ? "monitoring" : last;
};

/** Each update's status: its phase, else the phase in force when it was posted. */
const updateStatuses = (updates: PublicIncident["updates"]): string[] => {
  let current = "investigating";
  return updates.map((u) => {
    current = u.phase ?? current;
    return current;
  });
};

const toIncident = (
  incident: PublicIncident,
  data: StatusPageData,
  components: Map<string, SpComponent>,
  pageUrl: string,
): SpIncident => {
  const statuses = updateStatuses(incident.updates);
  return {
    id: incident.id,
    name: incident.title,
    status: incidentStatus(incident),
    created_at: incident.startedAt,
    updated_at: incident.updates.at(-1)?.at ?? incident.resolvedAt ?? incident.startedAt,
    monitoring_at: incident.updates.find((u) => u.phase === "monitoring")?.at ?? null,
    resolved_at: incident.resolvedAt,
    impact: IMPACT[incident.impact],
    shortlink: `${pageUrl}#${incidentAnchor(incident.id)}`,
    started_at: incident.startedAt,
    page_id: data.page.id,
    // Statuspage lists updates newest first.
    incident_updates: incident.updates
      .map((u, i) => ({
        id: u.id,
        status: statuses[i] ?? "investigating",
        body: u.message,
        incident_id: incident.id,
        created_at: u.at,
        updated_at: u.at,
        display_at: u.at,
        affected_components: null,
        deliver_notifications: false,
        custom_tweet: null,
        tweet_id: null,
      }))
      .reverse(),
    components: incident.componentIds.flatMap((id) => components.get(id) ?? []),
  };
};

const toMaintenance = (
  m: PublicMaintenance,
  data: StatusPageData,
  components: Map<string, SpComponent>,
  pageUrl: string,
): SpScheduledMaintenance => ({
  id: m.id,
  name: m.title,
  status: m.phase,
  created_at: null,
  updated_at: null,
  monitoring_at: null,
  resolved_at: m.phase === "completed" ? m.endsAt : null,
  impact: "maintenance",
  shortlink: `${pageUrl}#maintenance-${m.id}`,
  started_at: m.startsAt,
  page_id: data.page.id,
  incident_updates: m.message
    ? [
        {
          id: `${m.id}-message`,
          status: m.phase,
          body: m.message,
          incident_id: m.id,
          created_at: null,
          updated_at: null,
          display_at: m.startsAt,
          affected_components: null,
          deliver_notifications: false,
          custom_tweet: null,
          tweet_id: null,
        },
      ]
    : [],
  components: m.componentIds.flatMap((id) => components.get(id) ?? []),
  scheduled_for: m.startsAt,
  scheduled_until: m.endsAt,
});

/** The page as Statuspage's `summary.json`; `pageUrl` is the absolute URL of the HTML page. */
export const toStatuspageSummary = (data: StatusPageData, pageUrl: string): StatuspageSummary => {
  const indicator = pageIndicator(data);
  const components = toComponents(data);
  const byId = new Map(components.filter((c) => !c.group).map((c) => [c.id, c]));
  const unresolved = new Map<string, PublicIncident>();
  for (const i of [...data.activeIncidents, ...data.incidents])
    if (i.status === "active" && !unresolved.has(i.id)) unresolved.set(i.id, i);
  return {
    page: {
      id: data.page.id,
      name: data.page.title,
      url: pageUrl,
      time_zone: data.page.timezone,
      updated_at: data.page.updatedAt,
    },
    status: { indicator, description: INDICATOR_DESCRIPTION[indicator] },
    components,
    incidents: [...unresolved.values()].map((i) => toIncident(i, data, byId, pageUrl)),
    scheduled_maintenances: data.maintenance
      .filter((m) => m.phase !== "completed")
      .map((m) => toMaintenance(m, data, byId, pageUrl)),
  };
};
