// The http_requests rows the read-http-metrics tests store: a ten-minute window of two services'
// routes, with their histograms.
import { HTTP_DURATION_BOUNDS_MS } from "../../src/telemetry/tables.js";

export const MIN = 60_000;
export const HOUR = 3_600_000;
/** Hour-aligned, well inside retention: the fixture window is [T0, T0 + 10 min). */
export const T0 = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
/** A separate hour for the spans ingested over OTLP. */
export const T1 = T0 - 2 * HOUR;
export const iso = (ms: number) => new Date(ms).toISOString();

/** minute after T0, service, method, route, status, count, errors, sum, min, max (ms), buckets */
export type RowSpec = [
  number,
  string,
  string,
  string,
  number,
  number,
  number,
  number,
  number,
  number,
  Record<number, number>,
];
/** One http_requests row; `buckets` maps histogram bucket index → count. */
export const row = (
  project: string,
  [minute, service, method, route, status, count, errors, sum, min, max, buckets]: RowSpec,
) => ({
  project_id: project,
  timestamp: (T0 + minute * MIN) / 1000,
  service_name: service,
  method,
  route,
  status_code: status,
  request_count: count,
  error_count: errors,
  duration_sum_ms: sum,
  duration_min_ms: min,
  duration_max_ms: max,
  duration_buckets: Array.from(
    { length: HTTP_DURATION_BOUNDS_MS.length + 1 },
    (_, i) => buckets[i] ?? 0,
  ),
});

/**
 * Project A's rows. Bucket indexes: 0 ≤5, 1 ≤10, 2 ≤25, 3 ≤50, 7 ≤200, 9 ≤400, 12 ≤1000,
 * 21 above 60000 ms. Two rows share the first key, as the per-minute table allows.
 */
export const ROWS: RowSpec[] = [
  [0, "checkout", "GET", "/cart", 200, 4, 0, 80, 10, 30, { 1: 1, 2: 2, 3: 1 }],
  [0, "checkout", "GET", "/cart", 200, 2, 0, 20, 5, 15, { 0: 1, 2: 1 }],
  [0, "checkout", "POST", "/pay", 500, 1, 1, 400, 400, 400, { 9: 1 }],
  [3, "checkout", "GET", "/cart", 404, 2, 0, 4, 2, 2, { 0: 2 }],
  [3, "api", "GET", "/old", 301, 1, 0, 1, 1, 1, { 0: 1 }],
  [9, "checkout", "POST", "/pay", 201, 2, 0, 1000, 200, 800, { 7: 1, 12: 1 }],
  [9, "api", "GET", "/stream", 0, 1, 1, 70000, 70000, 70000, { 21: 1 }],
  // Outside the window: the minute before `from`, and the minute at `to` (exclusive).
  [-1, "checkout", "GET", "/cart", 200, 100, 0, 100, 1, 1, { 0: 100 }],
  [10, "checkout", "GET", "/cart", 200, 50, 0, 50, 1, 1, { 0: 50 }],
];

export interface Body {
  from: string;
  to: string;
  resolution: string;
  requestedResolution?: string | null;
  notice?: string | null;
  bucketSeconds: number;
  series: {
    time: string;
    count: number;
    errors: number;
    errorRate: number;
    p50Ms: number | null;
    p95Ms: number | null;
    p99Ms: number | null;
  }[];
  totals: Record<string, number | null>;
  routes: Record<string, string | number | null>[];
  routeCount: number;
  statusClasses: Record<string, number>;
  errors?: { field: string }[];
}

export const empty = (minute: number) => ({
  time: iso(T0 + minute * MIN),
  count: 0,
  errors: 0,
  errorRate: 0,
  p50Ms: null,
  p95Ms: null,
  p99Ms: null,
});
