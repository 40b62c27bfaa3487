import type { TraceErrorGroup } from "../contracts/traces.js";
import { occurrenceKey } from "../ingest/derive/occurrence-key.js";
import type { TimeWindow } from "../lib/list-params.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { OCCURRENCES_IN_SPAN } from "./occurrences.js";
import { num, Sql, whereClause } from "./sql.js";
import { anyOf } from "./trace-index.js";
import type { ErrorItem } from "./trace-rows.js";

/** At most this many (group, span) pairs per trace: a trace failing in every span still answers fast. */
export const MAX_TRACE_ERROR_GROUPS = 1000;

/**
 * Occurrences are stamped with the exception's or the log's own time, which a skewed clock or a
 * late error log puts a little outside the spans; the margin keeps those while partitions prune.
 */
const MARGIN_MS = 3_600_000;

/** A trace whose error groups are asked for, and when its spans ran (epoch ms). */
export interface TraceErrorsOf {
  traceId: string;
  window: TimeWindow;
}

/**
 * The error groups with an occurrence in each of several traces of one project (exception events
 * and error logs), per span, in the order they first occurred, so a span can link to its group;
 * only one span's if named. One statement for all the traces; a second one names the groups'
 * types when there are any (most traces have none).
 */
export async function traceErrorGroups(
  telemetry: TelemetryExecutor,
  projectId: string,
  traces: readonly TraceErrorsOf[],
  spanId?: string,
): Promise<Map<string, TraceErrorGroup[]>> {
  const found = new Map<string, TraceErrorGroup[]>(traces.map((t) => [t.traceId, []]));
  if (traces.length === 0) return found;
  const sql = new Sql(telemetry, projectId);
  const each = traces.map(({ traceId, window }) => {
    const around = { fromMs: window.fromMs - MARGIN_MS, toMs: window.toMs + MARGIN_MS };
    return `(trace_id = ${sql.bind(traceId)} AND ${sql.within("timestamp", around).join(" AND ")})`;
  });
  const where = whereClause(sql, [
    anyOf(each),
    ...(spanId === undefined ? [] : [`span_id = ${sql.bind(spanId)}`]),
  ]);
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT trace_id, fingerprint, span_id, ${OCCURRENCES_IN_SPAN} AS count,
            argMax(message, timestamp) AS latest_message, min(timestamp) AS first
     FROM ${sql.table("error_occurrences")} ${where}
     GROUP BY trace_id, fingerprint, span_id
     ORDER BY trace_id, first, fingerprint, span_id
     LIMIT ${MAX_TRACE_ERROR_GROUPS} BY trace_id`,
  );
  const types = await groupTypes(telemetry, projectId, [
    ...new Set(rows.map((r) => String(r.fingerprint))),
  ]);
  for (const row of rows) {
    found.get(String(row.trace_id))?.push({
      errorId: String(row.fingerprint),
      spanId: row.span_id ? String(row.span_id) : null,
      type: types.get(String(row.fingerprint)) ?? "",
      message: String(row.latest_message),
      occurrences: num(row.count),
    });
  }
  return found;
}

/**
 * The error groups of several traces from their error items (`trace_data`), as traceErrorGroups
 * tells them from `error_occurrences`: per group and span, in the order they first occurred, the
 * latest message, occurrences counted once whatever their sources; the groups' types in one statement when there are any.
 */
export async function errorGroupsOfItems(
  telemetry: TelemetryExecutor,
  projectId: string,
  itemsByTrace: ReadonlyMap<string, readonly ErrorItem[]>,
): Promise<Map<string, TraceErrorGroup[]>> {
  interface Group {
    fingerprint: string;
    spanId: string;
    count: number;
    /** In a span, the messages seen: one occurrence each, whatever its sources. */
    messages: Set<string>;
    first: number;
    latest: number;
    message: string;
  }
  const grouped = new Map<string, Group[]>();
  const fingerprints = new Set<string>();
  for (const [traceId, items] of itemsByTrace) {
    const groups = new Map<string, Group>();
    for (const item of items) {
      const key = `${item.fingerprint}\u0000${item.spanId}`;
      const group = groups.get(key);
      if (!group) {
        groups.set(key, {
          fingerprint: item.fingerprint,
          spanId: item.spanId,
          count: 1,
          messages: new Set([item.message]),
          first: item.timeMs,
          latest: item.timeMs,
          message: item.message,
        });
        continue;
      }
      // occurrenceKey: without a key (no span), every item is an occurrence of its own.
      const keyed =
        occurrenceKey({
          fingerprint: item.fingerprint,
          traceId,
          spanId: item.spanId,
          message: "",
        }) !== undefined;
      if (!keyed) group.count++;
      else if (!group.messages.has(item.message)) {
        group.messages.add(item.message);
        group.count++;
      }
      if (item.timeMs < group.first) group.first = item.timeMs;
      if (item.timeMs >= group.latest) {
        group.latest = item.timeMs;
        group.message = item.message;
      }
    }
    const ordered = [...groups.values()]
      .sort(
        (a, b) =>
          a.first - b.first ||
          compareText(a.fingerprint, b.fingerprint) ||
          compareText(a.spanId, b.spanId),
      )
      .slice(0, MAX_TRACE_ERROR_GROUPS);
    for (const group of ordered) fingerprints.add(group.fingerprint);
    grouped.set(traceId, ordered);
  }
  const types = await groupTypes(telemetry, projectId, [...fingerprints]);
  return new Map(
    [...grouped].map(([traceId, groups]) => [
      traceId,
      groups.map((g) => ({
        errorId: g.fingerprint,
        spanId: g.spanId || null,
        type: types.get(g.fingerprint) ?? "",
        message: g.message,
        occurrences: g.count,
      })),
    ]),
  );
}

/** Byte order, as the engine sorts text. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The exception type of each error group (its current version). */
async function groupTypes(
  telemetry: TelemetryExecutor,
  projectId: string,
  fingerprints: readonly string[],
): Promise<Map<string, string>> {
  if (fingerprints.length === 0) return new Map();
  const sql = new Sql(telemetry, projectId);
  const rows = await sql.query<{ fingerprint: string; exception_type: string }>(
    `SELECT fingerprint, exception_type FROM ${sql.table("error_groups")} FINAL
     ${whereClause(sql, [`fingerprint IN ${sql.bind(fingerprints)}`])}`,
  );
  return new Map(rows.map((r) => [r.fingerprint, r.exception_type]));
}
