import type { DashboardTemplate } from "./dashboard-template.js";

// Language runtimes by the names their OpenTelemetry instrumentations use: Node.js
// (@opentelemetry/instrumentation-runtime-node), the JVM (the Java agent's runtime metrics) and
// CPython (opentelemetry-instrumentation-system-metrics). A runtime a project does not run
// leaves its panels empty.

const SERVICES = "service_name IN {service:Array(String)}";
const RATE_STEP = "greatest({bucket_seconds:UInt32}, 300)";
/** Every runtime metric name this dashboard knows, by prefix. */
const RUNTIME_METRICS =
  "(startsWith(metric_name, 'nodejs.') OR startsWith(metric_name, 'v8js.') OR startsWith(metric_name, 'jvm.') OR startsWith(metric_name, 'process.runtime.'))";

const of = (metric: string) =>
  `FROM metrics WHERE metric_name = '${metric}' AND $__timeFilter(timestamp) AND ${SERVICES}`;

/** A gauge (or up-down sum) averaged per bucket and series, summed over `key` within a series. */
const gauge = (metric: string, key?: string) =>
  key
    ? `SELECT t, service_name, sum(v) AS value FROM (SELECT $__timeInterval(timestamp) AS t, service_name, ${key} AS k, avg(value) AS v ${of(metric)} GROUP BY t, service_name, k) GROUP BY t, service_name ORDER BY t`
    : `SELECT $__timeInterval(timestamp) AS t, service_name, avg(value) AS value ${of(metric)} GROUP BY t, service_name ORDER BY t`;

/** Growth per second of a cumulative column (`value` of a counter, `sum` of a histogram) per service and label. */
const rate = (metric: string, column: "value" | "sum", label: string) =>
  `SELECT t, service_name, label, sum(r) AS per_second FROM (SELECT toStartOfInterval(timestamp, toIntervalSecond(${RATE_STEP})) AS t, service_name, ${label} AS label, cityHash64(toString(attributes), toString(resource_attributes)) AS series, greatest(max(${column}) - min(${column}), 0) / greatest(dateDiff('second', min(timestamp), max(timestamp)), 1) AS r ${of(metric)} GROUP BY t, service_name, label, series HAVING count() > 1) GROUP BY t, service_name, label ORDER BY t`;

