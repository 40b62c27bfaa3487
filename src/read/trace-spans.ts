import { MAX_TRACE_SPANS, type SpanDetail, type TraceSpans } from "../contracts/traces.js";
import { NotFoundError } from "../lib/domain-errors.js";
import { hexIdParam, isoMs } from "../lib/list-params.js";
import type { ReadCtx, ReadDeps } from "./read-deps.js";
import { Sql, whereClause } from "./sql.js";
import { readErrorItems, readSpanData } from "./trace-data.js";
import { errorGroupsOfItems, traceErrorGroups } from "./trace-errors.js";
import { indexed, spansOf, withTraceRange } from "./trace-index.js";
import { nsToMs, SPAN_COLUMNS, type SpanView, toSpanView } from "./trace-lookup.js";
import { buildTraceTree, type TreeNode } from "./trace-tree.js";

export const SpanIdParam = hexIdParam(16);

/** span_id, parent_span_id, operation_name, span_kind, service_name, status, start_ns, end_ns, and whether trace_data holds the trace (1 or 0). */
type OutlineRow = [string, string, string, string, string, string, string, string, number];

/** Index of each distinct text in first-seen order. */
class Table {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  of(value: string): number {
    let at = this.index.get(value);
    if (at === undefined) {
      at = this.values.push(value) - 1;
      this.index.set(value, at);
    }
    return at;
  }
}

/** One trace's spans in tree order, in columns (see TraceSpans). */
export async function getTraceSpans({
  ctx,
  projectId,
  traceId,
}: {
  ctx: ReadCtx;
  projectId: string;
  traceId: string;
}): Promise<TraceSpans> {
  const deps = ctx.deps.read;
  const sql = new Sql(deps.telemetry, projectId);
  const { trace, withClause } = withTraceRange(sql, traceId);
  const limit = MAX_TRACE_SPANS + 1;
  // In time order, so that a trace over the cap keeps its earliest spans (and the tree's sort
  // finds them sorted); arrays rather than keyed rows: 50,000 of them parse in one go. The
  // trace's error items are read beside them: a key lookup in trace_data needs no time window.
  const [all, errorItems] = await Promise.all([
    sql.queryRows(
      `${withClause}
       SELECT span_id, parent_span_id, operation_name, span_kind, service_name, status,
              toString(toUnixTimestamp64Nano(timestamp)), toString(toUnixTimestamp64Nano(end_timestamp)),
              ${indexed(trace)}
       FROM ${sql.table("traces")} ${whereClause(sql, [spansOf(trace)])}
       ORDER BY timestamp, span_id LIMIT ${limit}`,
    ),
    readErrorItems(deps.telemetry, projectId, traceId, limit),
  ]);
  if (all.length === 0) throw new NotFoundError("Trace", traceId);
  const truncated = all.length > MAX_TRACE_SPANS;
  const rows = (truncated ? all.slice(0, MAX_TRACE_SPANS) : all) as OutlineRow[];
  let startNs = BigInt(rows[0]?.[6] ?? 0);
  let endNs = startNs;
  const inputs = rows.map((row, i) => {
    const start = BigInt(row[6]);
    const end = BigInt(row[7]);
    if (start < startNs) startNs = start;
    if (end > endNs) endNs = end;
    return { spanId: row[0], parentSpanId: row[1], startNs: start, endNs: end, data: i };
  });
  const tree = buildTraceTree(inputs);
  if (!tree) throw new NotFoundError("Trace", traceId);
  // A trace trace_data does not hold (or with more errors than read): error_occurrences, around
  // the spans' times.
  const window = { fromMs: Number(startNs / 1_000_000n), toMs: Number(endNs / 1_000_000n) + 1 };
  const held = Number(rows[0]?.[8]) === 1 && errorItems.length < limit;
  const errorGroups = held
    ? await errorGroupsOfItems(deps.telemetry, projectId, new Map([[traceId, errorItems]]))
    : await traceErrorGroups(deps.telemetry, projectId, [{ traceId, window }]);

  const serviceNames = [...new Set(rows.map((r) => r[4]))].sort();
  const serviceIndex = new Map(serviceNames.map((s, i) => [s, i]));
  const names = new Table();
  const kinds = new Table();
  const statuses = new Table();
  const columns: TraceSpans["spans"] = {
    spanId: [],
    parent: [],
    name: [],
    service: [],
    kind: [],
    status: [],
    startOffsetMs: [],
    durationMs: [],
    selfTimeMs: [],
  };
  const orphans: number[] = [];
  const breakdown = serviceNames.map((service) => ({ service, spanCount: 0, errorCount: 0 }));
  let errorCount = 0;
  // Depth first with an explicit stack (chains can be 50,000 deep), children in start order.
  const stack: [TreeNode<number>, number][] = [[tree.root, -1]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop() as [TreeNode<number>, number];
    const row = rows[node.data] as OutlineRow;
    const at = columns.spanId.length;
    const service = serviceIndex.get(row[4]) ?? 0;
    columns.spanId.push(node.spanId);
    columns.parent.push(parent);
    columns.name.push(names.of(row[2]));
    columns.service.push(service);
    columns.kind.push(kinds.of(row[3]));
    columns.status.push(statuses.of(row[5]));
    columns.startOffsetMs.push(nsToMs(Number(node.startNs - startNs)));
    columns.durationMs.push(
      nsToMs(Number(node.endNs > node.startNs ? node.endNs - node.startNs : 0n)),
    );
    columns.selfTimeMs.push(nsToMs(Number(node.selfNs)));
    if (node.orphan) orphans.push(at);
    const counts = breakdown[service];
    if (counts) counts.spanCount++;
    if (row[5] === "error") {
      errorCount++;
      if (counts) counts.errorCount++;
    }
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push([node.children[i] as TreeNode<number>, at]);
  }
  const root = rows[tree.root.data] as OutlineRow;
  return {
    traceId,
    rootService: root[4],
    rootOperation: root[2],
    startTime: isoMs(Number(startNs / 1_000_000n)),
    endTime: isoMs(Number(endNs / 1_000_000n)),
    durationMs: nsToMs(Number(endNs - startNs)),
    spanCount: tree.spanCount,
    errorCount,
    status: errorCount > 0 ? "error" : "ok",
    services: serviceNames,
    serviceBreakdown: breakdown.sort(
      (a, b) => b.spanCount - a.spanCount || a.service.localeCompare(b.service),
    ),
    hasRoot: tree.hasRoot,
    orphanCount: tree.orphanCount,
    truncated,
    errorGroups: errorGroups.get(traceId) ?? [],
    names: names.values,
    kinds: kinds.values,
    statuses: statuses.values,
    orphans,
    spans: columns,
  };
}

