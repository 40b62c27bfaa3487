import { Batcher } from "../lib/batcher.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { isoMs, type TimeWindow } from "./params.js";
import { num, Sql, whereClause } from "./sql.js";
import { type TraceErrorGroup, traceErrorGroups } from "./trace-errors.js";
import { anyOf, spansOf, withTraceRanges } from "./trace-index.js";

/** Spans read for one trace at most; a larger trace is cut to its earliest spans and flagged. */
export const MAX_TRACE_SPANS = 50_000;

/** Nanoseconds as milliseconds with microsecond precision. */
export const nsToMs = (ns: number) => Math.round(ns / 1000) / 1000;

/** Which trace of which project. */
export interface TraceKey {
  projectId: string;
  traceId: string;
}

export type SpanRow = Record<string, unknown>;

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

/** Everything `toSpanView` reads of a span row. */
export const SPAN_COLUMNS = `trace_id, span_id, parent_span_id, operation_name, span_kind, service_name,
  toString(toUnixTimestamp64Nano(timestamp)) AS start_ns,
  toString(toUnixTimestamp64Nano(end_timestamp)) AS end_ns,
  status, status_message, http_method, http_route, http_target, http_status_code,
  attributes, resource_attributes,
  arrayMap(t -> toUnixTimestamp64Milli(t), events_timestamp) AS event_ms,
  events_name, events_attributes, links_trace_id, links_span_id, links_attributes`;

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
 * The spans of several traces of one project, at most MAX_TRACE_SPANS + 1 each (one more tells
 * that the trace was cut), only from the granules of their ranges in the trace index. Unordered,
 * which spares the engine a sort; only a trace that hit the cap is read again in time order, so a
 * cut keeps its earliest spans.
 */
function selectSpans(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceIds: readonly string[],
  order: "" | "ORDER BY timestamp",
): Promise<SpanRow[]> {
  const sql = new Sql(telemetry, projectId);
  const { traces, withClause } = withTraceRanges(sql, traceIds);
  return sql.query<SpanRow>(
    `${withClause}
     SELECT ${SPAN_COLUMNS}
     FROM ${sql.table("traces")}
     ${whereClause(sql, [anyOf(traces.map(spansOf))])}
     ${order} LIMIT ${MAX_TRACE_SPANS + 1} BY trace_id`,
  );
}

/**
 * Several traces with their error groups, in two statements per project however many traces:
 * their spans (each trace's range read from the trace index first, in the same statement), then
 * their error groups around the times the spans tell.
 */
export async function readTraces(
  telemetry: TelemetryExecutor,
  keys: readonly TraceKey[],
): Promise<LoadedTrace[]> {
  const byProject = new Map<string, Set<string>>();
  for (const { projectId, traceId } of keys)
    byProject.set(projectId, (byProject.get(projectId) ?? new Set()).add(traceId));
  const found = new Map<string, LoadedTrace>();
  for (const [projectId, idSet] of byProject) {
    const traceIds = [...idSet];
    const rows = await selectSpans(telemetry, projectId, traceIds, "");
    const spans = new Map<string, SpanRow[]>(traceIds.map((id) => [id, []]));
    for (const row of rows) spans.get(String(row.trace_id))?.push(row);
    for (const id of traceIds) {
      if ((spans.get(id)?.length ?? 0) > MAX_TRACE_SPANS)
        spans.set(id, await selectSpans(telemetry, projectId, [id], "ORDER BY timestamp"));
    }
    // After the spans rather than beside them: their times spare a second read of the index.
    const windows = traceIds.flatMap((traceId) => {
      const window = windowOf(spans.get(traceId) ?? []);
      return window ? [{ traceId, window }] : [];
    });
    const errors = await traceErrorGroups(telemetry, projectId, windows);
    for (const id of traceIds) {
      found.set(`${projectId}\u0000${id}`, {
        rows: spans.get(id) ?? [],
        errorGroups: errors.get(id) ?? [],
      });
    }
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
