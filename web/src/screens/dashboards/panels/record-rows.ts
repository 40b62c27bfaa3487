import type { TqlColumn } from "../../../../../src/contracts/tql.js";
import { formatCell, isTimeType } from "../../../lib/column-types.js";
import { timeIso } from "./table-rows.js";

/**
 * Log and trace rows read by column name (the TQL tables' names, a few common aliases), the
 * rest kept as fields. Pure, tested in test/web-dashboard-panel-parts.test.ts.
 */

/** A record's known columns: each the first of its names the result has. */
export function pickColumns<K extends string>(
  columns: readonly TqlColumn[],
  names: Readonly<Record<K, readonly string[]>>,
): Record<K, number> {
  const lower = columns.map((c) => c.name.toLowerCase());
  const picked = {} as Record<K, number>;
  for (const key of Object.keys(names) as K[])
    picked[key] = (names[key] ?? []).map((n) => lower.indexOf(n)).find((i) => i >= 0) ?? -1;
  return picked;
}

export const LOG_COLUMNS = {
  time: ["timestamp", "time", "t"],
  level: ["level", "severity_text"],
  service: ["service_name", "service"],
  message: ["message", "body"],
  traceId: ["trace_id"],
  spanId: ["span_id"],
  id: ["id", "log_id"],
} as const;

export const TRACE_COLUMNS = {
  traceId: ["trace_id"],
  spanId: ["span_id"],
  time: ["timestamp", "start_time", "time", "t"],
  service: ["service_name", "service"],
  operation: ["operation_name", "name", "root_operation"],
  route: ["http_route", "route"],
  duration: ["duration_ms", "duration"],
  status: ["status"],
} as const;

export interface RecordRow<K extends string> {
  /** Each known column's text ("" when absent or null). */
  values: Record<K, string>;
  /** The time as ISO, when there is one. */
  iso: string | null;
  /** The other columns, name and text. */
  fields: [string, string][];
}

/** Rows with their known columns picked out; the time from `time`, else the first time column. */
export function recordRows<K extends string>(
  columns: readonly TqlColumn[],
  rows: readonly (readonly unknown[])[],
  names: Readonly<Record<K | "time", readonly string[]>>,
): RecordRow<K | "time">[] {
  const picked = pickColumns(columns, names);
  if (picked.time < 0) picked.time = columns.findIndex((c) => isTimeType(c.type));
  const known = new Set(Object.values<number>(picked));
  const timeType = columns[picked.time]?.type ?? "";
  return rows.map((row) => {
    const values = {} as Record<K | "time", string>;
    for (const key of Object.keys(picked) as (K | "time")[]) {
      const value = row[picked[key]];
      values[key] =
        picked[key] < 0 || value === null || value === undefined ? "" : formatCell(value);
    }
    return {
      values,
      iso: picked.time < 0 ? null : timeIso(row[picked.time], timeType),
      fields: columns
        .map((c, i): [string, string] => [c.name, formatCell(row[i])])
        .filter((_, i) => !known.has(i)),
    };
  });
}
