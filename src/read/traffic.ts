import { z } from "zod";
import { bucketMs, bucketStarts, dashboardWindow, isoMs, WindowQuery } from "../lib/list-params.js";
import type { ReadDeps } from "./read-deps.js";
import { mergedSessions } from "./sessions.js";
import { num, Sql } from "./sql.js";

export const TrafficQuery = WindowQuery.strict();
export type TrafficQuery = z.infer<typeof TrafficQuery>;

/** Entries per breakdown; the rest are left out (shares then sum to less than 1). */
export const BREAKDOWN_LIMIT = 20;
/** The label of sessions whose browser, OS, device or country is not known. */
export const UNKNOWN = "unknown";
/** The label of sessions without a referrer. */
export const DIRECT = "direct";

const Share = (of: string) =>
  z.object({
    name: z.string(),
    sessions: z.number().int(),
    share: z.number().describe(`sessions / totals.sessions (${of})`),
  });
const Breakdown = (of: string) =>
  z.array(Share(of)).describe(`Most sessions first, then by name; at most ${BREAKDOWN_LIMIT}`);

export const Traffic = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    totals: z.object({
      sessions: z.number().int().describe("Sessions overlapping the window"),
      uniqueUsers: z
        .number()
        .int()
        .describe("Distinct user.id among them (sessions without one are not counted)"),
      sessionsWithErrors: z.number().int(),
      avgDurationMs: z.number().describe("Mean of lastSeen − startedAt; 0 without sessions"),
      uniquePageViews: z
        .number()
        .int()
        .describe("Distinct pages per session, summed: each page counts once per session"),
      bounceRate: z
        .number()
        .nullable()
        .describe(
          "Share of sessions with a known page that saw exactly one distinct page; null when none has a page",
        ),
    }),
    browsers: Breakdown(`'${UNKNOWN}' when no user agent was sent`),
    operatingSystems: Breakdown(`'${UNKNOWN}' when not known`),
    devices: Breakdown(`desktop, mobile, tablet, tv, bot or '${UNKNOWN}'`),
    countries: Breakdown(`ISO 3166-1 alpha-2, '${UNKNOWN}' when not known`),
    referrers: Breakdown(`the referrer's host; '${DIRECT}' without a referrer`),
    entryPages: Breakdown("sessions without a page are not listed"),
    topPages: Breakdown(
      "sessions that visited the page; a session counts once for each page it visited",
    ),
    series: z
      .array(
        z.object({
          time: z.string(),
          activeSessions: z.number().int().describe("Sessions overlapping the bucket"),
          startedSessions: z
            .number()
            .int()
            .describe("Sessions that began in the bucket (and the window)"),
        }),
      )
      .describe("Every bucket of the window, zeros included"),
  })
  .meta({ id: "Traffic" });
export type Traffic = z.infer<typeof Traffic>;

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
export async function trafficReport(
  deps: ReadDeps,
  projectId: string,
  query: TrafficQuery,
): Promise<Traffic> {
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
