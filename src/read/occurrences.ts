import { occurrenceKeySql } from "../telemetry/occurrence-key-sql.js";

/** The occurrence key (occurrenceKey) as every reader builds it. */
const KEY = occurrenceKeySql();

/**
 * error_occurrences holds every source of an occurrence: a span's exception event and a log
 * record of the same span with the same type and message are two rows of one occurrence
 * (occurrenceKey, docs/ingestion.md "One occurrence"). Readers count occurrences, not rows.
 */

/**
 * One row per occurrence of `table` under `where` (a WHERE clause): `fingerprint`, `trace_id`,
 * `span_id`, `message`, `at` (its earliest source's time under `where`) and `service` (that
 * source's service). The sources of one occurrence are found wherever they fall in the window;
 * a source outside it is not read, so an occurrence whose first source is before the window
 * counts at its second source's time (docs/read-api.md). One without a span is a row of its own.
 */
export function occurrencesOf(table: string, where: string): string {
  return `(SELECT fingerprint, trace_id, span_id, message, min(timestamp) AS at,
            argMin(service_name, timestamp) AS service
     FROM ${table} ${where} AND ${KEY.has}
     GROUP BY ${KEY.columns}
     UNION ALL
     SELECT fingerprint, trace_id, span_id, message, timestamp AS at, service_name AS service
     FROM ${table} ${where} AND NOT (${KEY.has}))`;
}

/**
 * Occurrences among rows grouped by trace, fingerprint and span (one trace's error groups): in a
 * span, its distinct messages (occurrenceKey); without one, every row.
 */
export const OCCURRENCES_IN_SPAN = `if(NOT (${KEY.has}), count(), uniqExact(message))`;
