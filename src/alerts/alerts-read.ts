import { z } from "zod";
import type { Ctx } from "../context.js";
import {
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  type AlertSeverity,
} from "../contracts/alert-catalog.js";
import {
  ALERTS_DASHBOARD_TOP,
  type AlertDetail,
  type AlertSummary,
  type AlertsDashboard,
} from "../contracts/alert-reads.js";
import { type Page, pageInfo } from "../contracts/pagination.js";
import { NotFoundError } from "../lib/domain-errors.js";
import {
  bucketMs,
  bucketStarts,
  dashboardWindow,
  isoMs,
  listQuery,
  resolveWindow,
  WindowQuery,
} from "../lib/list-params.js";
import { ALERT_RULE_SORTS } from "../meta/repositories/alert-rules.js";
import { requireProject } from "../projects/projects.js";
import { toEventView, toRuleView, toSeriesView } from "./alert-views.js";

// The /v1/alerts reads: a project's rules seen as alerts, one alert, and the dashboard (the
// views are contracts/alert-reads.ts).

const RECENT_EVENTS = 5;
const DETAIL_EVENTS = 20;

export const AlertIdParam = z.string().min(1).max(64).describe("The alert rule's id (alr_…)");

export const ListAlertsQuery = listQuery(ALERT_RULE_SORTS, {
  status: z
    .enum(ALERT_STATUSES)
    .optional()
    .describe("muted: a mute holds; active: a series is firing; resolved: none is"),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  failing: z
    .enum(["true", "false"])
    .optional()
    .describe(
      "`true`: only rules whose evaluations fail (see `failing`), whatever their status; `false`: only those that work",
    ),
});
export type ListAlertsQuery = z.infer<typeof ListAlertsQuery>;

const readCtx = async (ctx: Ctx, projectId: string) => {
  await requireProject({ ctx, projectId, access: "read" });
  return { repos: ctx.deps.meta.repos, now: ctx.deps.clock.now() };
};

/** GET /v1/alerts: the project's rules as alerts, by status, with their recent fires and resolves. */
export async function listAlerts({
  ctx,
  projectId,
  query,
}: {
  ctx: Ctx;
  projectId: string;
  query: ListAlertsQuery;
}): Promise<Page<AlertSummary>> {
  const { repos, now } = await readCtx(ctx, projectId);
  const window = resolveWindow(query, now.getTime());
  const filter = {
    projectId,
    status: query.status,
    severity: query.severity,
    failing: query.failing === undefined ? undefined : query.failing === "true",
    now: now.toISOString(),
    activeIn: window && { from: isoMs(window.fromMs), to: isoMs(window.toMs) },
  };
  const [rules, total] = await Promise.all([
    repos.alertRules.list(filter, {
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
      sort: query.sort_by,
      order: query.sort_order,
    }),
    repos.alertRules.count(filter),
  ]);
  const series = await repos.alertSeries.listForRules(rules.map((r) => r.id));
  const events = await repos.alertEvents.listRecent(
    rules.map((r) => r.id),
    {
      perRule: RECENT_EVENTS,
      kinds: ["fired", "resolved"],
      activeIn: filter.activeIn,
    },
  );
  const data = rules.map((rule) => ({
    ...toRuleView(rule, series.get(rule.id) ?? [], now),
    recentEvents: (events.get(rule.id) ?? []).map(toEventView),
  }));
  return { data, pagination: pageInfo(query, total) };
}

/** GET /v1/alerts/:alertId: the rule and its configuration, series states and last evaluation. */
export async function getAlert({
  ctx,
  projectId,
  alertId,
}: {
  ctx: Ctx;
  projectId: string;
  alertId: string;
}): Promise<AlertDetail> {
  const { repos, now } = await readCtx(ctx, projectId);
  const rule = await repos.alertRules.findById(alertId);
  if (!rule || rule.projectId !== projectId) throw new NotFoundError("Alert", alertId);
  const [series, events, channels] = await Promise.all([
    repos.alertSeries.list(rule.id),
    repos.alertEvents.list({ ruleId: rule.id }, { limit: DETAIL_EVENTS, offset: 0 }),
    repos.notificationChannels.listByProject(projectId),
  ]);
  return {
    ...toRuleView(rule, series, now),
    channels: channels
      .filter((c) => rule.channelIds.includes(c.id))
      .map((c) => ({ id: c.id, name: c.name, type: c.type })),
    series: series.map(toSeriesView),
    recentEvents: events.map(toEventView),
  };
}

export const AlertsDashboardQuery = z.object(WindowQuery.shape).strict();
export type AlertsDashboardQuery = z.infer<typeof AlertsDashboardQuery>;

/** GET /v1/alerts/dashboard: fires over time, by severity, noisiest rules, MTTR, firing now. */
export async function alertsDashboard({
  ctx,
  projectId,
  query,
}: {
  ctx: Ctx;
  projectId: string;
  query: AlertsDashboardQuery;
}): Promise<AlertsDashboard> {
  const { repos, now } = await readCtx(ctx, projectId);
  const window = dashboardWindow(query, now.getTime());
  const step = bucketMs(window);
  const from = isoMs(window.fromMs);
  const to = isoMs(window.toMs);
  const nowIso = now.toISOString();
  const [stats, firingNow, total, active, muted, failing] = await Promise.all([
    repos.alertEvents.transitionStats(projectId, {
      from,
      to,
      stepMs: step,
      top: ALERTS_DASHBOARD_TOP,
    }),
    repos.alertSeries.countFiring(projectId),
    repos.alertRules.count({ projectId, now: nowIso }),
    repos.alertRules.count({ projectId, now: nowIso, status: "active" }),
    repos.alertRules.count({ projectId, now: nowIso, status: "muted" }),
    repos.alertRules.count({ projectId, now: nowIso, failing: true }),
  ]);
  const buckets = new Map(stats.buckets.map((b) => [b.startMs, b]));
  const bySeverity = Object.fromEntries(ALERT_SEVERITIES.map((s) => [s, 0])) as Record<
    AlertSeverity,
    number
  >;
  for (const row of stats.firesBySeverity)
    if (Object.hasOwn(bySeverity, row.severity)) bySeverity[row.severity] += row.fires;
  const fires = stats.firesBySeverity.reduce((sum, row) => sum + row.fires, 0);
  const resolves = stats.buckets.reduce((sum, b) => sum + b.resolves, 0);
  return {
    from,
    to,
    bucketSeconds: step / 1000,
    fires,
    resolves,
    firingNow,
    rules: { total, active, muted, failing },
    meanTimeToResolveMs: stats.meanTimeToResolveMs,
    series: bucketStarts(window, step).map((t) => ({
      time: isoMs(t),
      fires: buckets.get(t)?.fires ?? 0,
      resolves: buckets.get(t)?.resolves ?? 0,
    })),
    firesBySeverity: bySeverity,
    topRules: stats.topRules.map((r) => ({
      id: r.ruleId,
      name: r.name,
      severity: r.severity,
      fires: r.fires,
    })),
  };
}
