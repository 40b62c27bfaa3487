import { MAX_TRACE_SPANS, type TraceErrorGroup } from "../contracts/traces.js";
import { Batcher } from "../lib/batcher.js";
import { isoMs, type TimeWindow } from "../lib/list-params.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { PACKED_SPAN_EXPRESSIONS } from "../telemetry/internal-tables.js";
import { num, Sql, whereClause } from "./sql.js";
import { readTraceData } from "./trace-data.js";
import { errorGroupsOfItems, traceErrorGroups } from "./trace-errors.js";
import type { ErrorItem, SpanRow } from "./trace-rows.js";

/** Nanoseconds as milliseconds with microsecond precision. */
export const nsToMs = (ns: number) => Math.round(ns / 1000) / 1000;

/** Which trace of which project. */
export interface TraceKey {
  projectId: string;
  traceId: string;
}

/** One trace as read: its span rows (SPAN_COLUMNS, unordered) and its error groups. */
export interface LoadedTrace {
  rows: SpanRow[];
  errorGroups: TraceErrorGroup[];
}

/** A span of a trace tree as the API shows it; its place in the tree (depth, self time, orphan, children) comes from the tree node. */
export interface SpanView {
  spanId: string;
  parentSpanId: string | null;
  name: string;
  service: string;
  kind: string;
  startTime: string;
  /** Milliseconds after the trace's start. */
  startOffsetMs: number;
  durationMs: number;
  status: string;
  statusMessage: string;
  http: { method: string; route: string; target: string; statusCode: number } | null;
  attributes: Record<string, string>;
  /** Index into the trace's `resources`. */
  resource: number;
  events: { time: string; name: string; attributes: Record<string, string> }[];
  links: { traceId: string; spanId: string; attributes: Record<string, string> }[];
}

/** Everything `toSpanView` reads of a span row: what `trace_data` packs, from the span table. */
export const SPAN_COLUMNS = [
  "trace_id",
  "span_id",
  ...Object.entries(PACKED_SPAN_EXPRESSIONS).map(([field, expression]) =>
    field === expression ? field : `${expression} AS ${field}`,
  ),
].join(", ");

/** A span row (SPAN_COLUMNS) as the API shows it, placed against the trace's start. */
export function toSpanView(row: SpanRow, traceStartNs: bigint, resource: number): SpanView {
  const startNs = BigInt(String(row.start_ns));
  const endNs = BigInt(String(row.end_ns));
  const statusCode = num(row.http_status_code);
  return {
    spanId: String(row.span_id),
    parentSpanId: row.parent_span_id ? String(row.parent_span_id) : null,
    name: String(row.operation_name),
    service: String(row.service_name),
    kind: String(row.span_kind),
    startTime: isoMs(Number(startNs / 1_000_000n)),
    startOffsetMs: nsToMs(Number(startNs - traceStartNs)),
    durationMs: nsToMs(Number(endNs > startNs ? endNs - startNs : 0n)),
    status: String(row.status),
    statusMessage: String(row.status_message),
    http:
      row.http_method || statusCode > 0
        ? {
            method: String(row.http_method),
            route: String(row.http_route),
            target: String(row.http_target),
            statusCode,
          }
        : null,
    attributes: row.attributes as Record<string, string>,
    resource,
    events: (row.event_ms as unknown[]).map((ms, i) => ({
      time: isoMs(num(ms)),
      name: String((row.events_name as unknown[])[i]),
      attributes: (row.events_attributes as Record<string, string>[])[i] ?? {},
    })),
    links: (row.links_trace_id as string[]).map((linkedTrace, i) => ({
      traceId: linkedTrace,
      spanId: String((row.links_span_id as unknown[])[i]),
      attributes: (row.links_attributes as Record<string, string>[])[i] ?? {},
    })),
  };
}

/**
 * The spans of traces `trace_data` does not hold (stored before it existed) from `traces`, found
 * through the trace-id bloom filter: at most MAX_TRACE_SPANS + 1 each (one more tells that the
 * trace was cut), unordered unless asked, so a cut trace read again in time order keeps its
 * earliest spans.
 */
function selectSpans(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceIds: readonly string[],
  order: "" | "ORDER BY timestamp",
): Promise<SpanRow[]> {
  const sql = new Sql(telemetry, projectId);
  return sql.query<SpanRow>(
    `SELECT ${SPAN_COLUMNS}
     FROM ${sql.table("traces")}
     ${whereClause(sql, [`trace_id IN ${sql.bind(traceIds)}`])}
     ${order} LIMIT ${MAX_TRACE_SPANS + 1} BY trace_id`,
  );
}

