import {
  TIMELINE_LIMIT,
  TIMELINE_MESSAGE_CHARS,
  type TimelineEntry,
} from "../contracts/browser-sessions.js";
import { errorOccurrence } from "../ingest/derive/error-occurrences.js";
import { occurrenceKey } from "../ingest/derive/occurrence-key.js";
import { PAGE_ATTRIBUTES, pageOf } from "../ingest/derive/sessions.js";
import type { Source } from "../ingest/ingest-batch.js";
import { isoMs, type TimeWindow } from "../lib/list-params.js";
import type { ReadDeps } from "./read-deps.js";
import { num, Sql, whereClause } from "./sql.js";

/** Sort key: time in nanoseconds, then kind (span, ai, log, error), then the item's id. */
interface Keyed {
  ns: bigint;
  rank: number;
  id: string;
  entry: TimelineEntry;
}
const RANK = { span: 0, ai: 1, log: 2, error: 3 } as const;

type Row = Record<string, unknown>;
const orNull = (value: unknown) => (value ? String(value) : null);
const str = (value: unknown) => String(value ?? "");

/** Only the attributes the page rule reads (derive/sessions.ts `pageOf`), not whole maps. */
const PAGE_KEYS = PAGE_ATTRIBUTES.map((k) => `'${k}'`).join(", ");
const PAGE_COLUMNS = `mapFilter((k, v) -> k IN (${PAGE_KEYS}), attributes) AS page_attributes,
  mapFilter((k, v) -> k IN (${PAGE_KEYS}), resource_attributes) AS page_resource`;
/** Spans also say whether they are a browser's documentLoad span. */
const SPAN_PAGE_COLUMNS = `${PAGE_COLUMNS},
  source = 'frontend' AND operation_name = 'documentLoad' AS document_load`;
const pageFromRow = (row: Row): string | null =>
  orNull(
    pageOf(
      row.page_attributes as Record<string, string>,
      row.page_resource as Record<string, string>,
      Boolean(row.document_load),
    ),
  );

/**
 * The session's spans, AI spans, logs and errors in one time order. Each kind is read in that
 * same order and limited to one more than the cap, so the merged first TIMELINE_LIMIT entries
 * are exact and `truncated` tells whether anything was left out.
 */
