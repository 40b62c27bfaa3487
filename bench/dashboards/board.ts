import type { CreateDashboardInput, PanelInput } from "../../src/contracts/dashboards.js";

/*
 * The benchmark's dashboards over the synthetic spans (bench/harness/synthetic-spans.ts): twenty
 * panels of every data panel type, each its own TQL query over the window and the `service`
 * variable, and a one-panel baseline. What a team would put on a service dashboard.
 */

const IN_SERVICE = "service_name IN {service:Array(String)}";
const WINDOW = `$__timeFilter(timestamp) AND ${IN_SERVICE}`;
const SERVER = `${WINDOW} AND span_kind = 'server'`;

type Spec = Pick<PanelInput, "title" | "type" | "unit" | "options"> & { tql: string };

const PANELS: Spec[] = [
  {
    title: "Spans per service",
    type: "timeseries",
    tql: `SELECT $__timeInterval(timestamp) AS t, service_name, count() AS spans FROM traces WHERE ${WINDOW} GROUP BY t, service_name ORDER BY t`,
  },
  {
    title: "Errors per service",
    type: "timeseries",
    options: { style: "bars", stacked: true },
    tql: `SELECT $__timeInterval(timestamp) AS t, service_name, countIf(status = 'error') AS errors FROM traces WHERE ${WINDOW} GROUP BY t, service_name ORDER BY t`,
  },
  {
    title: "p95 duration per service",
    type: "timeseries",
    unit: "ms",
    tql: `SELECT $__timeInterval(timestamp) AS t, service_name, quantile(0.95)(duration_ms) AS p95 FROM traces WHERE ${WINDOW} GROUP BY t, service_name ORDER BY t`,
  },
  {
    title: "Spans by kind",
    type: "timeseries",
    options: { style: "area", stacked: true },
    tql: `SELECT $__timeInterval(timestamp) AS t, span_kind, count() AS spans FROM traces WHERE ${WINDOW} GROUP BY t, span_kind ORDER BY t`,
  },
  {
    title: "Server responses by status",
    type: "timeseries",
    options: { style: "bars" },
    tql: `SELECT $__timeInterval(timestamp) AS t, toString(http_status_code) AS code, count() AS requests FROM traces WHERE ${SERVER} GROUP BY t, code ORDER BY t`,
  },
  {
    title: "Requests",
    type: "stat",
    unit: "count",
    options: { sparkline: true, reduce: "sum" },
    tql: `SELECT $__timeInterval(timestamp) AS t, count() AS requests FROM traces WHERE ${SERVER} GROUP BY t ORDER BY t`,
  },
  {
    title: "Error rate",
    type: "stat",
    unit: "percent",
    tql: `SELECT 100 * countIf(status = 'error') / greatest(count(), 1) AS error_rate FROM traces WHERE ${SERVER}`,
  },
  {
    title: "p95",
    type: "stat",
    unit: "ms",
    tql: `SELECT quantile(0.95)(duration_ms) AS p95 FROM traces WHERE ${SERVER}`,
  },
  {
    title: "p99",
    type: "stat",
    unit: "ms",
    tql: `SELECT quantile(0.99)(duration_ms) AS p99 FROM traces WHERE ${SERVER}`,
  },
  {
    title: "Services",
    type: "stat",
    tql: `SELECT uniq(service_name) AS services FROM traces WHERE ${WINDOW}`,
  },
  {
    title: "Routes",
    type: "table",
    tql: `SELECT http_route, count() AS requests, countIf(status = 'error') AS errors, round(quantile(0.95)(duration_ms), 1) AS p95_ms FROM traces WHERE ${SERVER} GROUP BY http_route ORDER BY requests DESC LIMIT 50`,
  },
  {
    title: "Slowest operations",
    type: "table",
    unit: "ms",
    tql: `SELECT service_name, operation_name, max(duration_ms) AS max_ms, avg(duration_ms) AS avg_ms FROM traces WHERE ${WINDOW} GROUP BY service_name, operation_name ORDER BY max_ms DESC LIMIT 20`,
  },
  {
    title: "Spans by service",
    type: "pie",
    tql: `SELECT service_name, count() AS spans FROM traces WHERE ${WINDOW} GROUP BY service_name ORDER BY spans DESC`,
  },
  {
    title: "Status",
    type: "pie",
    options: { donut: true },
    tql: `SELECT status, count() AS spans FROM traces WHERE ${WINDOW} GROUP BY status`,
  },
  {
    title: "p95 by route",
    type: "bargauge",
    unit: "ms",
    tql: `SELECT http_route, quantile(0.95)(duration_ms) AS p95 FROM traces WHERE ${SERVER} GROUP BY http_route ORDER BY p95 DESC`,
  },
  {
    title: "Errors by service",
    type: "bargauge",
    tql: `SELECT service_name, countIf(status = 'error') AS errors FROM traces WHERE ${WINDOW} GROUP BY service_name ORDER BY errors DESC`,
  },
  {
    title: "Latency heatmap",
    type: "heatmap",
    unit: "ms",
    tql: `SELECT $__timeInterval(timestamp) AS t, pow(2, ceil(log2(greatest(duration_ms, 1)))) AS le, count() AS spans FROM traces WHERE ${SERVER} GROUP BY t, le ORDER BY t`,
  },
  {
    title: "Slowest traces",
    type: "traces",
    tql: `SELECT trace_id, timestamp, service_name, operation_name, duration_ms, status FROM traces WHERE ${SERVER} ORDER BY duration_ms DESC LIMIT 50`,
  },
  {
    title: "Mean duration by route",
    type: "timeseries",
    unit: "ms",
    tql: `SELECT $__timeInterval(timestamp) AS t, http_route, avg(duration_ms) AS mean FROM traces WHERE ${SERVER} GROUP BY t, http_route ORDER BY t`,
  },
  {
    title: "Requests by region",
    type: "table",
    tql: `SELECT attributes['region'] AS region, count() AS requests, countIf(status = 'error') AS errors FROM traces WHERE ${SERVER} GROUP BY region ORDER BY requests DESC`,
  },
];

/** The dashboard with the first `count` panels, four to a row. */
export function benchBoard(count: number): CreateDashboardInput {
  return {
    title: `Bench: ${count} panel${count === 1 ? "" : "s"}`,
    timeRange: "24h",
    variables: [
      {
        type: "query",
        name: "service",
        multi: true,
        includeAll: true,
        default: "$__all",
        tql: "SELECT DISTINCT service_name FROM traces WHERE $__timeFilter(timestamp) ORDER BY service_name",
      },
    ],
    panels: PANELS.slice(0, count).map(({ tql, ...panel }, i) => ({
      ...panel,
      gridPos: { x: (i % 4) * 3, y: Math.floor(i / 4) * 8, w: 3, h: 8 },
      queries: [{ tql }],
    })),
  };
}

export const BOARD_PANELS = PANELS.length;
