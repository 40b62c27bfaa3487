import { num, type Sql, whereClause } from "../sql.js";
import type { AnalyzerContext } from "./recommendation.js";

/** One endpoint of one service over the window, from the per-minute http_requests summaries. */
export interface EndpointStats {
  service: string;
  method: string;
  route: string;
  requests: number;
  errors: number;
  durationSumMs: number;
  durationMaxMs: number;
  /** Requests per duration bucket (HTTP_DURATION_BOUNDS_MS and one open bucket). */
  buckets: number[];
  /** Requests by status code. */
  statuses: Map<number, number>;
}

/** Endpoints read per analysis; the busiest by total time first, far more than any finding needs. */
const MAX_ENDPOINTS = 2000;

/** Every endpoint of the window, and each service's total server time. */
export async function endpointStats(
  ctx: AnalyzerContext,
): Promise<{ endpoints: EndpointStats[]; serviceTimeMs: Map<string, number> }> {
  const sql = ctx.sql();
  const where = whereClause(sql, sql.within("timestamp", ctx.window));
  const table = sql.table("http_requests");
  const [rows, services] = await Promise.all([
    sql.query<Record<string, unknown>>(
      `SELECT service_name, method, route, sum(request_count) AS requests,
              sum(error_count) AS errors, sum(duration_sum_ms) AS duration_sum,
              max(duration_max_ms) AS duration_max, sumForEach(duration_buckets) AS buckets,
              sumMap(map(status_code, request_count)) AS statuses
       FROM ${table} ${where}
       GROUP BY service_name, method, route
       ORDER BY duration_sum DESC, service_name, method, route
       LIMIT ${MAX_ENDPOINTS}`,
    ),
    sql.query<{ service_name: string; total: unknown }>(
      `SELECT service_name, sum(duration_sum_ms) AS total FROM ${table} ${where} GROUP BY service_name`,
    ),
  ]);
  return {
    endpoints: rows.map((row) => ({
      service: String(row.service_name),
      method: String(row.method),
      route: String(row.route),
      requests: num(row.requests),
      errors: num(row.errors),
      durationSumMs: num(row.duration_sum),
      durationMaxMs: num(row.duration_max),
      buckets: (row.buckets as unknown[]).map(num),
      statuses: new Map(
        Object.entries(row.statuses as Record<string, unknown>).map(([code, n]) => [
          Number(code),
          num(n),
        ]),
      ),
    })),
    serviceTimeMs: new Map(services.map((s) => [s.service_name, num(s.total)])),
  };
}

/** `METHOD route`, the subject of endpoint findings. */
export const endpointName = (e: Pick<EndpointStats, "method" | "route">) =>
  `${e.method} ${e.route}`;

/**
 * One row per `METHOD route`: a request through a gateway and a backend is summarized by both,
 * so the one `better` prefers speaks for the endpoint and nothing is counted twice.
 */
export function pickPerEndpoint(
  rows: readonly EndpointStats[],
  better: (a: EndpointStats, b: EndpointStats) => boolean,
): EndpointStats[] {
  const picked = new Map<string, EndpointStats>();
  for (const row of rows) {
    const key = endpointName(row);
    const current = picked.get(key);
    if (!current || better(row, current)) picked.set(key, row);
  }
  return [...picked.values()];
}

/** The endpoint's status codes as breakdown entries, most frequent first. */
export function statusBreakdown(endpoint: EndpointStats, limit = 5) {
  return [...endpoint.statuses]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([code, count]) => ({ dimension: "status_code", value: String(code), count }));
}

/**
 * Sample traces of an endpoint's server spans: the slowest, or the newest failing ones. Routes
 * the ingester derived from a raw path or span name are matched on those columns too.
 */
export async function endpointSamples(
  ctx: AnalyzerContext,
  endpoint: EndpointStats,
  kind: "slowest" | "failing",
  limit = 3,
): Promise<string[]> {
  const sql = ctx.sql();
  const route = sql.bind(endpoint.route);
  const conditions = [
    ...sql.within("timestamp", ctx.window),
    "span_kind = 'server'",
    `service_name = ${sql.bind(endpoint.service)}`,
    `if(http_method = '', '_OTHER', http_method) = ${sql.bind(endpoint.method)}`,
    `(http_route = ${route} OR (http_route = '' AND (http_target = ${route} OR operation_name = ${route})))`,
    ...(kind === "failing" ? ["(status = 'error' OR http_status_code >= 500)"] : []),
  ];
  const order = kind === "slowest" ? "max(duration_ms) DESC" : "max(timestamp) DESC";
  const rows = await sql.query<{ trace_id: string }>(
    `SELECT trace_id FROM ${sql.table("traces")} ${whereClause(sql, conditions)}
     GROUP BY trace_id ORDER BY ${order}, trace_id LIMIT ${limit}`,
  );
  return rows.map((r) => r.trace_id);
}

/** Attributes naming the client of a request, most specific first. */
export const CLIENT_ADDRESS_ATTRIBUTES = [
  "client.address",
  "http.client_ip",
  "source.address",
  "network.peer.address",
  "net.sock.peer.addr",
  "net.peer.ip",
] as const;

/** The client address of a span, '' when none of the attributes is set. */
export function clientAddressSql(sql: Sql): string {
  const names = sql.bind([...CLIENT_ADDRESS_ATTRIBUTES]);
  return `attributes[arrayFirst(k -> attributes[k] != '', ${names})]`;
}

/** The model a call asked for (what a developer changes), else the one that answered. */
export const MODEL_SQL = "if(request_model != '', request_model, response_model)";
