import { z } from "zod";
import {
  type HttpMetrics,
  MAX_HTTP_BUCKETS,
  RESOLUTIONS,
  type Resolution,
  TOP_ROUTES,
} from "../contracts/http-metrics.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import {
  bucketStarts,
  dashboardWindow,
  isoMs,
  TimeRange,
  type TimeWindow,
  WindowQuery,
} from "../lib/list-params.js";
import { HTTP_DURATION_BOUNDS_MS } from "../telemetry/tables.js";
import { type DurationHistogram, histogramPercentile } from "./percentiles.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql, whereClause } from "./sql.js";

const RESOLUTION_MS: Record<Resolution, number> = { "1m": 60_000, "1h": 3_600_000 };
/** Windows up to this long default to 1m buckets, longer ones to 1h. */
export const MINUTE_RESOLUTION_UP_TO_MS = 6 * 3_600_000;

export const HttpMetricsQuery = z
  .object({
    time_range: TimeRange.describe(
      "Required. Window ending now (or at `to`): 15m, 1h, 6h, 24h, 7d, 30d, 90d or <n>m/h/d",
    ),
    from: WindowQuery.shape.from,
    to: WindowQuery.shape.to,
    resolution: z
      .enum(RESOLUTIONS)
      .optional()
      .describe(
        `Bucket width; default 1m for windows up to 6h, else 1h. One that would give more than ${MAX_HTTP_BUCKETS} buckets is coarsened to the finest that fits (see \`notice\`)`,
      ),
    service: z.string().min(1).max(256).optional().describe("Only requests served by this service"),
  })
  .strict();
export type HttpMetricsQuery = z.infer<typeof HttpMetricsQuery>;

/** The aggregate columns every grouping reads, over http_requests' per-minute rows. */
const AGGREGATES = `sum(request_count) AS count, sum(error_count) AS errors,
  sum(duration_sum_ms) AS sum_ms, min(duration_min_ms) AS min_ms, max(duration_max_ms) AS max_ms,
  sumForEach(duration_buckets) AS hist`;

interface AggregateRow {
  count: string;
  errors: string;
  sum_ms: number;
  min_ms: number;
  max_ms: number;
  hist: (string | number)[];
}

interface Merged {
  count: number;
  errors: number;
  sumMs: number;
  histogram: DurationHistogram;
}

const merged = (row: AggregateRow): Merged => ({
  count: num(row.count),
  errors: num(row.errors),
  sumMs: row.sum_ms,
  histogram: {
    bounds: HTTP_DURATION_BOUNDS_MS,
    counts: row.hist.map(num),
    min: row.min_ms,
    max: row.max_ms,
  },
});

/** Milliseconds rounded to the microsecond, so float noise never reaches a response. */
const ms = (value: number): number => Math.round(value * 1000) / 1000;
const percentile = (h: DurationHistogram, q: number) => {
  const value = histogramPercentile(h, q);
  return value === null ? null : ms(value);
};
const latency = (h: DurationHistogram) => ({
  p50Ms: percentile(h, 0.5),
  p95Ms: percentile(h, 0.95),
  p99Ms: percentile(h, 0.99),
});
const rate = (errors: number, count: number) => (count === 0 ? 0 : errors / count);

/** Adds `from` into `into`: sums, bucket-wise histogram sums, the smaller min and larger max. */
function mergeInto(into: Merged | undefined, from: Merged): Merged {
  if (!into)
    return { ...from, histogram: { ...from.histogram, counts: [...from.histogram.counts] } };
  const counts = into.histogram.counts.map((c, i) => c + (from.histogram.counts[i] ?? 0));
  return {
    count: into.count + from.count,
    errors: into.errors + from.errors,
    sumMs: into.sumMs + from.sumMs,
    histogram: {
      bounds: into.histogram.bounds,
      counts,
      min: Math.min(into.histogram.min, from.histogram.min),
      max: Math.max(into.histogram.max, from.histogram.max),
    },
  };
}

/** The resolution used, what was asked, and why they differ (null when they do not). */
interface ChosenResolution {
  resolution: Resolution;
  requested: Resolution | null;
  notice: string | null;
}

const bucketCount = (window: TimeWindow, resolution: Resolution) =>
  bucketStarts(window, RESOLUTION_MS[resolution]).length;

/**
 * The bucket width: as asked, else by window length. A resolution the spec lists but too fine
 * for the window (30d at 1m) is coarsened to the finest that fits, and the answer says so; only
 * a window too long for the coarsest one is refused.
 */
