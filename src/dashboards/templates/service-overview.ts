import type { DashboardTemplate } from "./dashboard-template.js";

// Rate, errors and latency per service and route, from the per-minute HTTP summaries
// (http_requests, cheap at any range) and the server spans (traces: exact percentiles).

const SERVICES = "service_name IN {service:Array(String)}";
/** http_requests rows are per minute: a bucket is never shorter than that. */
const MINUTE_STEP = "greatest({bucket_seconds:UInt32}, 60)";
const MINUTES = `toStartOfInterval(timestamp, toIntervalSecond(${MINUTE_STEP}))`;
/** Upper bounds (ms) of http_requests.duration_buckets; the last bucket (above 60 s) as 120 s. */
const BOUNDS =
  "[5, 10, 25, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000, 30000, 60000, 120000]";
const SERVER_SPANS = `$__timeFilter(timestamp) AND span_kind = 'server' AND ${SERVICES}`;

export const serviceOverview: DashboardTemplate = {
  id: "service-overview",
  title: "Service overview",
  description:
    "Request rate, errors and latency (p50, p95, p99) per service and route, from traced HTTP servers.",
  tags: ["services", "http", "red"],
  howToSend: `This dashboard reads the **server spans** your services send: any OpenTelemetry SDK
with its HTTP server instrumentation (Express, Fastify, Django, Flask, Spring, ASP.NET, net/http…)
gives them. Vigil summarizes them per minute (\`http_requests\`) as it writes.

\`\`\`sh
OTEL_SERVICE_NAME=checkout
OTEL_EXPORTER_OTLP_ENDPOINT=http://<vigil-host>:4318
OTEL_EXPORTER_OTLP_HEADERS=x-api-key=vgl_…
OTEL_TRACES_EXPORTER=otlp
\`\`\`

Routes come from the \`http.route\` attribute, status codes from \`http.response.status_code\`.
Try it with \`vigil demo\`, which sends a few services' traffic.`,
  dataCheck: "SELECT 1 FROM http_requests WHERE timestamp > now() - INTERVAL 7 DAY LIMIT 1",
  dashboard: {
    schemaVersion: 1,
    title: "Service overview",
    description: "Rate, errors and latency per service and route.",
    tags: ["services", "http"],
    timeRange: "1h",
    refresh: "off",
    variables: [
      {
        type: "query",
        name: "service",
        label: "Service",
        multi: true,
        includeAll: true,
        default: "$__all",
        tql: "SELECT DISTINCT service_name FROM http_requests WHERE $__timeFilter(timestamp) ORDER BY service_name",
      },
    ],
    panels: [
      {
        id: "requests",
        title: "Requests",
        type: "stat",
        gridPos: { x: 0, y: 0, w: 3, h: 4 },
        unit: "count",
        options: { reduce: "sum", sparkline: true },
        queries: [
          {
            tql: `SELECT ${MINUTES} AS t, sum(request_count) AS requests FROM http_requests WHERE $__timeFilter(timestamp) AND ${SERVICES} GROUP BY t ORDER BY t`,
          },
        ],
      },
      {
        id: "throughput",
        title: "Throughput",
        type: "stat",
        gridPos: { x: 3, y: 0, w: 3, h: 4 },
        unit: "reqps",
        decimals: 2,
        queries: [
          {
            tql: `SELECT sum(request_count) / greatest(dateDiff('second', {from:DateTime64(3)}, {to:DateTime64(3)}), 1) AS per_second FROM http_requests WHERE $__timeFilter(timestamp) AND ${SERVICES}`,
          },
        ],
      },
      {
        id: "error-rate",
        title: "Error rate",
        type: "stat",
        gridPos: { x: 6, y: 0, w: 3, h: 4 },
        unit: "percentunit",
        decimals: 2,
        thresholds: [
          { value: 0, color: "green" },
          { value: 0.01, color: "yellow" },
          { value: 0.05, color: "red" },
        ],
        queries: [
          {
            tql: `SELECT sum(error_count) / greatest(sum(request_count), 1) AS error_rate FROM http_requests WHERE $__timeFilter(timestamp) AND ${SERVICES}`,
          },
        ],
      },
      {
        id: "p95",
        title: "p95 latency",
        type: "stat",
        gridPos: { x: 9, y: 0, w: 3, h: 4 },
        unit: "ms",
        decimals: 0,
        thresholds: [
          { value: 0, color: "green" },
          { value: 500, color: "yellow" },
          { value: 2000, color: "red" },
        ],
        queries: [
          {
            tql: `SELECT quantile(0.95)(duration_ms) AS p95 FROM traces WHERE ${SERVER_SPANS}`,
          },
        ],
      },
      {
        id: "rate-by-service",
        title: "Requests per second by service",
        type: "timeseries",
        gridPos: { x: 0, y: 4, w: 6, h: 8 },
        unit: "reqps",
        options: { style: "area", stacked: true },
        queries: [
          {
            tql: `SELECT ${MINUTES} AS t, service_name, sum(request_count) / ${MINUTE_STEP} AS rps FROM http_requests WHERE $__timeFilter(timestamp) AND ${SERVICES} GROUP BY t, service_name ORDER BY t`,
          },
        ],
      },
      {
        id: "errors-by-service",
        title: "Error rate by service",
        type: "timeseries",
        gridPos: { x: 6, y: 4, w: 6, h: 8 },
        unit: "percentunit",
        queries: [
          {
            tql: `SELECT ${MINUTES} AS t, service_name, sum(error_count) / sum(request_count) AS error_rate FROM http_requests WHERE $__timeFilter(timestamp) AND ${SERVICES} GROUP BY t, service_name ORDER BY t`,
          },
        ],
      },
      {
        id: "latency-percentiles",
        title: "Latency p50 / p95 / p99",
        type: "timeseries",
        gridPos: { x: 0, y: 12, w: 6, h: 8 },
        unit: "ms",
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, quantile(0.5)(duration_ms) AS p50, quantile(0.95)(duration_ms) AS p95, quantile(0.99)(duration_ms) AS p99 FROM traces WHERE ${SERVER_SPANS} GROUP BY t ORDER BY t`,
          },
        ],
      },
      {
        id: "p95-by-service",
        title: "p95 latency by service",
        type: "timeseries",
        gridPos: { x: 6, y: 12, w: 6, h: 8 },
        unit: "ms",
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, service_name, quantile(0.95)(duration_ms) AS p95 FROM traces WHERE ${SERVER_SPANS} GROUP BY t, service_name ORDER BY t`,
          },
        ],
      },
      {
        id: "latency-heatmap",
        title: "Latency distribution",
        description: "Requests per duration bucket (upper bound in ms) over time.",
        type: "heatmap",
        gridPos: { x: 0, y: 20, w: 12, h: 8 },
        unit: "ms",
        queries: [
          {
            tql: `SELECT t, ${BOUNDS}[i] AS le_ms, buckets[i] AS requests FROM (SELECT ${MINUTES} AS t, sumForEach(duration_buckets) AS buckets FROM http_requests WHERE $__timeFilter(timestamp) AND ${SERVICES} GROUP BY t) ARRAY JOIN arrayEnumerate(buckets) AS i WHERE requests > 0 ORDER BY t, le_ms`,
          },
        ],
      },
      {
        id: "routes",
        title: "Routes",
        type: "table",
        gridPos: { x: 0, y: 28, w: 12, h: 10 },
        links: [
          {
            title: "Traces of this service",
            kind: "traces",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the row's column, filled in by the dashboard
            params: "service=${service}",
          },
        ],
        queries: [
          {
            tql: `SELECT service_name AS service, if(http_route != '', http_route, operation_name) AS route, count() AS requests, countIf(status = 'error' OR http_status_code >= 500) AS errors, round(100 * errors / requests, 2) AS error_pct, round(quantile(0.5)(duration_ms), 1) AS p50_ms, round(quantile(0.95)(duration_ms), 1) AS p95_ms, round(quantile(0.99)(duration_ms), 1) AS p99_ms FROM traces WHERE ${SERVER_SPANS} GROUP BY service, route ORDER BY requests DESC LIMIT 100`,
          },
        ],
      },
      {
        id: "slowest-routes",
        title: "Slowest routes (p95)",
        type: "bargauge",
        gridPos: { x: 0, y: 38, w: 6, h: 8 },
        unit: "ms",
        queries: [
          {
            tql: `SELECT concat(service_name, ' ', if(http_route != '', http_route, operation_name)) AS route, round(quantile(0.95)(duration_ms), 1) AS p95_ms FROM traces WHERE ${SERVER_SPANS} GROUP BY route ORDER BY p95_ms DESC LIMIT 10`,
          },
        ],
      },
      {
        id: "status-classes",
        title: "Responses by status class",
        type: "pie",
        gridPos: { x: 6, y: 38, w: 6, h: 8 },
        unit: "count",
        options: { donut: true },
        queries: [
          {
            tql: `SELECT concat(toString(intDiv(status_code, 100)), 'xx') AS class, sum(request_count) AS requests FROM http_requests WHERE $__timeFilter(timestamp) AND ${SERVICES} GROUP BY class ORDER BY class`,
          },
        ],
      },
      {
        id: "failed-requests",
        title: "Recent failed requests",
        type: "traces",
        gridPos: { x: 0, y: 46, w: 6, h: 10 },
        queries: [
          {
            tql: `SELECT trace_id, timestamp, service_name, operation_name, duration_ms, status, http_route FROM traces WHERE ${SERVER_SPANS} AND (status = 'error' OR http_status_code >= 500) ORDER BY timestamp DESC LIMIT 50`,
          },
        ],
      },
      {
        id: "error-logs",
        title: "Error logs",
        type: "logs",
        gridPos: { x: 6, y: 46, w: 6, h: 10 },
        queries: [
          {
            tql: `SELECT timestamp, level, service_name, message, trace_id, span_id FROM logs WHERE $__timeFilter(timestamp) AND level IN ('error', 'fatal') AND ${SERVICES} ORDER BY timestamp DESC LIMIT 100`,
          },
        ],
      },
    ],
  },
};