/** selectSpans by trace, a trace over the cap read again earliest spans first. */
async function spansFromColumns(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceIds: readonly string[],
): Promise<Map<string, SpanRow[]>> {
  const spans = new Map<string, SpanRow[]>(traceIds.map((id) => [id, []]));
  for (const row of await selectSpans(telemetry, projectId, traceIds, ""))
    spans.get(String(row.trace_id))?.push(row);
  for (const id of traceIds) {
    if ((spans.get(id)?.length ?? 0) > MAX_TRACE_SPANS)
      spans.set(id, await selectSpans(telemetry, projectId, [id], "ORDER BY timestamp"));
  }
  return spans;
}

/**
 * Several traces of one project with their error groups. Usually one statement however many
 * traces: their spans and error occurrences from `trace_data` (ADR 0016), plus one naming the
 * groups' types when there are errors. A trace over MAX_TRACE_SPANS is read again earliest spans
 * first; one with more error occurrences than that has its groups counted in
 * `error_occurrences`; one `trace_data` does not hold is read the old way (spans, then errors).
 */
async function readProjectTraces(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceIds: readonly string[],
): Promise<Map<string, LoadedTrace>> {
  const limit = MAX_TRACE_SPANS + 1;
  const data = await readTraceData(telemetry, projectId, traceIds, { limit });
  const spans = new Map<string, SpanRow[]>();
  const items = new Map<string, ErrorItem[]>();
  const uncounted: string[] = [];
  const missing: string[] = [];
  for (const id of traceIds) {
    const trace = data.get(id);
    if (!trace || trace.spans.length === 0) {
      missing.push(id);
      continue;
    }
    let read = trace.spans;
    if (read.length >= limit) {
      const ordered = await readTraceData(telemetry, projectId, [id], {
        limit,
        spansInTimeOrder: true,
      });
      read = ordered.get(id)?.spans ?? [];
    }
    spans.set(id, read);
    if (trace.errors.length < limit) items.set(id, trace.errors);
    else uncounted.push(id);
  }
  if (missing.length > 0) {
    for (const [id, rows] of await spansFromColumns(telemetry, projectId, missing))
      spans.set(id, rows);
  }
  const errors = await errorGroupsOfItems(telemetry, projectId, items);
  // Around the times the spans tell: partitions prune.
  const windows = [...missing, ...uncounted].flatMap((traceId) => {
    const window = windowOf(spans.get(traceId) ?? []);
    return window ? [{ traceId, window }] : [];
  });
  for (const [id, groups] of await traceErrorGroups(telemetry, projectId, windows))
    errors.set(id, groups);
  return new Map(
    traceIds.map((id) => [id, { rows: spans.get(id) ?? [], errorGroups: errors.get(id) ?? [] }]),
  );
}

/** Several traces with their error groups, project by project (see readProjectTraces). */
export async function readTraces(
  telemetry: TelemetryExecutor,
  keys: readonly TraceKey[],
): Promise<LoadedTrace[]> {
  const byProject = new Map<string, Set<string>>();
  for (const { projectId, traceId } of keys)
    byProject.set(projectId, (byProject.get(projectId) ?? new Set()).add(traceId));
  const found = new Map<string, LoadedTrace>();
  for (const [projectId, idSet] of byProject) {
    for (const [id, trace] of await readProjectTraces(telemetry, projectId, [...idSet]))
      found.set(`${projectId}\u0000${id}`, trace);
  }
  return keys.map(
    (k) => found.get(`${k.projectId}\u0000${k.traceId}`) ?? { rows: [], errorGroups: [] },
  );
}

/** When spans ran: the earliest start to the latest end (epoch ms, end exclusive). */
function windowOf(rows: readonly SpanRow[]): TimeWindow | undefined {
  let start: bigint | undefined;
  let end: bigint | undefined;
  for (const row of rows) {
    const s = BigInt(String(row.start_ns));
    const e = BigInt(String(row.end_ns));
    if (start === undefined || s < start) start = s;
    if (end === undefined || e > end) end = e;
  }
  if (start === undefined || end === undefined) return undefined;
  return { fromMs: Number(start / 1_000_000n), toMs: Number(end / 1_000_000n) + 1 };
}

/** Traces asked for while the engine is busy are read together in the next statements. */
export const createTraceLoader = (telemetry: TelemetryExecutor) =>
  new Batcher<TraceKey, LoadedTrace>((keys) => readTraces(telemetry, keys), 32);
