import type { DashboardTemplate } from "./dashboard-template.js";

// Vigil's own monitors, from the points every recorded check writes to the project's metrics
// (docs/monitors.md, "Checks as metrics"): vigil.monitor.up (1/0), vigil.monitor.duration and
// vigil.monitor.step.duration (ms), with monitor.id, monitor.name, monitor.type and location.

const MONITORS = "attributes['monitor.name'] IN {monitor:Array(String)}";
const of = (metric: string) =>
  `FROM metrics WHERE metric_name = '${metric}' AND $__timeFilter(timestamp) AND ${MONITORS}`;
const UP = of("vigil.monitor.up");
const DURATION = of("vigil.monitor.duration");

const UPTIME_THRESHOLDS = [
  { value: 0, color: "red" as const },
  { value: 0.99, color: "yellow" as const },
  { value: 0.999, color: "green" as const },
];

export const monitorsUptime: DashboardTemplate = {
  id: "monitors-uptime",
  title: "Monitors and uptime",
  description: "Uptime, response times and failed checks of this project's API and flow monitors.",
  tags: ["monitors", "uptime", "synthetics"],
  howToSend: `Nothing to install: every check of this project's **monitors** (Monitors → New
monitor) writes \`vigil.monitor.up\` (1 passed, 0 failed), \`vigil.monitor.duration\` and
\`vigil.monitor.step.duration\` (ms) to the project's metrics under the service
\`vigil-monitors\`, with the attributes \`monitor.id\`, \`monitor.name\`, \`monitor.type\`,
\`location\`, \`check.trigger\` and, for a failed check, \`check.failure\`. Create a monitor and the
panels fill as it is checked.`,
  dataCheck:
    "SELECT 1 FROM metrics WHERE metric_name = 'vigil.monitor.up' AND timestamp > now() - INTERVAL 7 DAY LIMIT 1",
  dashboard: {
    schemaVersion: 1,
    title: "Monitors and uptime",
    description: "Uptime, response times and failures of this project's monitors.",
    tags: ["monitors", "uptime"],
    timeRange: "24h",
    refresh: "1m",
    variables: [
      {
        type: "query",
        name: "monitor",
        label: "Monitor",
        multi: true,
        includeAll: true,
        default: "$__all",
        tql: "SELECT DISTINCT attributes['monitor.name'] AS monitor FROM metrics WHERE metric_name = 'vigil.monitor.up' AND $__timeFilter(timestamp) ORDER BY monitor",
      },
    ],
    panels: [
      {
        id: "uptime",
        title: "Uptime",
        type: "stat",
        gridPos: { x: 0, y: 0, w: 3, h: 4 },
        unit: "percentunit",
        decimals: 2,
        thresholds: UPTIME_THRESHOLDS,
        queries: [{ tql: `SELECT avg(value) AS uptime ${UP}` }],
      },
      {
        id: "checks",
        title: "Checks",
        type: "stat",
        gridPos: { x: 3, y: 0, w: 3, h: 4 },
        unit: "count",
        queries: [{ tql: `SELECT count() AS checks ${UP}` }],
      },
      {
        id: "failures",
        title: "Failed checks",
        type: "stat",
        gridPos: { x: 6, y: 0, w: 3, h: 4 },
        unit: "count",
        thresholds: [
          { value: 0, color: "green" },
          { value: 1, color: "red" },
        ],
        queries: [{ tql: `SELECT countIf(value = 0) AS failed ${UP}` }],
      },
      {
        id: "response-time",
        title: "Average response time",
        type: "stat",
        gridPos: { x: 9, y: 0, w: 3, h: 4 },
        unit: "ms",
        decimals: 0,
        options: { reduce: "mean", sparkline: true },
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, avg(value) AS response_ms ${DURATION} GROUP BY t ORDER BY t`,
          },
        ],
      },
      {
        id: "uptime-by-monitor",
        title: "Uptime by monitor",
        type: "bargauge",
        gridPos: { x: 0, y: 4, w: 5, h: 8 },
        unit: "percentunit",
        decimals: 2,
        options: { max: 1 },
        thresholds: UPTIME_THRESHOLDS,
        queries: [
          {
            tql: `SELECT attributes['monitor.name'] AS monitor, avg(value) AS uptime ${UP} GROUP BY monitor ORDER BY uptime`,
          },
        ],
      },
      {
        id: "availability",
        title: "Availability over time",
        type: "timeseries",
        gridPos: { x: 5, y: 4, w: 7, h: 8 },
        unit: "percentunit",
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, attributes['monitor.name'] AS monitor, avg(value) AS uptime ${UP} GROUP BY t, monitor ORDER BY t`,
          },
        ],
      },
      {
        id: "response-by-monitor",
        title: "Response time by monitor",
        type: "timeseries",
        gridPos: { x: 0, y: 12, w: 6, h: 8 },
        unit: "ms",
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, attributes['monitor.name'] AS monitor, avg(value) AS response_ms ${DURATION} GROUP BY t, monitor ORDER BY t`,
          },
        ],
      },
      {
        id: "failures-over-time",
        title: "Failed checks over time",
        type: "timeseries",
        gridPos: { x: 6, y: 12, w: 6, h: 8 },
        unit: "count",
        options: { style: "bars", stacked: true },
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, attributes['monitor.name'] AS monitor, countIf(value = 0) AS failed ${UP} GROUP BY t, monitor HAVING failed > 0 ORDER BY t`,
          },
        ],
      },
      {
        id: "recent-failures",
        title: "Recent failures",
        type: "table",
        gridPos: { x: 0, y: 20, w: 7, h: 9 },
        queries: [
          {
            tql: `SELECT timestamp, attributes['monitor.name'] AS monitor, attributes['monitor.type'] AS type, attributes['location'] AS location, attributes['check.failure'] AS reason ${UP} AND value = 0 ORDER BY timestamp DESC LIMIT 100`,
          },
        ],
      },
      {
        id: "steps",
        title: "Slowest steps (p95)",
        type: "table",
        gridPos: { x: 7, y: 20, w: 5, h: 9 },
        queries: [
          {
            tql: `SELECT attributes['monitor.name'] AS monitor, attributes['step.name'] AS step, count() AS runs, round(quantile(0.95)(value), 0) AS p95_ms ${of("vigil.monitor.step.duration")} GROUP BY monitor, step ORDER BY p95_ms DESC LIMIT 50`,
          },
        ],
      },
    ],
  },
};
