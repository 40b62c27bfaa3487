import { type Sql, whereClause } from "./sql.js";

/**
 * A trace looked up through `trace_data`'s key: the bound trace id, and the name of a `WITH` alias
 * holding `(spans, earliest start, latest start)` of its spans there. No spans means `trace_data`
 * does not hold the trace (stored before it existed, or unknown): the condition below then falls
 * back to the trace-id bloom filter of `traces`.
 */
export interface IndexedTrace {
  id: string;
  range: string;
}

/**
 * Binds the trace and the `WITH` clause reading its range: a scalar subquery over its key range
 * in `trace_data` (spans only). Scalar subqueries run before the statement is planned, so the
 * conditions below narrow the primary key of `traces` like constants.
 */
export function withTraceRange(
  sql: Sql,
  traceId: string,
): { trace: IndexedTrace; withClause: string } {
  const trace = { id: sql.bind(traceId), range: "trace_range" };
  const withClause = `WITH (SELECT (count(), min(timestamp), max(timestamp))
      FROM ${sql.table("trace_data")}
      ${whereClause(sql, [`trace_id = ${trace.id}`, "item = 'span'"])}) AS ${trace.range}`;
  return { trace, withClause };
}

/** Whether `trace_data` holds the trace (an SQL expression). */
export const indexed = ({ range }: IndexedTrace): string => `${range}.1 > 0`;

/** The trace's spans: only the granules of its range when `trace_data` holds it. */
export const spansOf = (trace: IndexedTrace): string =>
  `(trace_id = ${trace.id} AND (NOT ${indexed(trace)} OR timestamp >= ${trace.range}.2 AND timestamp <= ${trace.range}.3))`;

/** Conditions combined with OR, parenthesized. */
export const anyOf = (conditions: readonly string[]): string =>
  conditions.length === 1 ? (conditions[0] as string) : `(${conditions.join(" OR ")})`;
