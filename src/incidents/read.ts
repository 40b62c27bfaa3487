import type { Ctx } from "../context.js";
import { NotFoundError } from "../lib/errors.js";
import type { IncidentRecord } from "../meta/repositories/incidents.js";
import { bucketMs, bucketStarts, dashboardWindow, isoMs, type Page } from "../read/params.js";
import { listIncidents } from "./manage.js";
import { INCIDENT_SEVERITIES, INCIDENT_SOURCES } from "./model.js";
import {
  type IncidentDetailView,
  type IncidentsDashboard,
  type IncidentsDashboardQuery,
  type IncidentView,
  type ListIncidentsQuery,
  toIncidentDetailView,
} from "./views.js";

// The /v1 incident reads: the key's own project, from the metadata store (not the telemetry engine).

const projectOf = (ctx: Ctx): string => {
  if (ctx.actor.kind !== "api_key") throw new NotFoundError("Project", "(none)");
  return ctx.actor.projectId;
};

/** GET /v1/incidents: the key's project's incidents, newest first unless sorted otherwise. */
export async function readIncidents(
  ctx: Ctx,
  query: ListIncidentsQuery,
): Promise<Page<IncidentView>> {
  return listIncidents({ ctx, projectId: projectOf(ctx), query });
}

/** GET /v1/incidents/:incidentId: its timeline and public updates; another project's id is a 404. */
export async function readIncident(ctx: Ctx, incidentId: string): Promise<IncidentDetailView> {
  const { repos } = ctx.deps.meta;
  const incident = await repos.incidents.findById(incidentId);
  if (!incident || incident.projectId !== projectOf(ctx))
    throw new NotFoundError("Incident", incidentId);
  return toIncidentDetailView(incident, await repos.incidents.listEvents([incident.id]));
}

const zeroes = <N extends readonly string[]>(names: N) =>
  Object.fromEntries(names.map((n) => [n, 0])) as Record<N[number], number>;

/**
 * GET /v1/incidents/dashboard: incidents started and resolved over the window (default 24h),
 * by severity and source, the mean time to resolve, and how many are open now.
 */
export async function incidentsDashboard(
  ctx: Ctx,
  query: IncidentsDashboardQuery,
): Promise<IncidentsDashboard> {
  const projectId = projectOf(ctx);
  const window = dashboardWindow(query, ctx.deps.clock.now().getTime());
  const step = bucketMs(window);
  const from = isoMs(window.fromMs);
  const to = isoMs(window.toMs);
  const { incidents } = ctx.deps.meta.repos;
  // Incidents are few per window: the ones open during it are read and counted here.
  const [touching, open] = await Promise.all([
    incidents.listAll({ projectId, from, to }),
    incidents.count({ projectId, status: "active" }),
  ]);
  const inWindow = (at: string | null): at is string => at !== null && at >= from && at < to;
  const bucketOf = (at: string) => Math.floor(Date.parse(at) / step) * step;
  const opened = new Map<number, number>();
  const closed = new Map<number, number>();
  const bySeverity = zeroes(INCIDENT_SEVERITIES);
  const bySource = zeroes(INCIDENT_SOURCES);
  const resolvedIn: IncidentRecord[] = [];
  for (const incident of touching) {
    if (inWindow(incident.startedAt)) {
      const b = bucketOf(incident.startedAt);
      opened.set(b, (opened.get(b) ?? 0) + 1);
      bySeverity[incident.severity] += 1;
      bySource[incident.source] += 1;
    }
    if (incident.status === "resolved" && inWindow(incident.resolvedAt)) {
      const b = bucketOf(incident.resolvedAt);
      closed.set(b, (closed.get(b) ?? 0) + 1);
      resolvedIn.push(incident);
    }
  }
  const totalMs = resolvedIn.reduce((sum, i) => sum + (i.durationMs ?? 0), 0);
  return {
    from,
    to,
    bucketSeconds: step / 1000,
    opened: [...opened.values()].reduce((a, b) => a + b, 0),
    resolved: resolvedIn.length,
    open,
    mttrMs: resolvedIn.length > 0 ? Math.round(totalMs / resolvedIn.length) : null,
    bySeverity,
    bySource,
    series: bucketStarts(window, step).map((t) => ({
      time: isoMs(t),
      opened: opened.get(t) ?? 0,
      resolved: closed.get(t) ?? 0,
    })),
  };
}
