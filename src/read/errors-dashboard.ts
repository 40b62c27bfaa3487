import { z } from "zod";
import { ERROR_SEVERITIES, type ErrorsDashboard } from "../contracts/error-groups.js";
import { bucketMs, bucketStarts, dashboardWindow, isoMs, WindowQuery } from "../lib/list-params.js";
import { GROUP_COLUMNS, type GroupRow, overlaps, toSummary } from "./error-groups.js";
import { occurrencesOf } from "./occurrences.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql, whereClause } from "./sql.js";

export const ErrorsDashboardQuery = z.object(WindowQuery.shape).strict();
export type ErrorsDashboardQuery = z.infer<typeof ErrorsDashboardQuery>;

const TOP = 10;

/** Error statistics over a window (default 24h) plus the current state of every group. */
export async function errorsDashboard({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & ErrorsDashboardQuery): Promise<ErrorsDashboard> {
  const deps = ctx.deps.read;
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const step = bucketMs(window);
  const sql = new Sql(deps.telemetry, projectId);
  const occurrences = sql.table("error_occurrences");
  const groups = `${sql.table("error_groups")} FINAL`;
  const inWindow = whereClause(sql, sql.within("timestamp", window));
  // One pass over the groups gives the current states and the window's seen and new groups.
  const seen = overlaps(sql, window).join(" AND ");
  const created = `${seen} AND first_seen >= fromUnixTimestamp64Milli(${sql.bind(window.fromMs)}, 'UTC')`;
  const inWindowOnce = occurrencesOf(occurrences, inWindow);
  const [buckets, services, states, top] = await Promise.all([
    sql.query<{ bucket: string; count: string }>(
      `SELECT ${sql.bucket("at", step)} AS bucket, count() AS count
       FROM ${inWindowOnce} GROUP BY bucket`,
    ),
    sql.query<{ service: string; count: string }>(
      `SELECT service, count() AS count FROM ${inWindowOnce}
       GROUP BY service ORDER BY count DESC, service LIMIT ${TOP}`,
    ),
    sql.query<{ status: string; severity: string; count: string; seen: string; created: string }>(
      `SELECT status, severity, count() AS count, countIf(${seen}) AS seen, countIf(${created}) AS created
       FROM ${groups} ${whereClause(sql, [])} GROUP BY status, severity`,
    ),
    sql.query<GroupRow>(
      `SELECT ${GROUP_COLUMNS}, o.count AS in_window FROM ${groups}
       INNER JOIN (SELECT fingerprint, count() AS count FROM ${inWindowOnce}
                   GROUP BY fingerprint ORDER BY count DESC, fingerprint LIMIT ${TOP}) AS o USING fingerprint
       ${whereClause(sql, [])} ORDER BY in_window DESC, fingerprint`,
    ),
  ]);
  const counts = new Map(buckets.map((b) => [num(b.bucket), num(b.count)]));
  const activeBySeverity = Object.fromEntries(ERROR_SEVERITIES.map((s) => [s, 0])) as Record<
    (typeof ERROR_SEVERITIES)[number],
    number
  >;
  let active = 0;
  let resolved = 0;
  let groupsSeen = 0;
  let newGroups = 0;
  for (const row of states) {
    const count = num(row.count);
    groupsSeen += num(row.seen);
    newGroups += num(row.created);
    if (row.status === "resolved") resolved += count;
    else {
      active += count;
      const severity = row.severity as (typeof ERROR_SEVERITIES)[number];
      if (severity in activeBySeverity) activeBySeverity[severity] += count;
    }
  }
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    occurrences: [...counts.values()].reduce((a, b) => a + b, 0),
    groupsSeen,
    newGroups,
    active,
    resolved,
    activeBySeverity,
    series: bucketStarts(window, step).map((t) => ({
      time: isoMs(t),
      occurrences: counts.get(t) ?? 0,
    })),
    byService: services.map((s) => ({ service: s.service, occurrences: num(s.count) })),
    topErrors: top.map((row) => ({ ...toSummary(row), occurrencesInWindow: num(row.in_window) })),
  };
}
