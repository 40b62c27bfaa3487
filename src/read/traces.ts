import { z } from "zod";
import type { Page } from "../contracts/pagination.js";
import {
  MAX_TRACE_SPANS,
  TRACE_SORTS,
  type TraceErrorGroup,
  type TraceSummary,
} from "../contracts/traces.js";
import { NotFoundError } from "../lib/domain-errors.js";
import { CountParam, hexIdParam, isoMs, listQuery, resolveWindow } from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql, selectPage, whereClause } from "./sql.js";
import { totalKey } from "./total-cache.js";
import { nsToMs, type SpanView, toSpanView } from "./trace-lookup.js";
import {
  DurationParam,
  outcomeConditions,
  SpanFilterFields,
  spanConditions,
} from "./trace-span-filter.js";
import { buildTraceTree, type TreeNode } from "./trace-tree.js";

export const TraceIdParam = hexIdParam(32);

const SORT_COLUMNS: Record<(typeof TRACE_SORTS)[number], string> = {
  start_time: "start_ns",
  duration: "duration_ns",
  span_count: "span_count",
  error_count: "error_count",
};

export const ListTracesQuery = listQuery(TRACE_SORTS, {
  min_duration: DurationParam(
    "Only traces lasting at least this many milliseconds (e.g. 100, 500, 1000)",
  ),
  max_duration: DurationParam("Only traces lasting at most this many milliseconds"),
  span_id: hexIdParam(16).optional().describe("Only the trace containing this span"),
  parent_span_id: hexIdParam(16)
    .optional()
    .describe("Only traces containing a span whose parent is this span"),
  service: SpanFilterFields.service.describe("Only traces with at least one span of this service"),
  span_kind: SpanFilterFields.span_kind.describe(
    "Only traces with a span of this kind (the same span as matches `filters`)",
  ),
  filters: SpanFilterFields.filters.describe(
    "Only traces with one span matching every filter (and `span_kind`): a JSON array of " +
      '`{"field","op","value"}`, field a column, `attributes.<key>` or `resource.<key>`',
  ),
  status: z
    .enum(["ok", "error"])
    .optional()
    .describe("`error`: traces with at least one failed span; `ok`: traces without"),
  count: CountParam,
});
export type ListTracesQuery = z.infer<typeof ListTracesQuery>;

/** Per-trace aggregates over the spans selected by `where`. */
const SUMMARY_SELECT = `trace_id,
  toUnixTimestamp64Nano(min(timestamp)) AS start_ns,
  toUnixTimestamp64Milli(min(timestamp)) AS start_ms,
  toUnixTimestamp64Nano(max(end_timestamp)) - toUnixTimestamp64Nano(min(timestamp)) AS duration_ns,
  count() AS span_count,
  countIf(status = 'error') AS error_count,
  arraySort(groupUniqArray(toString(service_name))) AS services,
  countIf(parent_span_id = '') > 0 AS has_root,
  if(has_root, argMinIf(service_name, timestamp, parent_span_id = ''), argMin(service_name, timestamp)) AS root_service,
  if(has_root, argMinIf(operation_name, timestamp, parent_span_id = ''), argMin(operation_name, timestamp)) AS root_operation`;

type SummaryRow = Record<string, unknown>;

function toSummary(row: SummaryRow): TraceSummary {
  const errorCount = num(row.error_count);
  return {
    traceId: String(row.trace_id),
    rootService: String(row.root_service),
    rootOperation: String(row.root_operation),
    // Milliseconds from the engine: nanoseconds since the epoch do not fit a double exactly.
    startTime: isoMs(num(row.start_ms)),
    durationMs: nsToMs(num(row.duration_ns)),
    spanCount: num(row.span_count),
    errorCount,
    status: errorCount > 0 ? "error" : "ok",
    services: (row.services as string[]).filter(Boolean),
    hasRoot: Boolean(num(row.has_root)),
  };
}

