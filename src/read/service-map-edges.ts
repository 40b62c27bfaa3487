import type { ServiceEdge, ServiceNodeKind } from "../contracts/services.js";
import type { TimeWindow } from "../lib/list-params.js";
import { HTTP_DURATION_BOUNDS_MS } from "../telemetry/tables.js";
import { type DurationHistogram, histogramPercentile } from "./percentiles.js";
import { ratio, roundMs } from "./span-figures.js";
import { num, type Sql, whereClause } from "./sql.js";

/** The calls of one source → target pair over a window, merged from service_edges' minutes. */
export interface EdgeTotals {
  /** '' for the target's own entry spans. */
  source: string;
  target: string;
  targetKind: ServiceNodeKind;
  calls: number;
  errors: number;
  histogram: DurationHistogram;
}

interface EdgeRow {
  source_service: string;
  target: string;
  kind: string;
  calls: string;
  errors: string;
  min_ms: number;
  max_ms: number;
  hist: (string | number)[];
}

const KINDS = new Set<string>(["service", "database", "external", "messaging"]);

/**
 * Rows are per minute: every minute that overlaps the window counts, so what is read is the
 * window widened to whole minutes. Rates divide by its length and the map reports it.
 */
export const minuteWindow = (window: TimeWindow): TimeWindow => ({
  fromMs: Math.floor(window.fromMs / 60_000) * 60_000,
  toMs: Math.ceil(window.toMs / 60_000) * 60_000,
});

/** The seconds of the whole minutes a window's edges are read over. */
export const edgeSeconds = (window: TimeWindow): number => {
  const minutes = minuteWindow(window);
  return (minutes.toMs - minutes.fromMs) / 1000;
};

/**
 * service_edges summed per (source, target, kind) over the window, in one statement: every
 * edge, or those from or to `service`, and every service's entry spans (source ''). A call
 * recorded as external whose target is the name of a service with entry spans in the window (a
 * `peer.service` or `server.address` naming it, when the server span went unpaired: another
 * ingest node, or later than the wait) is counted as a call to that service. No subquery: on a
 * cluster a second Distributed table inside IN would be refused (distributed_product_mode).
 */
export async function readEdges(
  sql: Sql,
  window: TimeWindow,
  service?: string,
): Promise<EdgeTotals[]> {
  const name = service === undefined ? undefined : sql.bind(service);
  const rows = await sql.query<EdgeRow>(
    `SELECT source_service, target, target_kind AS kind,
       sum(calls) AS calls, sum(errors) AS errors, min(duration_min_ms) AS min_ms,
       max(duration_max_ms) AS max_ms, sumForEach(duration_buckets) AS hist
     FROM ${sql.table("service_edges")}
     ${whereClause(sql, [
       ...sql.within("timestamp", minuteWindow(window)),
       ...(name ? [`(source_service = ${name} OR target = ${name} OR source_service = '')`] : []),
     ])}
     GROUP BY source_service, target, kind
     ORDER BY calls DESC, source_service, target`,
  );
  const totals = rows.filter((row) => KINDS.has(row.kind)).map(toTotals);
  const known = new Set(totals.filter((t) => t.source === "").map((t) => t.target));
  const merged = new Map<string, EdgeTotals>();
  for (const edge of totals) {
    const kind =
      edge.targetKind === "external" && known.has(edge.target) ? "service" : edge.targetKind;
    const key = `${edge.source}\u0000${edge.target}\u0000${kind}`;
    const found = merged.get(key);
    merged.set(key, found ? mergeTotals(found, edge) : { ...edge, targetKind: kind });
  }
  return [...merged.values()].sort((a, b) => b.calls - a.calls);
}

const toTotals = (row: EdgeRow): EdgeTotals => ({
  source: row.source_service,
  target: row.target,
  targetKind: row.kind as ServiceNodeKind,
  calls: num(row.calls),
  errors: num(row.errors),
  histogram: {
    bounds: HTTP_DURATION_BOUNDS_MS,
    counts: row.hist.map(num),
    min: row.min_ms,
    max: row.max_ms,
  },
});

/** Two totals of calls into one: sums, bucket-wise sums, the smaller min and larger max. */
export function mergeTotals<T extends EdgeTotals>(into: T, from: EdgeTotals): T {
  const counts = into.histogram.counts.map((c, i) => c + (from.histogram.counts[i] ?? 0));
  return {
    ...into,
    calls: into.calls + from.calls,
    errors: into.errors + from.errors,
    histogram: {
      bounds: into.histogram.bounds,
      counts,
      min: Math.min(into.histogram.min, from.histogram.min),
      max: Math.max(into.histogram.max, from.histogram.max),
    },
  };
}

const percentile = (h: DurationHistogram, q: number) => roundMs(histogramPercentile(h, q));

/** p50, p95, p99 of merged duration buckets (docs/read-api.md, How percentiles are estimated). */
export const latencyOf = (h: DurationHistogram) => ({
  p50Ms: percentile(h, 0.5),
  p95Ms: percentile(h, 0.95),
  p99Ms: percentile(h, 0.99),
});

/** The API's view of an edge over a window `seconds` long. */
export const edgeView = (edge: EdgeTotals, seconds: number): ServiceEdge => ({
  source: edge.source,
  target: edge.target,
  targetKind: edge.targetKind,
  calls: edge.calls,
  rate: seconds > 0 ? edge.calls / seconds : 0,
  errors: edge.errors,
  errorRate: ratio(edge.errors, edge.calls),
  ...latencyOf(edge.histogram),
});
