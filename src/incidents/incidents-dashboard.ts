import { z } from "zod";
import type { Ctx } from "../context.js";
import { INCIDENT_SEVERITIES, INCIDENT_SOURCES } from "../contracts/incident-catalog.js";
import type { IncidentsDashboard } from "../contracts/incidents.js";
import { bucketMs, bucketStarts, dashboardWindow, isoMs, WindowQuery } from "../lib/list-params.js";
import type { TimeTruncation } from "../meta/repositories/incidents.js";
import { requireProject } from "../projects/projects.js";

export const IncidentsDashboardQuery = z.object(WindowQuery.shape).strict();
export type IncidentsDashboardQuery = z.infer<typeof IncidentsDashboardQuery>;

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
export async function incidentsDashboard({
  ctx,
  projectId,
  query,
}: {
  ctx: Ctx;
  projectId: string;
  query: IncidentsDashboardQuery;
}): Promise<IncidentsDashboard> {
  await requireProject({ ctx, projectId, access: "read" });
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