export const runtime: DashboardTemplate = {
  id: "runtime",
  title: "Runtime",
  description:
    "Node.js event loop and V8 heap, JVM memory, GC and threads, and CPython memory, CPU and GC, where services report them.",
  tags: ["runtime", "nodejs", "jvm", "python"],
  howToSend: `Each panel reads one runtime's OpenTelemetry metrics; panels of runtimes you do not run
stay empty. Export metrics over OTLP (\`OTEL_METRICS_EXPORTER=otlp\`,
\`OTEL_EXPORTER_OTLP_ENDPOINT=http://<vigil-host>:4318\`,
\`OTEL_EXPORTER_OTLP_HEADERS=x-api-key=vgl_…\`) and turn the runtime's instrumentation on:

- **Node.js**: \`@opentelemetry/instrumentation-runtime-node\` (part of
  \`@opentelemetry/auto-instrumentations-node\`): \`nodejs.eventloop.delay.*\`,
  \`nodejs.eventloop.utilization\`, \`v8js.memory.heap.used\`, \`v8js.gc.duration\`.
- **JVM**: the OpenTelemetry Java agent reports \`jvm.memory.used\`, \`jvm.gc.duration\`,
  \`jvm.thread.count\`, \`jvm.cpu.recent_utilization\` by default.
- **Python**: \`opentelemetry-instrumentation-system-metrics\`:
  \`process.runtime.cpython.memory\`, \`process.runtime.cpython.cpu_time\`,
  \`process.runtime.cpython.gc_count\`, \`process.runtime.cpython.thread_count\`.`,
  dataCheck: `SELECT 1 FROM metrics WHERE ${RUNTIME_METRICS} AND timestamp > now() - INTERVAL 7 DAY LIMIT 1`,
  dashboard: {
    schemaVersion: 1,
    title: "Runtime",
    description: "Node.js, JVM and Python runtime metrics per service.",
    tags: ["runtime"],
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
        tql: `SELECT DISTINCT service_name FROM metrics WHERE ${RUNTIME_METRICS} AND $__timeFilter(timestamp) ORDER BY service_name`,
      },
    ],
    rows: [
      { id: "node", title: "Node.js", y: 0 },
      { id: "jvm", title: "JVM", y: 16 },
      { id: "python", title: "Python", y: 32 },
      { id: "all", title: "Every runtime metric", y: 48 },
    ],
    panels: [
      {
        id: "node-eventloop-delay",
        title: "Event loop delay p99",
        type: "timeseries",
        gridPos: { x: 0, y: 1, w: 6, h: 7 },
        unit: "s",
        queries: [{ tql: gauge("nodejs.eventloop.delay.p99") }],
      },
      {
        id: "node-eventloop-utilization",
        title: "Event loop utilization",
        type: "timeseries",
        gridPos: { x: 6, y: 1, w: 6, h: 7 },
        unit: "percentunit",
        queries: [{ tql: gauge("nodejs.eventloop.utilization") }],
      },
      {
        id: "node-heap",
        title: "V8 heap used",
        type: "timeseries",
        gridPos: { x: 0, y: 8, w: 6, h: 7 },
        unit: "bytes",
        queries: [{ tql: gauge("v8js.memory.heap.used", "attributes['v8js.heap.space.name']") }],
      },
      {
        id: "node-gc",
        title: "V8 GC time per second",
        type: "timeseries",
        gridPos: { x: 6, y: 8, w: 6, h: 7 },
        unit: "s",
        queries: [{ tql: rate("v8js.gc.duration", "sum", "attributes['v8js.gc.type']") }],
      },
      {
        id: "jvm-memory",
        title: "JVM memory used",
        type: "timeseries",
        gridPos: { x: 0, y: 17, w: 6, h: 7 },
        unit: "bytes",
        options: { style: "area", stacked: true },
        queries: [
          {
            tql: `SELECT t, service_name, type, sum(v) AS used FROM (SELECT $__timeInterval(timestamp) AS t, service_name, attributes['jvm.memory.type'] AS type, attributes['jvm.memory.pool.name'] AS pool, avg(value) AS v ${of("jvm.memory.used")} GROUP BY t, service_name, type, pool) GROUP BY t, service_name, type ORDER BY t`,
          },
        ],
      },
      {
        id: "jvm-gc",
        title: "JVM GC time per second",
        type: "timeseries",
        gridPos: { x: 6, y: 17, w: 6, h: 7 },
        unit: "s",
        queries: [{ tql: rate("jvm.gc.duration", "sum", "attributes['jvm.gc.name']") }],
      },
      {
        id: "jvm-threads",
        title: "JVM threads",
        type: "timeseries",
        gridPos: { x: 0, y: 24, w: 6, h: 7 },
        queries: [{ tql: gauge("jvm.thread.count", "attributes['jvm.thread.state']") }],
      },
      {
        id: "jvm-cpu",
        title: "JVM CPU utilization",
        type: "timeseries",
        gridPos: { x: 6, y: 24, w: 6, h: 7 },
        unit: "percentunit",
        queries: [{ tql: gauge("jvm.cpu.recent_utilization") }],
      },
      {
        id: "python-memory",
        title: "CPython memory (RSS)",
        type: "timeseries",
        gridPos: { x: 0, y: 33, w: 6, h: 7 },
        unit: "bytes",
        queries: [
          {
            tql: `SELECT $__timeInterval(timestamp) AS t, service_name, avg(value) AS rss ${of("process.runtime.cpython.memory")} AND attributes['type'] = 'rss' GROUP BY t, service_name ORDER BY t`,
          },
        ],
      },
      {
        id: "python-cpu",
        title: "CPython CPU time per second",
        type: "timeseries",
        gridPos: { x: 6, y: 33, w: 6, h: 7 },
        unit: "s",
        options: { style: "area", stacked: true },
        queries: [{ tql: rate("process.runtime.cpython.cpu_time", "value", "attributes['type']") }],
      },
      {
        id: "python-gc",
        title: "CPython GC collections per second",
        type: "timeseries",
        gridPos: { x: 0, y: 40, w: 6, h: 7 },
        queries: [
          {
            tql: rate(
              "process.runtime.cpython.gc_count",
              "value",
              "concat('generation ', attributes['count'])",
            ),
          },
        ],
      },
      {
        id: "python-threads",
        title: "CPython threads",
        type: "timeseries",
        gridPos: { x: 6, y: 40, w: 6, h: 7 },
        queries: [{ tql: gauge("process.runtime.cpython.thread_count") }],
      },
      {
        id: "runtime-metrics",
        title: "Runtime metrics reported",
        description: "Every runtime metric in the window, with its latest value per service.",
        type: "table",
        gridPos: { x: 0, y: 49, w: 12, h: 9 },
        queries: [
          {
            tql: `SELECT service_name, metric_name, any(unit) AS unit, any(metric_type) AS type, round(argMax(if(metric_type IN ('histogram', 'exponential_histogram', 'summary'), sum, value), timestamp), 4) AS latest, count() AS points FROM metrics WHERE ${RUNTIME_METRICS} AND $__timeFilter(timestamp) AND ${SERVICES} GROUP BY service_name, metric_name ORDER BY service_name, metric_name LIMIT 500`,
          },
        ],
      },
    ],
  },
};
