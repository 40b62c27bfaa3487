import { z } from "zod";
import type { Ctx } from "../context.js";
import { type Page, pageInfo } from "../contracts/pagination.js";
import { NotFoundError } from "../lib/domain-errors.js";
import {
  bucketMs,
  bucketStarts,
  countsOf,
  dashboardWindow,
  isoMs,
  listQuery,
  resolveWindow,
  WindowQuery,
} from "../lib/list-params.js";
import { ALERT_RULE_SORTS } from "../meta/repositories/alert-rules.js";
import { requireProject } from "../projects/projects.js";
import { ALERT_SEVERITIES, type AlertSeverity } from "./definition.js";
import {
  ALERT_STATUSES,
  AlertEventView,
  AlertRuleView,
  SeriesStateView,
  toEventView,
  toRuleView,
  toSeriesView,
} from "./views.js";

const RECENT_EVENTS = 5;
const DETAIL_EVENTS = 20;
const TOP = 10;

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

const RecentEvents = z
  .array(AlertEventView)
  .describe(
    "The latest fire and resolve events, newest first. With a window: those in it, and the fire that began a series' firing still going when the window began",
  );

/** An alert as /v1/alerts lists it: the rule, its state and thresholds, recent fires/resolves. */
export const AlertSummary = AlertRuleView.extend({ recentEvents: RecentEvents }).meta({
  id: "AlertSummary",
});
export type AlertSummary = z.infer<typeof AlertSummary>;

export const AlertDetail = AlertRuleView.extend({
  channels: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })),
  series: z.array(SeriesStateView).describe("Every series the rule tracks and its state"),
  recentEvents: z.array(AlertEventView).describe("The latest events of every kind, newest first"),
}).meta({ id: "AlertDetail" });
export type AlertDetail = z.infer<typeof AlertDetail>;

const readCtx = async (ctx: Ctx, projectId: string) => {
  await requireProject(ctx, projectId, "read");
  return { repos: ctx.deps.meta.repos, now: ctx.deps.clock.now() };
};

/** GET /v1/alerts: the project's rules as alerts, by status, with their recent fires and resolves. */
export async function listAlerts(
  ctx: Ctx,
  projectId: string,
  query: ListAlertsQuery,
): Promise<Page<AlertSummary>> {
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
export async function getAlert(ctx: Ctx, projectId: string, alertId: string): Promise<AlertDetail> {
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

export const AlertsDashboard = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    fires: z.number().int().describe("Series that fired in the window"),
    resolves: z.number().int().describe("Series that resolved in the window"),
    firingNow: z.number().int().describe("Series firing now"),
    rules: z
      .object({
        total: z.number().int(),
        active: z.number().int(),
        muted: z.number().int(),
        failing: z.number().int(),
      })
      .describe(
        "Rules now: all, active (a series firing, not muted), muted, and failing (their evaluations fail, whatever their status)",
      ),
    meanTimeToResolveMs: z
      .number()
      .int()
      .nullable()
      .describe("Mean time from fire to resolve of the resolves in the window; null if none"),
    series: z
      .array(z.object({ time: z.string(), fires: z.number().int(), resolves: z.number().int() }))
      .describe("Every bucket of the window, zero-filled"),
    firesBySeverity: countsOf(ALERT_SEVERITIES),
    topRules: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          severity: z.enum(ALERT_SEVERITIES),
          fires: z.number().int(),
        }),
      )
      .describe(`The ${TOP} rules that fired most in the window`),
  })
  .meta({ id: "AlertsDashboard" });
export type AlertsDashboard = z.infer<typeof AlertsDashboard>;

/** GET /v1/alerts/dashboard: fires over time, by severity, noisiest rules, MTTR, firing now. */
export async function alertsDashboard(
  ctx: Ctx,
  projectId: string,
  query: AlertsDashboardQuery,
): Promise<AlertsDashboard> {
  const { repos, now } = await readCtx(ctx, projectId);
  const window = dashboardWindow(query, now.getTime());
  const step = bucketMs(window);
  const from = isoMs(window.fromMs);
  const to = isoMs(window.toMs);
  const nowIso = now.toISOString();
  const [stats, firingNow, total, active, muted, failing] = await Promise.all([
    repos.alertEvents.transitionStats(projectId, { from, to, stepMs: step, top: TOP }),
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