/** Trace summaries, newest first by start time unless sorted otherwise. */
export async function listTraces({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & ListTracesQuery): Promise<Page<TraceSummary>> {
  const deps = ctx.deps.read;
  const sql = new Sql(deps.telemetry, projectId);
  const table = sql.table("traces");
  const window = sql.within("timestamp", resolveWindow(query, deps.clock.now().getTime()));
  // Span-level filters pick the traces; the summary then covers all of their spans in the window.
  // GLOBAL: on a cluster a plain IN over a second Distributed table is refused
  // (distributed_product_mode); on one node it is the same IN.
  const containing = (condition: string) =>
    `trace_id GLOBAL IN (SELECT trace_id FROM ${table} ${whereClause(sql, [...window, condition])})`;
  const { service, ...spanFilter } = query;
  const span = spanConditions(sql, spanFilter);
  const conditions = [
    ...window,
    ...(query.span_id ? [containing(`span_id = ${sql.bind(query.span_id)}`)] : []),
    ...(query.parent_span_id
      ? [containing(`parent_span_id = ${sql.bind(query.parent_span_id)}`)]
      : []),
    ...(service ? [containing(`service_name = ${sql.bind(service)}`)] : []),
    // One span meets the kind and every filter together.
    ...(span.length > 0 ? [containing(span.join(" AND "))] : []),
  ];
  // Status and durations are the whole trace's: any failed span, first start to last end.
  const having = outcomeConditions(sql, query, "duration_ns", "error_count > 0");
  const grouped = `SELECT ${SUMMARY_SELECT} FROM ${table} ${whereClause(sql, conditions)}
    GROUP BY trace_id ${having.length > 0 ? `HAVING ${having.join(" AND ")}` : ""}`;
  const direction = query.sort_order === "asc" ? "ASC" : "DESC";
  return selectPage(
    sql,
    query,
    {
      columns: "*",
      from: `(${grouped})`,
      orderBy: `${SORT_COLUMNS[query.sort_by]} ${direction}, start_ns DESC, trace_id`,
      // The count doubles the grouping's cost: later pages reuse the one of an earlier page.
      total: {
        kind: "window",
        cached: {
          cache: deps.totals,
          key: totalKey("traces", projectId, query),
          reuse: query.count === "estimate" && query.page > 1,
        },
      },
    },
    toSummary,
  );
}

/** One trace with its span tree, before it is written as JSON (traceDetailJson). */
export interface TraceTree extends Omit<TraceSummary, "status"> {
  status: "ok" | "error";
  endTime: string;
  orphanCount: number;
  truncated: boolean;
  serviceBreakdown: { service: string; spanCount: number; errorCount: number }[];
  resources: Record<string, string>[];
  /** The error groups that occurred in the trace, per span. */
  errorGroups: TraceErrorGroup[];
  root: TreeNode<SpanView>;
}

/** One trace with its whole tree. */
export async function getTrace({
  ctx,
  projectId,
  traceId,
}: {
  ctx: ReadCtx;
  projectId: string;
  traceId: string;
}): Promise<TraceTree> {
  const deps = ctx.deps.read;
  const { rows, errorGroups } = await deps.traces.load({ projectId, traceId });
  if (rows.length === 0) throw new NotFoundError("Trace", traceId);
  const truncated = rows.length > MAX_TRACE_SPANS;
  const resources: Record<string, string>[] = [];
  const resourceIndex = new Map<string, number>();
  // Rows come in no particular order (the tree sorts its spans); the trace starts at the earliest.
  const traceStartNs = rows.reduce(
    (min, row) => {
      const start = BigInt(String(row.start_ns));
      return start < min ? start : min;
    },
    BigInt(String(rows[0]?.start_ns)),
  );
  const spans = rows.slice(0, MAX_TRACE_SPANS).map((row) => {
    const startNs = BigInt(String(row.start_ns));
    const endNs = BigInt(String(row.end_ns));
    const resource = row.resource_attributes as Record<string, string>;
    const resourceKey = JSON.stringify(resource);
    let index = resourceIndex.get(resourceKey);
    if (index === undefined) {
      index = resources.push(resource) - 1;
      resourceIndex.set(resourceKey, index);
    }
    const view = toSpanView(row, traceStartNs, index);
    return {
      spanId: view.spanId,
      parentSpanId: String(row.parent_span_id),
      startNs,
      endNs,
      data: view,
    };
  });
  const tree = buildTraceTree(spans);
  if (!tree) throw new NotFoundError("Trace", traceId);
  const services = new Map<string, { spanCount: number; errorCount: number }>();
  let endNs = traceStartNs;
  let errorCount = 0;
  for (const span of spans) {
    const entry = services.get(span.data.service) ?? { spanCount: 0, errorCount: 0 };
    entry.spanCount++;
    if (span.data.status === "error") {
      entry.errorCount++;
      errorCount++;
    }
    services.set(span.data.service, entry);
    if (span.endNs > endNs) endNs = span.endNs;
  }
  return {
    traceId,
    rootService: tree.root.data.service,
    rootOperation: tree.root.data.name,
    startTime: isoMs(Number(traceStartNs / 1_000_000n)),
    endTime: isoMs(Number(endNs / 1_000_000n)),
    durationMs: nsToMs(Number(endNs - traceStartNs)),
    spanCount: tree.spanCount,
    errorCount,
    status: errorCount > 0 ? "error" : "ok",
    services: [...services.keys()].sort(),
    serviceBreakdown: [...services]
      .map(([service, counts]) => ({ service, ...counts }))
      .sort((a, b) => b.spanCount - a.spanCount || a.service.localeCompare(b.service)),
    hasRoot: tree.hasRoot,
    orphanCount: tree.orphanCount,
    truncated,
    resources,
    errorGroups,
    root: tree.root,
  };
}