function chooseResolution(query: HttpMetricsQuery, window: TimeWindow): ChosenResolution {
  const span = window.toMs - window.fromMs;
  const wanted = query.resolution ?? (span <= MINUTE_RESOLUTION_UP_TO_MS ? "1m" : "1h");
  const fits = RESOLUTIONS.slice(RESOLUTIONS.indexOf(wanted)).find(
    (r) => bucketCount(window, r) <= MAX_HTTP_BUCKETS,
  );
  const requested = query.resolution ?? null;
  if (fits === undefined) {
    const coarsest = RESOLUTIONS[RESOLUTIONS.length - 1] as Resolution;
    throw InvalidInputError.forField(
      query.from ? "from" : "time_range",
      `${coarsest} over this window gives ${bucketCount(window, coarsest)} buckets, more than ${MAX_HTTP_BUCKETS}; use a shorter window`,
    );
  }
  const notice =
    fits === wanted
      ? null
      : `${wanted} over this window gives ${bucketCount(window, wanted)} buckets, more than ${MAX_HTTP_BUCKETS}: answered at ${fits}`;
  return { resolution: fits, requested, notice };
}

/**
 * Request counts, error rates and latency percentiles per bucket and for the whole window, the
 * busiest routes and the status classes, all from http_requests' per-minute histograms.
 */
export async function httpMetrics({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & HttpMetricsQuery): Promise<HttpMetrics> {
  const deps = ctx.deps.read;
  // time_range is required, so the dashboard fallback never applies.
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const { resolution, requested, notice } = chooseResolution(query, window);
  const step = RESOLUTION_MS[resolution];
  const sql = new Sql(deps.telemetry, projectId);
  // Rows are per minute: a minute that starts before `from` but overlaps the window counts.
  const rowsWindow = { fromMs: Math.floor(window.fromMs / 60_000) * 60_000, toMs: window.toMs };
  const where = whereClause(sql, [
    ...sql.within("timestamp", rowsWindow),
    ...(query.service ? [`service_name = ${sql.bind(query.service)}`] : []),
  ]);
  const table = sql.table("http_requests");
  const stepSeconds = sql.bind(step / 1000);
  const [bucketRows, routeRows, classRows] = await Promise.all([
    sql.query<AggregateRow & { bucket: string }>(
      `SELECT intDiv(toUnixTimestamp(timestamp), ${stepSeconds}) * ${stepSeconds} AS bucket, ${AGGREGATES}
       FROM ${table} ${where} GROUP BY bucket`,
    ),
    sql.query<
      AggregateRow & { method: string; route: string; service_name: string; groups: string }
    >(
      `SELECT method, route, service_name, ${AGGREGATES}, count() OVER () AS groups
       FROM ${table} ${where} GROUP BY service_name, method, route
       ORDER BY count DESC, service_name, route, method LIMIT ${TOP_ROUTES}`,
    ),
    sql.query<{ status_class: string; count: string }>(
      `SELECT intDiv(status_code, 100) AS status_class, sum(request_count) AS count
       FROM ${table} ${where} GROUP BY status_class`,
    ),
  ]);

  const byBucket = new Map(bucketRows.map((row) => [num(row.bucket) * 1000, merged(row)]));
  let total: Merged | undefined;
  const series = bucketStarts(window, step).map((time) => {
    const bucket = byBucket.get(time);
    if (bucket) total = mergeInto(total, bucket);
    return {
      time: isoMs(time),
      count: bucket?.count ?? 0,
      errors: bucket?.errors ?? 0,
      errorRate: bucket ? rate(bucket.errors, bucket.count) : 0,
      ...(bucket ? latency(bucket.histogram) : { p50Ms: null, p95Ms: null, p99Ms: null }),
    };
  });

  const statusClasses = { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, other: 0 };
  for (const row of classRows) {
    const name = `${num(row.status_class)}xx`;
    if (name === "2xx" || name === "3xx" || name === "4xx" || name === "5xx")
      statusClasses[name] += num(row.count);
    else statusClasses.other += num(row.count);
  }

  const count = total?.count ?? 0;
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    resolution,
    requestedResolution: requested,
    notice,
    bucketSeconds: step / 1000,
    series,
    totals: {
      count,
      errors: total?.errors ?? 0,
      errorRate: rate(total?.errors ?? 0, count),
      avgMs: total && count > 0 ? ms(total.sumMs / count) : null,
      minMs: total && count > 0 ? ms(total.histogram.min) : null,
      maxMs: total && count > 0 ? ms(total.histogram.max) : null,
      ...(total ? latency(total.histogram) : { p50Ms: null, p95Ms: null, p99Ms: null }),
      requestsPerMinute: ms((count * 60_000) / (window.toMs - window.fromMs)),
    },
    routes: routeRows.map((row) => {
      const route = merged(row);
      return {
        method: row.method,
        route: row.route,
        service: row.service_name,
        count: route.count,
        errors: route.errors,
        errorRate: rate(route.errors, route.count),
        avgMs: route.count === 0 ? 0 : ms(route.sumMs / route.count),
        ...latency(route.histogram),
      };
    }),
    routeCount: routeRows[0] ? num(routeRows[0].groups) : 0,
    statusClasses,
  };
}
