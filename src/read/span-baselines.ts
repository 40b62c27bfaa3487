import type { SpanBaselines } from "../contracts/traces.js";
import { NotFoundError } from "../lib/domain-errors.js";
import { isoMs } from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql, whereClause } from "./sql.js";
import { spansOf, withTraceRange } from "./trace-index.js";
import { percentileMs } from "./trace-span-filter.js";

/** How far before a trace its operations' usual durations are taken from. */
export const BASELINE_HOURS = 24;
/** Distinct (service, operation) pairs compared at most: a trace naming spans by id has many. */
export const MAX_BASELINE_OPERATIONS = 500;

/**
 * The usual duration (p50, p95) of each (service, span name) of a trace over the 24 h before the
 * trace started: the trace's pairs and start from its own spans, then one grouped query over the
 * window for all of them. A pair with no span in the window has count 0 and null percentiles.
 */
export async function spanBaselines({
  ctx,
  projectId,
  traceId,
}: {
  ctx: ReadCtx;
  projectId: string;
  traceId: string;
}): Promise<SpanBaselines> {
  const sql = new Sql(ctx.deps.read.telemetry, projectId);
  const traces = sql.table("traces");
  const { trace, withClause } = withTraceRange(sql, traceId);
  const pairs = await sql.query<{ service: string; operation: string; start_ms: string }>(
    `${withClause}
     SELECT service_name AS service, operation_name AS operation,
            toUnixTimestamp64Milli(min(timestamp)) AS start_ms
     FROM ${traces} ${whereClause(sql, [spansOf(trace)])}
     GROUP BY service, operation ORDER BY service, operation
     LIMIT ${MAX_BASELINE_OPERATIONS + 1}`,
  );
  if (pairs.length === 0) throw new NotFoundError("Trace", traceId);
  const truncated = pairs.length > MAX_BASELINE_OPERATIONS;
  const compared = pairs.slice(0, MAX_BASELINE_OPERATIONS);
  // The trace's start: its earliest span, of every pair (a cut list may miss it; close enough).
  const toMs = Math.min(...pairs.map((p) => num(p.start_ms)));
  const fromMs = toMs - BASELINE_HOURS * 3_600_000;

  const usual = new Sql(ctx.deps.read.telemetry, projectId);
  const services = [...new Set(compared.map((p) => p.service))];
  const tuples = compared.map((p) => `(${usual.bind(p.service)}, ${usual.bind(p.operation)})`);
  // `IN ((a, b))` would read as the set {a, b}: one pair is listed twice to stay a set of tuples.
  if (tuples.length === 1) tuples.push(tuples[0] as string);
  const rows = await usual.query<Record<string, unknown>>(
    `SELECT service_name AS service, operation_name AS operation, count() AS count,
            quantiles(0.5, 0.95)(duration_ms) AS q
     FROM ${traces}
     ${whereClause(usual, [
       ...usual.within("timestamp", { fromMs, toMs }),
       `service_name IN ${usual.bind(services)}`,
       `(service_name, operation_name) IN (${tuples.join(", ")})`,
     ])}
     GROUP BY service, operation`,
  );
  const found = new Map(rows.map((row) => [`${row.service}\u0000${row.operation}`, row]));
  return {
    traceId,
    from: isoMs(fromMs),
    to: isoMs(toMs),
    operations: compared.map(({ service, operation }) => {
      const row = found.get(`${service}\u0000${operation}`);
      const count = num(row?.count);
      const q = (row?.q as unknown[] | undefined) ?? [];
      return {
        service,
        operation,
        count,
        p50Ms: count === 0 ? null : percentileMs(q[0]),
        p95Ms: count === 0 ? null : percentileMs(q[1]),
      };
    }),
    truncated,
  };
}