/**
 * One span of a trace with its attributes, resource, events, links and error groups: from
 * `trace_data` in one statement (two when it has errors), else the old way (spanFromColumns).
 */
export async function getSpan({
  ctx,
  projectId,
  traceId,
  spanId,
}: {
  ctx: ReadCtx;
  projectId: string;
  traceId: string;
  spanId: string;
}): Promise<SpanDetail> {
  const deps = ctx.deps.read;
  const limit = MAX_TRACE_SPANS + 1;
  const packed = await readSpanData(deps.telemetry, projectId, traceId, spanId, limit);
  if (!packed) return spanFromColumns(deps, projectId, traceId, spanId);
  const { resource: _index, ...view }: SpanView = toSpanView(
    packed.span,
    BigInt(packed.traceStartNs),
    0,
  );
  const errors =
    packed.errors.length < limit
      ? await errorGroupsOfItems(deps.telemetry, projectId, new Map([[traceId, packed.errors]]))
      : await spanErrorGroups(deps, projectId, traceId, spanId, view);
  return {
    ...view,
    resource: packed.span.resource_attributes as Record<string, string>,
    errorGroups: errors.get(traceId) ?? [],
  };
}

/** A span's error groups from `error_occurrences`, around the span's time. */
function spanErrorGroups(
  deps: ReadDeps,
  projectId: string,
  traceId: string,
  spanId: string,
  view: Pick<SpanView, "startTime" | "durationMs">,
) {
  const fromMs = Date.parse(view.startTime);
  const window = { fromMs, toMs: fromMs + Math.ceil(view.durationMs) + 1 };
  return traceErrorGroups(deps.telemetry, projectId, [{ traceId, window }], spanId);
}

/** getSpan for a trace `trace_data` does not hold (stored before it existed), or an unknown span. */
async function spanFromColumns(
  deps: ReadDeps,
  projectId: string,
  traceId: string,
  spanId: string,
): Promise<SpanDetail> {
  const sql = new Sql(deps.telemetry, projectId);
  const traces = sql.table("traces");
  const [row] = await sql.query<Record<string, unknown>>(
    `SELECT ${SPAN_COLUMNS}
     FROM ${traces} ${whereClause(sql, [`trace_id = ${sql.bind(traceId)}`, `span_id = ${sql.bind(spanId)}`])}
     ORDER BY timestamp LIMIT 1`,
  );
  if (!row) throw new NotFoundError("Span", spanId);
  const [first] = await sql.query<{ ns: string }>(
    `SELECT toString(toUnixTimestamp64Nano(min(timestamp))) AS ns
     FROM ${traces} ${whereClause(sql, [`trace_id = ${sql.bind(traceId)}`])}`,
  );
  const { resource: _index, ...view }: SpanView = toSpanView(row, BigInt(first?.ns ?? "0"), 0);
  const errors = await spanErrorGroups(deps, projectId, traceId, spanId, view);
  return {
    ...view,
    resource: row.resource_attributes as Record<string, string>,
    errorGroups: errors.get(traceId) ?? [],
  };
}
