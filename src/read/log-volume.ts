import { z } from "zod";
import { LOG_LEVELS, type LogLevel, type LogVolume } from "../contracts/logs.js";
import {
  bucketMs,
  bucketStarts,
  dashboardWindow,
  isoMs,
  type TimeWindow,
  WindowQuery,
} from "../lib/list-params.js";
import { LogFilterQuery, logFilterConditions } from "./log-filter.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql, whereClause } from "./sql.js";

export const LogVolumeQuery = z
  .object({
    ...LogFilterQuery.shape,
    ...WindowQuery.shape,
    buckets: z.coerce
      .number()
      .int()
      .min(10)
      .max(500)
      .default(120)
      .describe("At most this many buckets (the width is the smallest step that fits)"),
  })
  .strict();
export type LogVolumeQuery = z.infer<typeof LogVolumeQuery>;

/** Steps under a minute, so a histogram zoomed to a few minutes still has bars to show. */
const SHORT_STEPS_MS = [1_000, 2_000, 5_000, 10_000, 15_000, 30_000];

/** The bucket width: the smallest step (1 s up to 30 days) giving at most `buckets` buckets. */
export function volumeStepMs(window: TimeWindow, buckets: number): number {
  const span = window.toMs - window.fromMs;
  return SHORT_STEPS_MS.find((step) => span / step <= buckets) ?? bucketMs(window, buckets);
}

const zeroLevels = () =>
  Object.fromEntries(LOG_LEVELS.map((l) => [l, 0])) as Record<LogLevel, number>;

/**
 * How many records match the list's filters (search included) per level and bucket, over the
 * window (default 24h): the list's histogram. One grouped pass over the matching records; every
 * bucket present, zero-filled.
 */
export async function logVolume({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & LogVolumeQuery): Promise<LogVolume> {
  const deps = ctx.deps.read;
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const step = volumeStepMs(window, query.buckets);
  const sql = new Sql(deps.telemetry, projectId);
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    ...logFilterConditions(sql, query),
  ]);
  const rows = await sql.query<{ bucket: string; level: string; count: string }>(
    `SELECT ${sql.bucket("timestamp", step)} AS bucket, level, count() AS count
     FROM ${sql.table("logs")} ${where} GROUP BY bucket, level`,
  );
  const series = new Map(bucketStarts(window, step).map((t) => [t, { ...zeroLevels(), total: 0 }]));
  const byLevel = zeroLevels();
  for (const row of rows) {
    const level = row.level as LogLevel;
    if (!(level in byLevel)) continue;
    const count = num(row.count);
    byLevel[level] += count;
    const point = series.get(num(row.bucket));
    if (point) {
      point[level] += count;
      point.total += count;
    }
  }
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    total: LOG_LEVELS.reduce((sum, l) => sum + byLevel[l], 0),
    byLevel,
    series: [...series].map(([time, counts]) => ({ time: isoMs(time), ...counts })),
  };
}
