import { z } from "zod";
import { fieldExpression, resolveField } from "../contracts/explore-filters.js";
import { TRACE_GROUP_SORTS, type TraceGroupBy, type TraceGroupSort } from "../contracts/traces.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { isoMs, SortOrder } from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import { FAILED_SPAN } from "./span-figures.js";
import { num, Sql } from "./sql.js";
import { DURATION_QUANTILES } from "./trace-span-filter.js";
import { SpanSelectionQuery, selectedSpans, spanFigures } from "./trace-stats.js";

export const TraceGroupByQuery = SpanSelectionQuery.extend({
  by: z
    .string()
    .min(1)
    .max(256)
    .default("service_name")
    .describe(
      "The field to group spans by: a column (e.g. `http_route`; default `service_name`), `attributes.<key>` or `resource.<key>`",
    ),
  sort_by: z
    .enum(TRACE_GROUP_SORTS)
    .default("count")
    .describe(`Sort field: ${TRACE_GROUP_SORTS.join(", ")} (default count)`),
  sort_order: SortOrder,
  limit: z.coerce.number().int().min(1).max(1000).default(50).describe("Groups at most, 1–1000"),
}).strict();
export type TraceGroupByQuery = z.infer<typeof TraceGroupByQuery>;

/** Fields every span has its own value of: grouping by them is one group per span. */
const PER_SPAN_FIELDS = new Set(["trace_id", "span_id", "parent_span_id", "duration_ms"]);

/**
 * Groups one answer counts at most (the engine's max_rows_to_group_by): a field of ids or URLs
 * over a long window would otherwise hold one aggregation state per span in memory. Past it, the
 * groups met first are counted in full and no new one is added (`groupsCapped`).
 */
export const MAX_GROUPS = 10_000;

/** Each sort as an expression of the grouped select (rate orders as count: one window). */
const SORT_EXPRESSIONS: Record<TraceGroupSort, string> = {
  count: "count",
  rate: "count",
  errors: "errors",
  error_rate: "errors / count",
  p50: "q[1]",
  p95: "q[2]",
  p99: "q[3]",
  value: "value",
};

/**
 * Spans following the filters per value of one field (a column, a span or resource attribute):
 * count, rate, errors and duration percentiles of each group, sorted, the first `limit`, with
 * how many groups and spans there are in all.
 */
export async function traceGroupBy({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & TraceGroupByQuery): Promise<TraceGroupBy> {
  const sql = new Sql(ctx.deps.read.telemetry, projectId);
  const ref = resolveField("traces", query.by);
  if (!ref)
    throw InvalidInputError.forField(
      "by",
      `traces have no field "${query.by}": use a column, attributes.<key> or resource.<key>`,
    );
  if (ref.kind === "column" && PER_SPAN_FIELDS.has(ref.column))
    throw InvalidInputError.forField(
      "by",
      `every span has its own ${ref.column}: group by a field spans share (e.g. http_route, service_name, an attribute)`,
    );
  const value = `toString(${fieldExpression(ref, (text) => sql.bind(text))})`;
  const { window, where } = selectedSpans(ctx, sql, query);
  const direction = query.sort_order === "asc" ? "ASC" : "DESC";
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT ${value} AS value, count() AS count, countIf(${FAILED_SPAN}) AS errors,
            ${DURATION_QUANTILES}, count() OVER () AS group_count, sum(count()) OVER () AS span_count
     FROM ${sql.table("traces")} ${where}
     GROUP BY value
     ORDER BY ${SORT_EXPRESSIONS[query.sort_by]} ${direction}, value
     LIMIT ${query.limit}`,
    { max_rows_to_group_by: MAX_GROUPS, group_by_overflow_mode: "any" },
  );
  const groupCount = num(rows[0]?.group_count);
  const seconds = (window.toMs - window.fromMs) / 1000;
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    by: query.by,
    groups: rows.map((row) => ({ value: String(row.value), ...spanFigures(row, seconds) })),
    groupCount,
    groupsCapped: groupCount >= MAX_GROUPS,
    spanCount: num(rows[0]?.span_count),
  };
}