export async function readTimeline(
  deps: ReadDeps,
  projectId: string,
  sessionId: string,
  window: TimeWindow,
): Promise<{ entries: TimelineEntry[]; truncated: boolean }> {
  const sql = new Sql(deps.telemetry, projectId);
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    `session_id = ${sql.bind(sessionId)}`,
  ]);
  const cap = `LIMIT ${TIMELINE_LIMIT + 1}`;
  const ns = (column: string) => `toString(toUnixTimestamp64Nano(${column})) AS ns`;
  const traces = sql.table("traces");
  const [spans, aiSpans, logs, exceptions, failedSpans] = await Promise.all([
    // AI spans are shown once, as `ai` entries: the same attribute test ingestion uses.
    sql.query<Row>(
      `SELECT ${ns("timestamp")}, trace_id, span_id, parent_span_id, operation_name, service_name,
              duration_ms, status, ${SPAN_PAGE_COLUMNS}
       FROM ${traces} ${where} AND NOT arrayExists(k -> startsWith(k, 'gen_ai.'), mapKeys(attributes))
       ORDER BY timestamp, span_id ${cap}`,
    ),
    sql.query<Row>(
      `SELECT ${ns("timestamp")}, trace_id, span_id, operation_name, service_name, duration_ms,
              status, ai_operation, provider, request_model, response_model, input_tokens,
              output_tokens, total_tokens, cost_usd, ${PAGE_COLUMNS}
       FROM ${sql.table("ai_spans")} ${where} ORDER BY timestamp, span_id ${cap}`,
    ),
    sql.query<Row>(
      `SELECT ${ns("timestamp")}, id, level, message, service_name, trace_id, span_id, source,
              if(level IN ('error', 'fatal'), attributes, map()) AS error_attributes,
              resource_attributes['telemetry.sdk.language'] AS sdk_language, ${PAGE_COLUMNS}
       FROM ${sql.table("logs")} ${where} ORDER BY timestamp, id ${cap}`,
    ),
    sql.query<Row>(
      `SELECT ${ns("e.1")}, e.4 AS event_index, trace_id, span_id, service_name, operation_name,
              status_message, source, e.3 AS event_attributes,
              resource_attributes['telemetry.sdk.language'] AS sdk_language
       FROM ${traces}
       ARRAY JOIN arrayFilter(x -> x.2 = 'exception',
         arrayZip(events_timestamp, events_name, events_attributes, arrayEnumerate(events_name))) AS e
       ${where} AND has(events_name, 'exception')
       ORDER BY e.1, span_id, event_index ${cap}`,
    ),
    sql.query<Row>(
      `SELECT ${ns("timestamp")}, trace_id, span_id, service_name, operation_name, status_message
       FROM ${traces} ${where} AND status = 'error' AND NOT has(events_name, 'exception')
       ORDER BY timestamp, span_id ${cap}`,
    ),
  ]);
  const keyed: Keyed[] = [];
  const add = (row: Row, id: string, entry: TimelineEntry) =>
    keyed.push({ ns: BigInt(str(row.ns)), rank: RANK[entry.kind], id, entry });
  const time = (row: Row) => isoMs(Number(BigInt(str(row.ns)) / 1_000_000n));
  const spanFields = (row: Row) => ({
    traceId: str(row.trace_id),
    spanId: str(row.span_id),
    name: str(row.operation_name),
    service: str(row.service_name),
    durationMs: num(row.duration_ms),
    status: str(row.status),
    page: pageFromRow(row),
  });

  for (const row of spans)
    add(row, str(row.span_id), {
      time: time(row),
      kind: "span",
      ...spanFields(row),
      parentSpanId: orNull(row.parent_span_id),
    });
  for (const row of aiSpans)
    add(row, str(row.span_id), {
      time: time(row),
      kind: "ai",
      ...spanFields(row),
      operation: str(row.ai_operation),
      provider: str(row.provider),
      model: str(row.response_model) || str(row.request_model),
      inputTokens: num(row.input_tokens),
      outputTokens: num(row.output_tokens),
      totalTokens: num(row.total_tokens),
      costUsd: num(row.cost_usd),
    });
  for (const row of logs) {
    const logId = str(row.id);
    const level = str(row.level);
    const message = str(row.message);
    const link = {
      service: str(row.service_name),
      traceId: orNull(row.trace_id),
      spanId: orNull(row.span_id),
    };
    add(row, logId, {
      time: time(row),
      kind: "log",
      logId,
      level,
      message: message.slice(0, TIMELINE_MESSAGE_CHARS),
      ...link,
      page: pageFromRow(row),
    });
    if (level !== "error" && level !== "fatal") continue;
    // Grouped exactly as ingestion groups it, so errorId is the error group's id.
    const occurrence = errorOccurrence({
      projectId,
      attributes: row.error_attributes as Record<string, string>,
      fallbackType: level,
      fallbackMessage: message,
      timestampMs: 0,
      service: link.service,
      traceId: str(row.trace_id),
      spanId: str(row.span_id),
      source: str(row.source) as Source,
      fatal: level === "fatal",
      sdkLanguage: str(row.sdk_language),
    });
    add(row, logId, {
      time: time(row),
      kind: "error",
      source: "log",
      errorId: occurrence.fingerprint,
      type: occurrence.type,
      message: occurrence.message,
      ...link,
      logId,
    });
  }
  for (const row of exceptions) {
    const spanId = str(row.span_id);
    const occurrence = errorOccurrence({
      projectId,
      attributes: row.event_attributes as Record<string, string>,
      fallbackType: "Error",
      fallbackMessage: str(row.status_message) || str(row.operation_name),
      timestampMs: 0,
      service: str(row.service_name),
      traceId: str(row.trace_id),
      spanId,
      source: str(row.source) as Source,
      fatal: false,
      sdkLanguage: str(row.sdk_language),
    });
    add(row, `${spanId}:${String(num(row.event_index)).padStart(6, "0")}`, {
      time: time(row),
      kind: "error",
      source: "exception",
      errorId: occurrence.fingerprint,
      type: occurrence.type,
      message: occurrence.message,
      service: str(row.service_name),
      traceId: str(row.trace_id),
      spanId,
      logId: null,
    });
  }
  for (const row of failedSpans)
    add(row, str(row.span_id), {
      time: time(row),
      kind: "error",
      source: "span_status",
      errorId: null,
      type: null,
      message: str(row.status_message) || str(row.operation_name),
      service: str(row.service_name),
      traceId: str(row.trace_id),
      spanId: str(row.span_id),
      logId: null,
    });

  const merged = oneEntryPerError(keyed);
  merged.sort(
    (a, b) =>
      (a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0) ||
      a.rank - b.rank ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return {
    entries: merged.slice(0, TIMELINE_LIMIT).map((k) => k.entry),
    truncated: merged.length > TIMELINE_LIMIT,
  };
}

/**
 * The session's errors as its error count counts them: an exception event and a log of the same
 * span, type and message are one entry (the exception's, at the earlier time, with the log's id),
 * and a failed span's own entry goes when another error of that span is there.
 */
function oneEntryPerError(keyed: readonly Keyed[]): Keyed[] {
  const first = new Map<string, Keyed>();
  const spansWithErrors = new Set<string>();
  const out: Keyed[] = [];
  for (const k of keyed) {
    const e = k.entry;
    if (e.kind !== "error" || e.source === "span_status" || e.errorId === null) {
      out.push(k);
      continue;
    }
    spansWithErrors.add(`${e.traceId}:${e.spanId}`);
    const key = occurrenceKey({
      fingerprint: e.errorId,
      traceId: e.traceId ?? "",
      spanId: e.spanId ?? "",
      message: e.message,
    });
    const seen = key === undefined ? undefined : first.get(key);
    if (key === undefined || !seen) {
      if (key !== undefined) first.set(key, k);
      out.push(k);
      continue;
    }
    if (seen.entry.kind !== "error") continue;
    const logId = seen.entry.logId ?? e.logId;
    const exception = seen.entry.source === "exception" ? seen.entry : e;
    const earlier = k.ns < seen.ns ? k : seen;
    seen.entry = { ...exception, time: earlier.entry.time, logId };
    seen.ns = earlier.ns;
    seen.id = earlier.id;
  }
  return out.filter(
    (k) =>
      k.entry.kind !== "error" ||
      k.entry.source !== "span_status" ||
      !spansWithErrors.has(`${k.entry.traceId}:${k.entry.spanId}`),
  );
}
