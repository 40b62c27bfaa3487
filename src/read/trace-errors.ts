import { z } from "zod";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { num, Sql, whereClause } from "./sql.js";

/** At most this many (group, span) pairs per trace: a trace failing in every span still answers fast. */
export const MAX_TRACE_ERROR_GROUPS = 1000;

/**
 * Occurrences are stamped with the exception's or the log's own time, which a skewed clock or a
 * late error log puts a little outside the spans; the margin keeps those while partitions prune.
 */
const MARGIN_MS = 3_600_000;

export const TraceErrorGroup = z
  .object({
    errorId: z.string().describe("The error group (`/v1/errors/{errorId}`)"),
    spanId: z
      .string()
      .nullable()
      .describe("The span it occurred in; null for an error log of the trace without a span"),
    type: z.string().describe("The group's exception type"),
    message: z.string().describe("Message of this trace's latest occurrence"),
    occurrences: z.number().int().describe("Occurrences of the group in this span"),
  })
  .meta({ id: "TraceErrorGroup" });
export type TraceErrorGroup = z.infer<typeof TraceErrorGroup>;

/**
 * The error groups with an occurrence in one trace (exception events and error logs), per span,
 * in the order they first occurred, so a span can link to its group; only one span's if named.
 */
export async function traceErrorGroups(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceId: string,
  /** When the spans ran; unknown, it is read from the trace (so this can run beside that read). */
  span: { fromMs: number; toMs: number } | undefined,
  spanId?: string,
): Promise<TraceErrorGroup[]> {
  const sql = new Sql(telemetry, projectId);
  const occurrences = sql.table("error_occurrences");
  const ofTrace = `trace_id = ${sql.bind(traceId)}`;
  const margin = sql.bind(MARGIN_MS);
  // Scalar subqueries are computed first, so the bounds still prune partitions.
  const window = span
    ? sql.within("timestamp", { fromMs: span.fromMs - MARGIN_MS, toMs: span.toMs + MARGIN_MS })
    : [
        `timestamp >= (SELECT min(timestamp) FROM ${sql.table("traces")} ${whereClause(sql, [ofTrace])}) - toIntervalMillisecond(${margin})`,
        `timestamp < (SELECT max(end_timestamp) FROM ${sql.table("traces")} ${whereClause(sql, [ofTrace])}) + toIntervalMillisecond(${margin})`,
      ];
  const where = whereClause(sql, [
    ofTrace,
    ...(spanId === undefined ? [] : [`span_id = ${sql.bind(spanId)}`]),
    ...window,
  ]);
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT o.fingerprint AS fingerprint, o.span_id AS span_id, o.count AS count,
            o.message AS message, g.exception_type AS exception_type
     FROM (SELECT fingerprint, span_id, count() AS count, argMax(message, timestamp) AS message,
                  min(timestamp) AS first
           FROM ${occurrences} ${where}
           GROUP BY fingerprint, span_id
           ORDER BY first, fingerprint, span_id LIMIT ${MAX_TRACE_ERROR_GROUPS}) AS o
     LEFT JOIN (SELECT fingerprint, exception_type FROM ${sql.table("error_groups")} FINAL
                ${whereClause(sql, [`fingerprint IN (SELECT fingerprint FROM ${occurrences} ${where})`])}) AS g
       USING fingerprint
     ORDER BY o.first, o.fingerprint, o.span_id`,
  );
  return rows.map((row) => ({
    errorId: String(row.fingerprint),
    spanId: row.span_id ? String(row.span_id) : null,
    type: String(row.exception_type ?? ""),
    message: String(row.message),
    occurrences: num(row.count),
  }));
}
