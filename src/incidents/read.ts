import type { Ctx } from "../context.js";
import type { Page } from "../contracts/pagination.js";
import { NotFoundError } from "../lib/domain-errors.js";
import { bucketMs, bucketStarts, dashboardWindow, isoMs } from "../lib/list-params.js";
import type { TimeTruncation } from "../meta/repositories/incidents.js";
import { listIncidents } from "./manage.js";
import { INCIDENT_SEVERITIES, INCIDENT_SOURCES } from "./model.js";
import { sourceNames } from "./source-names.js";
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
  return toIncidentDetailView(
    incident,
    await repos.incidents.listEvents([incident.id]),
    await repos.statusPageIncidentLinks.linkedComponents(incident.id),
    await sourceNames(ctx.deps.meta, [incident]),
  );
}

const zeroes = <N extends readonly string[]>(names: N) =>
  Object.fromEntries(names.map((n) => [n, 0])) as Record<N[number], number>;

/** The coarsest ISO prefix every bucket step is a whole multiple of. */
const truncationFor = (stepMs: number): TimeTruncation =>
  stepMs % 86_400_000 === 0 ? "day" : stepMs % 3_600_000 === 0 ? "hour" : "minute";

/** An ISO prefix ("2026-11-25T13") back to the time it starts at. */
const prefixMs = (prefix: string) =>
  Date.parse(prefix + "1970-01-01T00:00:00.000Z".slice(prefix.length));

/**
 * GET /v1/incidents/dashboard: incidents started and resolved over the window (default 24h),
 * by severity and source, the mean time to resolve, and how many are open now. The store
 * aggregates (per minute, hour or day); the groups are folded into buckets and zero-filled here.
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
  const aggregates = await ctx.deps.meta.repos.incidents.aggregate(projectId, {
    from,
    to,
    truncate: truncationFor(step),
  });
  const bucketOf = (prefix: string) => Math.floor(prefixMs(prefix) / step) * step;
  const opened = new Map<number, number>();
  const closed = new Map<number, number>();
  const bySeverity = zeroes(INCIDENT_SEVERITIES);
  const bySource = zeroes(INCIDENT_SOURCES);
  for (const group of aggregates.opened) {
    const b = bucketOf(group.time);
    opened.set(b, (opened.get(b) ?? 0) + group.count);
    bySeverity[group.severity] += group.count;
    bySource[group.source] += group.count;
  }
  for (const group of aggregates.resolved) {
    const b = bucketOf(group.time);
    closed.set(b, (closed.get(b) ?? 0) + group.count);
  }
  const sum = (counts: Map<number, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
  return {
    from,
    to,
    bucketSeconds: step / 1000,
    opened: sum(opened),
    resolved: sum(closed),
    open: aggregates.open,
    meanTimeToResolveMs: aggregates.meanDurationMs,
    bySeverity,
    bySource,
    series: bucketStarts(window, step).map((t) => ({
      time: isoMs(t),
      opened: opened.get(t) ?? 0,
      resolved: closed.get(t) ?? 0,
    })),
  };
}
