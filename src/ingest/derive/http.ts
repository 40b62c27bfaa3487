import { HTTP_DURATION_BOUNDS_MS } from "../../telemetry/tables.js";
import type { HttpObservation, Row } from "../ingest-batch.js";

const ID_SEGMENT =
  /^(?:\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=.*\d)[0-9a-f]{12,}|(?=.*\d)[A-Za-z0-9_-]{20,})$/i;

/**
 * A route template from a raw path when instrumentation gave none: segments that look like ids
 * (numbers, uuids, long hex or tokens) become `{id}`, so `/orders/93` and `/orders/94` summarize
 * together.
 */
export function normalizeRoute(path: string): string {
  if (!path) return "";
  return path
    .split("/")
    .map((segment) => (ID_SEGMENT.test(segment) ? "{id}" : segment))
    .join("/");
}

/** The histogram bucket of a duration: the first bound it does not exceed, else the last bucket. */
export function durationBucket(ms: number): number {
  let low = 0;
  let high: number = HTTP_DURATION_BOUNDS_MS.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    const bound: number = HTTP_DURATION_BOUNDS_MS[mid] ?? Number.POSITIVE_INFINITY;
    if (ms <= bound) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The duration columns of a per-minute row (http_requests, service_edges) before its first request. */
export interface DurationColumns {
  duration_sum_ms: number;
  duration_min_ms: number;
  duration_max_ms: number;
  duration_buckets: number[];
}

/** The duration columns of a row whose first request took `ms`, not yet added. */
export const emptyDurations = (ms: number): DurationColumns => ({
  duration_sum_ms: 0,
  duration_min_ms: ms,
  duration_max_ms: ms,
  duration_buckets: new Array<number>(HTTP_DURATION_BOUNDS_MS.length + 1).fill(0),
});

/** Adds one request of `ms` to a row's duration columns. */
export function addDuration(row: DurationColumns, ms: number): void {
  row.duration_sum_ms += ms;
  row.duration_min_ms = Math.min(row.duration_min_ms, ms);
  row.duration_max_ms = Math.max(row.duration_max_ms, ms);
  const bucket = durationBucket(ms);
  row.duration_buckets[bucket] = (row.duration_buckets[bucket] ?? 0) + 1;
}

/** Folds observations into one http_requests row per project, minute, service, method, route and status. */
export function summarizeHttp(observations: readonly HttpObservation[]): Row[] {
  const rows = new Map<string, Row & DurationColumns>();
  for (const o of observations) {
    const key = `${o.projectId}\u0000${o.minute}\u0000${o.service}\u0000${o.method}\u0000${o.route}\u0000${o.statusCode}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        project_id: o.projectId,
        timestamp: o.minute,
        service_name: o.service,
        method: o.method,
        route: o.route,
        status_code: o.statusCode,
        request_count: 0,
        error_count: 0,
        ...emptyDurations(o.durationMs),
      };
      rows.set(key, row);
    }
    row.request_count = (row.request_count as number) + 1;
    if (o.failed) row.error_count = (row.error_count as number) + 1;
    addDuration(row, o.durationMs);
  }
  return [...rows.values()];
}
