import { type Sql, whereClause } from "./sql.js";

/**
 * A trace looked up through the trace index: the bound trace id, and the name of a `WITH` alias
 * holding the trace's range there, `(trace id, earliest start, latest start)`. An empty trace id
 * means the index does not know the trace (stored before the index existed, or unknown): the
 * condition below then falls back to the trace-id bloom filter, the lookup the index replaces.
 */
export interface IndexedTrace {
  id: string;
  range: string;
}

/**
 * Binds each trace and the `WITH` clause reading their ranges: one scalar subquery for them all
 * (a binary search of the index's key per part and trace), then each trace's entry. Scalar
 * subqueries run before the statement is planned, so the conditions below narrow the primary
 * key like constants, however many traces a batch holds.
 */
export function withTraceRanges(
  sql: Sql,
  traceIds: readonly string[],
): { traces: IndexedTrace[]; withClause: string } {
  const traces = traceIds.map((traceId, i) => ({ id: sql.bind(traceId), range: `range_${i}` }));
  return { traces, withClause: rangesClause(sql, traces) };
}

/** withTraceRanges of one trace. */
export function withTraceRange(
  sql: Sql,
  traceId: string,
): { trace: IndexedTrace; withClause: string } {
  const trace = { id: sql.bind(traceId), range: "range_0" };
  return { trace, withClause: rangesClause(sql, [trace]) };
}

function rangesClause(sql: Sql, traces: readonly IndexedTrace[]): string {
  const ranges = `(SELECT groupArray((trace_id, first, last)) FROM (
      SELECT trace_id, min(start_min) AS first, max(start_max) AS last
      FROM ${sql.table("trace_index")}
      ${whereClause(sql, [`trace_id IN (${traces.map((t) => t.id).join(", ")})`])}
      GROUP BY trace_id)) AS trace_ranges`;
  const entries = traces.map(
    ({ id, range }) => `arrayFirst(r -> r.1 = ${id}, trace_ranges) AS ${range}`,
  );
  return `WITH ${[ranges, ...entries].join(",\n")}`;
}

/** Whether the index knows the trace (an SQL expression). */
export const indexed = ({ range }: IndexedTrace): string => `${range}.1 != ''`;

/** The trace's spans: only the granules of its range when the index knows it. */
export const spansOf = (trace: IndexedTrace): string =>
  `(trace_id = ${trace.id} AND (NOT ${indexed(trace)} OR timestamp >= ${trace.range}.2 AND timestamp <= ${trace.range}.3))`;

/** Conditions combined with OR, parenthesized. */
export const anyOf = (conditions: readonly string[]): string =>
  conditions.length === 1 ? (conditions[0] as string) : `(${conditions.join(" OR ")})`;
