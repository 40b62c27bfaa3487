import { z } from "zod";
import type { ErrorTrends } from "../contracts/error-groups.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { bucketMs, bucketStarts, dashboardWindow, isoMs, WindowQuery } from "../lib/list-params.js";
import { occurrencesOf } from "./occurrences.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql, whereClause } from "./sql.js";

/** Groups per request: a page of the errors list, with room to spare. */
export const MAX_TREND_IDS = 100;
/** Groups the trends cover when no ids are given: the busiest of the window. */
const DEFAULT_TRENDS = 20;
/** A sparkline needs a shape, not resolution. */
const TREND_BUCKETS = 48;
const ERROR_ID = /^[0-9a-f]{32}$/;

export const ErrorTrendsQuery = z
  .object({
    ...WindowQuery.shape,
    ids: z
      .string()
      .min(1)
      .max(MAX_TREND_IDS * 33)
      .optional()
      .describe(
        `Comma-separated error ids (at most ${MAX_TREND_IDS}); without it, the ${DEFAULT_TRENDS} groups with the most occurrences in the window`,
      ),
  })
  .strict();
export type ErrorTrendsQuery = z.infer<typeof ErrorTrendsQuery>;

/** The ids of `ids=a,b,c`, each checked, duplicates dropped, order kept. */
function parseIds(text: string): string[] {
  const ids = [...new Set(text.split(",").map((id) => id.trim()))].filter((id) => id !== "");
  if (ids.length > MAX_TREND_IDS)
    throw InvalidInputError.forField("ids", `at most ${MAX_TREND_IDS} error ids`);
  const bad = ids.find((id) => !ERROR_ID.test(id));
  if (bad !== undefined)
    throw InvalidInputError.forField("ids", `${bad} is not an error id (32 lowercase hex)`);
  return ids;
}

/**
 * Occurrences over time of several error groups at once (default window 24h), coarse enough
 * for a sparkline per row of the errors list, in one engine round trip.
 */
export async function errorTrends({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & ErrorTrendsQuery): Promise<ErrorTrends> {
  const deps = ctx.deps.read;
  const window = dashboardWindow(query, deps.clock.now().getTime());
  const step = bucketMs(window, TREND_BUCKETS);
  const starts = bucketStarts(window, step);
  const sql = new Sql(deps.telemetry, projectId);
  const occurrences = sql.table("error_occurrences");
  const asked = query.ids === undefined ? undefined : parseIds(query.ids);
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    ...(asked ? [`fingerprint IN ${sql.bind(asked)}`] : []),
  ]);
  const once = occurrencesOf(occurrences, where);
  // Without ids: the busiest groups of the window, chosen in the same statement.
  const chosen = asked
    ? ""
    : `WHERE fingerprint IN (SELECT fingerprint FROM ${once}
         GROUP BY fingerprint ORDER BY count() DESC, fingerprint LIMIT ${DEFAULT_TRENDS})`;
  const rows =
    asked?.length === 0
      ? []
      : await sql.query<{ fingerprint: string; bucket: string; count: string }>(
          `SELECT fingerprint, ${sql.bucket("at", step)} AS bucket, count() AS count
           FROM ${once} ${chosen} GROUP BY fingerprint, bucket`,
        );
  const index = new Map(starts.map((t, i) => [t, i]));
  const counts = new Map<string, number[]>(
    (asked ?? []).map((id) => [id, starts.map(() => 0)] as const),
  );
  for (const row of rows) {
    const series = counts.get(row.fingerprint) ?? starts.map(() => 0);
    counts.set(row.fingerprint, series);
    const i = index.get(num(row.bucket));
    if (i !== undefined) series[i] = (series[i] ?? 0) + num(row.count);
  }
  const trends = [...counts].map(([errorId, series]) => ({
    errorId,
    total: series.reduce((a, b) => a + b, 0),
    counts: series,
  }));
  // Asked ids keep their order; the busiest groups come busiest first.
  if (!asked) trends.sort((a, b) => b.total - a.total || a.errorId.localeCompare(b.errorId));
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: step / 1000,
    buckets: starts.map(isoMs),
    trends,
  };
}
