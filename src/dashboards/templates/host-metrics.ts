import type { DashboardTemplate } from "./dashboard-template.js";

// The OpenTelemetry Collector's hostmetrics receiver, by its own metric names. Counters
// (CPU time, disk and network bytes) are cumulative: a rate is a series' growth over a bucket
// of at least five minutes (the receiver reports every minute), so each bucket holds several.

const HOST = "resource_attributes['host.name']";
const HOSTS = `${HOST} IN {host:Array(String)}`;
const RATE_STEP = "greatest({bucket_seconds:UInt32}, 300)";

/** Points of one metric for the chosen hosts in the window. */
const of = (metric: string) =>
  `FROM metrics WHERE metric_name = '${metric}' AND $__timeFilter(timestamp) AND ${HOSTS}`;

/** Per series (host and the point attributes `keys`) and bucket, a cumulative counter's growth per second. */
const rates = (metric: string, keys: string[]) =>
  `SELECT toStartOfInterval(timestamp, toIntervalSecond(${RATE_STEP})) AS t, ${HOST} AS host, ${keys.map((k) => `attributes['${k}'] AS ${k}`).join(", ")}, greatest(max(value) - min(value), 0) / greatest(dateDiff('second', min(timestamp), max(timestamp)), 1) AS rate ${of(metric)} GROUP BY t, host, ${keys.join(", ")} HAVING count() > 1`;

/** Busy CPU share per host and sample time: 1 − idle, averaged over the cores. */
const CPU_BUSY = `SELECT timestamp, ${HOST} AS host, sumIf(value, attributes['state'] != 'idle') / greatest(uniqExact(attributes['cpu']), 1) AS busy ${of("system.cpu.utilization")} GROUP BY timestamp, host`;
/** Used memory share per host and sample time, from the usage by state. */
const MEMORY_USED = `SELECT timestamp, ${HOST} AS host, sumIf(value, attributes['state'] = 'used') / sum(value) AS used ${of("system.memory.usage")} GROUP BY timestamp, host`;
/** Used share per host, filesystem and sample time (reserved blocks count as not free). */
const FILESYSTEM_USED = `SELECT timestamp, ${HOST} AS host, attributes['mountpoint'] AS mountpoint, sumIf(value, attributes['state'] = 'used') / sum(value) AS used ${of("system.filesystem.usage")} GROUP BY timestamp, host, mountpoint`;

/** The latest reading of each host: CPU, memory, fullest filesystem, load. */
const HOSTS_TABLE = `SELECT c.host AS host, c.cpu_busy AS cpu_busy, m.memory_used AS memory_used, f.fullest_filesystem AS fullest_filesystem, l.load_1m AS load_1m
FROM (SELECT host, round(argMax(busy, timestamp), 3) AS cpu_busy FROM (${CPU_BUSY}) GROUP BY host) AS c
LEFT JOIN (SELECT host, round(argMax(used, timestamp), 3) AS memory_used FROM (${MEMORY_USED}) GROUP BY host) AS m ON m.host = c.host
LEFT JOIN (SELECT host, round(max(used), 3) AS fullest_filesystem FROM (SELECT host, mountpoint, argMax(used, timestamp) AS used FROM (${FILESYSTEM_USED}) GROUP BY host, mountpoint) GROUP BY host) AS f ON f.host = c.host
LEFT JOIN (SELECT ${HOST} AS host, round(argMax(value, timestamp), 2) AS load_1m ${of("system.cpu.load_average.1m")} GROUP BY host) AS l ON l.host = c.host
ORDER BY host`;

