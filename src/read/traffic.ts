import type { z } from "zod";
import {
  BREAKDOWN_LIMIT,
  DIRECT,
  type Share,
  type Traffic,
  UNKNOWN,
} from "../contracts/browser-sessions.js";
import { bucketMs, bucketStarts, dashboardWindow, isoMs, WindowQuery } from "../lib/list-params.js";
import { mergedSessions } from "./browser-sessions.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql } from "./sql.js";

export const TrafficQuery = WindowQuery.strict();
export type TrafficQuery = z.infer<typeof TrafficQuery>;

type ShareRow = z.infer<ReturnType<typeof Share>>;
const DIMENSIONS = {
  browser: "browsers",
  os: "operatingSystems",
  device: "devices",
  country: "countries",
  referrer: "referrers",
  entry_page: "entryPages",
  page: "topPages",
} as const;
type Dimension = keyof typeof DIMENSIONS;

const known = (column: string) => `if(${column} = '', '${UNKNOWN}', ${column})`;
/** The host of a referrer URL (or of a bare host); text that has no host is kept as sent. */
const REFERRER_HOST = `if(ref = '', '${DIRECT}', if(domain(ref) = '', left(ref, 256), domain(ref)))`;

/** Where a project's traffic came from: sessions overlapping the window (default: the last 24h). */
export async function trafficReport({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & TrafficQuery): Promise<Traffic> {
  const deps = ctx.deps.read;
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const step = bucketMs(window);
  const sql = new Sql(deps.telemetry, projectId);
  const sessions = mergedSessions(sql, window);
  const from = sql.bind(window.fromMs);
  const last = sql.bind(window.toMs - 1);
  const stepParam = sql.bind(step);
  const [[totals], breakdowns, buckets] = await Promise.all([
    sql.query<Record<string, unknown>>(
      `SELECT count() AS sessions, uniqExactIf(uid, uid != '') AS users,
              countIf(errors > 0) AS with_errors, avg(duration_ms) AS avg_duration,
              sum(length(page_list)) AS page_views, countIf(length(page_list) > 0) AS with_pages,
              countIf(length(page_list) = 1) AS single_page
       FROM (${sessions})`,
    ),
    // Each session contributes one (dimension, value) pair per breakdown, and one per page.
    sql.query<{ dim: Dimension; name: string; n: string }>(
      `SELECT pair.1 AS dim, pair.2 AS name, count() AS n
       FROM (${sessions})
       ARRAY JOIN arrayConcat(
         [('browser', ${known("browser_name")}), ('os', ${known("os_name")}),
          ('device', ${known("device_type")}), ('country', ${known("country_code")}),
          ('referrer', ${REFERRER_HOST})],
         if(entry = '', [], [('entry_page', entry)]),
         arrayMap(p -> ('page', p), page_list)) AS pair
       GROUP BY dim, name ORDER BY dim, n DESC, name LIMIT ${BREAKDOWN_LIMIT} BY dim`,
    ),
    // A session is active in every bucket from its (clipped) start to its (clipped) last item.
    sql.query<{ bucket: string; active: string; started: string }>(
      `SELECT bucket, count() AS active,
              countIf(start_ms >= ${from} AND start_ms >= bucket AND start_ms < bucket + ${stepParam}) AS started
       FROM (${sessions})
       ARRAY JOIN range(intDiv(greatest(start_ms, ${from}), ${stepParam}) * ${stepParam},
                        intDiv(least(last_ms, ${last}), ${stepParam}) * ${stepParam} + 1,
                        ${stepParam}) AS bucket
       GROUP BY bucket`,
    ),
  ]);
  const count = num(totals?.sessions);
  const share = (n: number) => (count === 0 ? 0 : n / count);
  const lists = Object.fromEntries(
    Object.values(DIMENSIONS).map((key) => [key, [] as ShareRow[]]),
  ) as Record<(typeof DIMENSIONS)[Dimension], ShareRow[]>;
  for (const row of breakdowns) {
    const n = num(row.n);
    lists[DIMENSIONS[row.dim]]?.push({ name: row.name, sessions: n, share: share(n) });
  }
  const series = new Map(
    bucketStarts(window, step).map((t) => [t, { activeSessions: 0, startedSessions: 0 }]),
  );
  for (const row of buckets) {
    const point = series.get(num(row.bucket));
    if (point) {
      point.activeSessions = num(row.active);
      point.startedSessions = num(row.started);
    }
  }
  const withPages = num(totals?.with_pages);
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    totals: {
      sessions: count,
      uniqueUsers: num(totals?.users),
      sessionsWithErrors: num(totals?.with_errors),
      avgDurationMs: count === 0 ? 0 : num(totals?.avg_duration),
      uniquePageViews: num(totals?.page_views),
      bounceRate: withPages === 0 ? null : num(totals?.single_page) / withPages,
    },
    ...lists,
    series: [...series].map(([time, point]) => ({ time: isoMs(time), ...point })),
  };
}
