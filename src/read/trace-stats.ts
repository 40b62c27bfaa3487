import { z } from "zod";
import type { TraceStats } from "../contracts/traces.js";
import {
  bucketMs,
  bucketStarts,
  dashboardWindow,
  isoMs,
  type TimeWindow,
  WindowQuery,
} from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import { FAILED_SPAN } from "./span-figures.js";
import { num, Sql, whereClause } from "./sql.js";
import {
  DURATION_QUANTILES,
  outcomeConditions,
  percentileMs,
  SpanFilterFields,
  SpanOutcomeFields,
  spanConditions,
} from "./trace-span-filter.js";

/** The spans a stats or group-by read covers: window, service, kind, filters, status, duration. */
export const SpanSelectionQuery = z.object({
  ...WindowQuery.shape,
  ...SpanFilterFields,
  service: SpanFilterFields.service.describe("Only spans of this service"),
  span_kind: SpanFilterFields.span_kind.describe("Only spans of this kind"),
  filters: SpanFilterFields.filters.describe(
    'Only spans matching every filter: a JSON array of `{"field","op","value"}`, field a column, ' +
      "`attributes.<key>` or `resource.<key>`",
  ),
  ...SpanOutcomeFields,
});
export type SpanSelectionQuery = z.infer<typeof SpanSelectionQuery>;

export const TraceStatsQuery = SpanSelectionQuery.strict();
export type TraceStatsQuery = z.infer<typeof TraceStatsQuery>;

/** The window (default: the last 24 h) and the WHERE of the spans a query selects. */
export function selectedSpans(
  ctx: ReadCtx,
  sql: Sql,
  query: SpanSelectionQuery,
): { window: TimeWindow; where: string } {
  const window = dashboardWindow(query, ctx.deps.read.clock.now().getTime());
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    ...spanConditions(sql, query),
    ...outcomeConditions(sql, query),
  ]);
  return { window, where };
}

/** A bucket's or the window's figures from a grouped row (`count`, `errors`, `q`). */
export function spanFigures(row: Record<string, unknown> | undefined, seconds: number) {
  const count = num(row?.count);
  const errors = num(row?.errors);
  const q = (row?.q as unknown[] | undefined) ?? [];
  return {
    count,
    rate: seconds > 0 ? count / seconds : 0,
    errors,
    errorRate: count === 0 ? 0 : errors / count,
    p50Ms: count === 0 ? null : percentileMs(q[0]),
    p95Ms: count === 0 ? null : percentileMs(q[1]),
    p99Ms: count === 0 ? null : percentileMs(q[2]),
  };
}

/**
 * Spans following the filters per bucket (every bucket of the window, the empty ones too) and
 * over the whole window, in one scan: the buckets and the total are two grouping sets.
 */
export async function traceStats({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & TraceStatsQuery): Promise<TraceStats> {
  const sql = new Sql(ctx.deps.read.telemetry, projectId);
  const { window, where } = selectedSpans(ctx, sql, query);
  const step = bucketMs(window);
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT ${sql.bucket("timestamp", step)} AS bucket, grouping(bucket) AS whole,
            count() AS count, countIf(${FAILED_SPAN}) AS errors, ${DURATION_QUANTILES}
     FROM ${sql.table("traces")} ${where}
     GROUP BY GROUPING SETS ((bucket), ())`,
  );
  const buckets = new Map<number, Record<string, unknown>>();
  let whole: Record<string, unknown> | undefined;
  for (const row of rows) {
    if (num(row.whole) === 1) whole = row;
    else buckets.set(num(row.bucket), row);
  }
  // A bucket cut by the window's edge has its rate over the part inside the window.
  const seconds = (start: number) =>
    (Math.min(start + step, window.toMs) - Math.max(start, window.fromMs)) / 1000;
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    series: bucketStarts(window, step).map((start) => ({
      time: isoMs(start),
      ...spanFigures(buckets.get(start), seconds(start)),
    })),
    totals: spanFigures(whole, (window.toMs - window.fromMs) / 1000),
  };
}