export const hostMetrics: DashboardTemplate = {
  id: "host-metrics",
  title: "Host metrics",
  description:
    "CPU, memory, filesystems, disk and network I/O and load per host, as the OpenTelemetry Collector's hostmetrics receiver reports them.",
  tags: ["infrastructure", "hosts", "hostmetrics"],
  howToSend: `Run the **OpenTelemetry Collector** (contrib or core distribution) on each host with
the \`hostmetrics\` receiver and send to Vigil over OTLP. The \`resourcedetection\` processor adds
\`host.name\`, which this dashboard groups by.

\`\`\`yaml
receivers:
  hostmetrics:
    collection_interval: 60s
    scrapers:
      cpu: { metrics: { system.cpu.utilization: { enabled: true } } }
      memory: {}
      load: {}
      filesystem: {}
      disk: {}
      network: {}
processors:
  resourcedetection: { detectors: [system] }
exporters:
  otlphttp:
    endpoint: http://<vigil-host>:4318
    headers: { x-api-key: vgl_… }
service:
  pipelines:
    metrics: { receivers: [hostmetrics], processors: [resourcedetection], exporters: [otlphttp] }
\`\`\`

\`vigil demo\` sends four hosts' metrics under these names.`,
  dataCheck:
    "SELECT 1 FROM metrics WHERE metric_name IN ('system.cpu.utilization', 'system.cpu.time', 'system.memory.usage') AND timestamp > now() - INTERVAL 7 DAY LIMIT 1",
  dashboard: {
    schemaVersion: 1,
    title: "Host metrics",
    description: "CPU, memory, disk, network and load per host (OpenTelemetry hostmetrics).",
    tags: ["infrastructure", "hosts"],
    timeRange: "1h",
    refresh: "off",
    variables: [
      {
        type: "query",
        name: "host",
        label: "Host",
        multi: true,
        includeAll: true,
        default: "$__all",
        tql: `SELECT DISTINCT ${HOST} AS host FROM metrics WHERE metric_name IN ('system.cpu.utilization', 'system.cpu.time', 'system.memory.usage') AND $__timeFilter(timestamp) AND host != '' ORDER BY host`,
      },
    ],
    panels: [
      {
        id: "cpu-now",
        title: "CPU busy",
        type: "stat",
        gridPos: { x: 0, y: 0, w: 3, h: 4 },
        unit: "percentunit",
        decimals: 1,
        options: { sparkline: true },
        thresholds: [
          { value: 0, color: "green" },
          { value: 0.7, color: "yellow" },
          { value: 0.9, color: "red" },
        ],
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, avg(busy) AS cpu FROM (${CPU_BUSY}) GROUP BY t ORDER BY t`,
          },
        ],
      },
      {
        id: "memory-now",
        title: "Memory used",
        type: "stat",
        gridPos: { x: 3, y: 0, w: 3, h: 4 },
        unit: "percentunit",
        decimals: 1,
        options: { sparkline: true },
        thresholds: [
          { value: 0, color: "green" },
          { value: 0.8, color: "yellow" },
          { value: 0.95, color: "red" },
        ],
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, avg(used) AS memory FROM (${MEMORY_USED}) GROUP BY t ORDER BY t`,
          },
        ],
      },
      {
        id: "disk-now",
        title: "Fullest filesystem",
        type: "stat",
        gridPos: { x: 6, y: 0, w: 3, h: 4 },
        unit: "percentunit",
        decimals: 1,
        thresholds: [
          { value: 0, color: "green" },
          { value: 0.8, color: "yellow" },
          { value: 0.9, color: "red" },
        ],
        queries: [{ tql: `SELECT max(used) AS fullest FROM (${FILESYSTEM_USED})` }],
      },
      {
        id: "load-now",
        title: "Highest load (1m)",
        type: "stat",
        gridPos: { x: 9, y: 0, w: 3, h: 4 },
        decimals: 2,
        options: { reduce: "max", sparkline: true },
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, max(value) AS load_1m ${of("system.cpu.load_average.1m")} GROUP BY t ORDER BY t`,
          },
        ],
      },
      {
        id: "cpu-by-host",
        title: "CPU utilization by host",
        type: "timeseries",
        gridPos: { x: 0, y: 4, w: 6, h: 8 },
        unit: "percentunit",
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, host, avg(busy) AS cpu FROM (${CPU_BUSY}) GROUP BY t, host ORDER BY t`,
          },
        ],
      },
      {
        id: "cpu-time-by-state",
        title: "CPU time by state (cores busy)",
        description: "Seconds of CPU per second by state, from the system.cpu.time counter.",
        type: "timeseries",
        gridPos: { x: 6, y: 4, w: 6, h: 8 },
        options: { style: "area", stacked: true },
        queries: [
          {
            tql: `SELECT t, state, sum(rate) AS cores FROM (${rates("system.cpu.time", ["cpu", "state"])}) WHERE state != 'idle' GROUP BY t, state ORDER BY t`,
          },
        ],
      },
      {
        id: "memory-by-state",
        title: "Memory by state",
        type: "timeseries",
        gridPos: { x: 0, y: 12, w: 6, h: 8 },
        unit: "bytes",
        options: { style: "area", stacked: true },
        queries: [
          {
            tql: `SELECT t, state, sum(bytes) AS bytes FROM (SELECT $__timeInterval(timestamp) AS t, ${HOST} AS host, attributes['state'] AS state, avg(value) AS bytes ${of("system.memory.usage")} GROUP BY t, host, state) GROUP BY t, state ORDER BY t`,
          },
        ],
      },
      {
        id: "memory-by-host",
        title: "Memory used by host",
        type: "timeseries",
        gridPos: { x: 6, y: 12, w: 6, h: 8 },
        unit: "percentunit",
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, host, avg(used) AS memory FROM (${MEMORY_USED}) GROUP BY t, host ORDER BY t`,
          },
        ],
      },
      {
        id: "filesystems",
        title: "Filesystem used",
        type: "bargauge",
        gridPos: { x: 0, y: 20, w: 6, h: 8 },
        unit: "percentunit",
        options: { max: 1 },
        thresholds: [
          { value: 0, color: "green" },
          { value: 0.8, color: "yellow" },
          { value: 0.9, color: "red" },
        ],
        queries: [
          {
            tql: `SELECT concat(host, ' ', mountpoint) AS filesystem, argMax(used, timestamp) AS used FROM (${FILESYSTEM_USED}) GROUP BY filesystem ORDER BY used DESC LIMIT 20`,
          },
        ],
      },
      {
        id: "load",
        title: "Load average",
        type: "timeseries",
        gridPos: { x: 6, y: 20, w: 6, h: 8 },
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, ${HOST} AS host, replaceOne(metric_name, 'system.cpu.load_average.', '') AS span, avg(value) AS load FROM metrics WHERE metric_name IN ('system.cpu.load_average.1m', 'system.cpu.load_average.5m', 'system.cpu.load_average.15m') AND $__timeFilter(timestamp) AND ${HOSTS} GROUP BY t, host, span ORDER BY t`,
          },
        ],
      },
      {
        id: "disk-io",
        title: "Disk I/O (bytes per second)",
        type: "timeseries",
        gridPos: { x: 0, y: 28, w: 6, h: 8 },
        unit: "bytes",
        queries: [
          {
            tql: `SELECT t, host, direction, sum(rate) AS bytes_per_second FROM (${rates("system.disk.io", ["device", "direction"])}) GROUP BY t, host, direction ORDER BY t`,
          },
        ],
      },
      {
        id: "network-io",
        title: "Network I/O (bytes per second)",
        type: "timeseries",
        gridPos: { x: 6, y: 28, w: 6, h: 8 },
        unit: "bytes",
        queries: [
          {
            tql: `SELECT t, host, direction, sum(rate) AS bytes_per_second FROM (${rates("system.network.io", ["device", "direction"])}) GROUP BY t, host, direction ORDER BY t`,
          },
        ],
      },
      {
        id: "hosts",
        title: "Hosts",
        type: "table",
        gridPos: { x: 0, y: 36, w: 12, h: 8 },
        queries: [{ tql: HOSTS_TABLE }],
      },
    ],
  },
};
