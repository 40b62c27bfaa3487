import type { TelemetryExecutor } from "../telemetry/executor.js";
import { PACKED_ERROR_FIELDS, PACKED_SPAN_FIELDS } from "../telemetry/internal-tables.js";
import { Sql, whereClause } from "./sql.js";
import type { SpanRow } from "./trace-lookup.js";

/** One error occurrence of a trace, as `trace_data` packs it. */
export interface ErrorItem {
  fingerprint: string;
  /** '' for an error log of the trace without a span. */
  spanId: string;
  message: string;
  timeMs: number;
}

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
  const sql = new Sql(telemetry, projectId);
  const conditions = [`trace_id IN ${sql.bind(traceIds)}`];
  const tail = options.spansInTimeOrder
    ? `ORDER BY timestamp LIMIT ${options.limit}`
    : `LIMIT ${options.limit} BY trace_id, item`;
  if (options.spansInTimeOrder) conditions.push("item = 'span'");
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
    if (item === "span") {
      const span: SpanRow = { trace_id: id, span_id: String(spanId) };
      unpack(PACKED_SPAN_FIELDS, data, span);
      trace.spans.push(span);
    } else {
      const error: Record<string, unknown> = {};
      unpack(PACKED_ERROR_FIELDS, data, error);
      trace.errors.push({
        fingerprint: String(error.fingerprint),
        spanId: String(spanId),
        message: String(error.message),
        timeMs: Number(error.time_ms),
      });
    }
  }
  return found;
}
