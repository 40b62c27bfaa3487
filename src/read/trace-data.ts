import type { TelemetryExecutor } from "../telemetry/executor.js";
import { PACKED_ERROR_FIELDS, PACKED_SPAN_FIELDS } from "../telemetry/internal-tables.js";
import { Sql, whereClause } from "./sql.js";
import type { ErrorItem, SpanRow } from "./trace-rows.js";

/** What `trace_data` holds of one trace, each kind of item cut at the limit it was read with. */
export interface TraceData {
  spans: SpanRow[];
  errors: ErrorItem[];
}

/** One packed item's fields by name (the order of PACKED_SPAN_FIELDS or PACKED_ERROR_FIELDS). */
function unpack<K extends string>(
  fields: readonly K[],
  data: unknown,
  into: Record<string, unknown>,
): void {
  const values = JSON.parse(String(data)) as unknown[];
  for (let i = 0; i < fields.length; i++) into[fields[i] as K] = values[i];
}

/** One span of a trace as `trace_data` holds it, with its error occurrences. */
export interface SpanData {
  span: SpanRow;
  /** At most the limit read with; more means there may be others. */
  errors: ErrorItem[];
  /** Start of the trace's earliest span, nanoseconds as text. */
  traceStartNs: string;
}

/**
 * One span of a trace and its error occurrences from `trace_data`, with the trace's start, in one
 * statement. Undefined when `trace_data` has no such span (the trace may predate it: the caller
 * looks the old way, which also tells an unknown span).
 */
export async function readSpanData(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceId: string,
  spanId: string,
  limit: number,
): Promise<SpanData | undefined> {
  const sql = new Sql(telemetry, projectId);
  const trace = `trace_id = ${sql.bind(traceId)}`;
  const rows = await sql.queryRows(
    `WITH (SELECT min(timestamp) FROM ${sql.table("trace_data")}
           ${whereClause(sql, [trace, "item = 'span'"])}) AS trace_start
     SELECT item, data, toString(toUnixTimestamp64Nano(trace_start))
     FROM ${sql.table("trace_data")} ${whereClause(sql, [trace, `span_id = ${sql.bind(spanId)}`])}
     LIMIT ${limit} BY item`,
  );
  let span: SpanRow | undefined;
  const errors: ErrorItem[] = [];
  for (const [item, data] of rows) {
    if (item === "span") {
      // A span sent twice (an exporter's retry) is the same span.
      span ??= unpackSpan(traceId, spanId, data);
    } else errors.push(unpackError(spanId, data));
  }
  const traceStartNs = String(rows[0]?.[2] ?? "");
  return span ? { span, errors, traceStartNs } : undefined;
}

function unpackSpan(traceId: string, spanId: string, data: unknown): SpanRow {
  const span: SpanRow = { trace_id: traceId, span_id: spanId };
  unpack(PACKED_SPAN_FIELDS, data, span);
  return span;
}

function unpackError(spanId: string, data: unknown): ErrorItem {
  const error: Record<string, unknown> = {};
  unpack(PACKED_ERROR_FIELDS, data, error);
  return {
    fingerprint: String(error.fingerprint),
    spanId,
    message: String(error.message),
    timeMs: Number(error.time_ms),
  };
}

/** A trace's error occurrences in `trace_data`, at most `limit`. */
export async function readErrorItems(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceId: string,
  limit: number,
): Promise<ErrorItem[]> {
  const sql = new Sql(telemetry, projectId);
  const rows = await sql.queryRows(
    `SELECT span_id, data FROM ${sql.table("trace_data")}
     ${whereClause(sql, [`trace_id = ${sql.bind(traceId)}`, "item = 'error'"])} LIMIT ${limit}`,
  );
  return rows.map(([spanId, data]) => unpackError(String(spanId), data));
}

/**
 * The spans and error occurrences of several traces of one project from `trace_data`, in one
 * statement: a key range per trace, one column of packed items (ADR 0016). At most `limit` items
 * of each kind per trace, unordered; `spansInTimeOrder` reads spans only, earliest first (a
 * trace over the limit keeps its earliest spans). A trace `trace_data` does not hold is absent
 * from the map.
 */
export async function readTraceData(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceIds: readonly string[],
  options: { limit: number; spansInTimeOrder?: boolean },
): Promise<Map<string, TraceData>> {
  const { limit } = options;
  const perKind = `LIMIT ${limit} BY trace_id, item`;
  if (options.spansInTimeOrder)
    return selectItems(telemetry, projectId, traceIds, "span", `ORDER BY timestamp LIMIT ${limit}`);
  if (traceIds.length > 1) return selectItems(telemetry, projectId, traceIds, undefined, perKind);
  // One trace (the usual lookup): a plain LIMIT spares the engine the LIMIT BY. Only when it cuts
  // (a kind may then be short of its share) is the trace read again per kind.
  const found = await selectItems(telemetry, projectId, traceIds, undefined, `LIMIT ${2 * limit}`);
  const [trace] = found.values();
  if (!trace || trace.spans.length + trace.errors.length < 2 * limit) return found;
  return selectItems(telemetry, projectId, traceIds, undefined, perKind);
}

/** The items of the traces (spans only, or both kinds), with the statement's ORDER BY/LIMIT. */
async function selectItems(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceIds: readonly string[],
  only: "span" | undefined,
  tail: string,
): Promise<Map<string, TraceData>> {
  const sql = new Sql(telemetry, projectId);
  const conditions = [`trace_id IN ${sql.bind(traceIds)}`, ...(only ? [`item = '${only}'`] : [])];
  const rows = await sql.queryRows(
    `SELECT trace_id, item, span_id, data FROM ${sql.table("trace_data")}
     ${whereClause(sql, conditions)} ${tail}`,
  );
  const found = new Map<string, TraceData>();
  for (const [traceId, item, spanId, data] of rows) {
    const id = String(traceId);
    let trace = found.get(id);
    if (!trace) {
      trace = { spans: [], errors: [] };
      found.set(id, trace);
    }
    if (item === "span") trace.spans.push(unpackSpan(id, String(spanId), data));
    else trace.errors.push(unpackError(String(spanId), data));
  }
  return found;
}
