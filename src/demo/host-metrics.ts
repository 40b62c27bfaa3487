// The demo's hosts as the OpenTelemetry Collector's hostmetrics receiver reports them: the
// receiver's metric names, attributes and types (cumulative sums for counters and usage,
// gauges for utilization and load), one point per minute per series.

import { attrs, ns, type Obj, type Random, resource } from "./otlp-json.js";

/** What generator.ts yields: one metrics export request (with its data point count). */
export interface HostMetricsRequest {
  signal: "metrics";
  body: Obj;
  items: number;
}

interface Host {
  name: string;
  /** Non-idle CPU share around which the host's load moves. */
  busy: number;
  cpus: number;
  memoryBytes: number;
  /** Share of memory in use at the window's start; it creeps up over the window. */
  memoryUsed: number;
  diskBytes: number;
  diskUsed: number;
  /** Bytes received per minute; sent is a share of it. */
  networkPerMinute: number;
}

const GIB = 1024 ** 3;
const HOSTS: readonly Host[] = [
  {
    name: "api-gateway-1",
    busy: 0.2,
    cpus: 2,
    memoryBytes: 4 * GIB,
    memoryUsed: 0.5,
    diskBytes: 40 * GIB,
    diskUsed: 0.4,
    networkPerMinute: 1_000_000,
  },
  {
    name: "orders-service-1",
    busy: 0.3,
    cpus: 4,
    memoryBytes: 8 * GIB,
    memoryUsed: 0.6,
    diskBytes: 40 * GIB,
    diskUsed: 0.4,
    networkPerMinute: 2_000_000,
  },
  {
    name: "assistant-1",
    busy: 0.4,
    cpus: 2,
    memoryBytes: 8 * GIB,
    memoryUsed: 0.7,
    diskBytes: 40 * GIB,
    diskUsed: 0.4,
    networkPerMinute: 3_000_000,
  },
  {
    name: "db-1",
    busy: 0.75,
    cpus: 4,
    memoryBytes: 16 * GIB,
    memoryUsed: 0.8,
    diskBytes: 200 * GIB,
    diskUsed: 0.91,
    networkPerMinute: 4_000_000,
  },
];

/** How a busy share splits between the non-idle CPU states. */
const BUSY_STATES = { user: 0.7, system: 0.22, iowait: 0.08 } as const;

/** A series under construction: a metric's points for one set of attributes. */
type Points = { attributes: Obj; values: number[] }[];

/** Every host's metrics over the window, one export request per host. */
export function hostMetrics(
  rng: Random,
  options: { windowMs: number; nowMs: number },
): HostMetricsRequest[] {
  const minutes = Math.min(180, Math.max(1, Math.round(options.windowMs / 60_000)));
  const times = Array.from({ length: minutes }, (_, m) =>
    ns(options.nowMs - (minutes - m) * 60_000),
  );
  return HOSTS.map((host) => {
    const metrics = hostSeries(rng, host, minutes);
    let items = 0;
    const otlp = metrics.map(({ name, unit, kind, series }) => {
      const dataPoints = series.flatMap(({ attributes, values }) =>
        values.map((value, m) => ({
          timeUnixNano: times[m],
          ...(kind === "gauge" ? {} : { startTimeUnixNano: times[0] }),
          asDouble: value,
          attributes: attrs(attributes),
        })),
      );
      items += dataPoints.length;
      if (kind === "gauge") return { name, unit, gauge: { dataPoints } };
      return {
        name,
        unit,
        sum: { dataPoints, aggregationTemporality: 2, isMonotonic: kind === "counter" },
      };
    });
    return {
      signal: "metrics" as const,
      items,
      body: {
        resourceMetrics: [
          {
            resource: resource(host.name.replace(/-\d$/, ""), {
              "host.name": host.name,
              "os.type": "linux",
            }),
            scopeMetrics: [
              { scope: { name: "otelcol/hostmetricsreceiver", version: "0.120.0" }, metrics: otlp },
            ],
          },
        ],
      },
    };
  });
}

type Kind = "gauge" | "counter" | "updown";
type HostMetric = { name: string; unit: string; kind: Kind; series: Points };

/** Running totals of per-minute increments (a cumulative counter's values). */
const cumulative = (start: number, increments: number[]): number[] => {
  let total = start;
  return increments.map((step) => {
    total += step;
    return total;
  });
};

function hostSeries(rng: Random, host: Host, minutes: number): HostMetric[] {
  const each = <T>(f: (m: number) => T) => Array.from({ length: minutes }, (_, m) => f(m));
  // CPU: each core near the host's busy share, a slow wave plus noise.
  const cores = Array.from({ length: host.cpus }, (_, c) =>
    each((m) =>
      Math.min(
        0.98,
        Math.max(0.02, host.busy + 0.1 * Math.sin((m + c * 5) / 7) + rng.next() * 0.05),
      ),
    ),
  );
  const cpuSeries = (value: (busy: number, share: number) => number, total: boolean): Points =>
    cores.flatMap((busy, c) =>
      [...Object.entries(BUSY_STATES), ["idle", -1] as const].map(([state, share]) => {
        const shares = busy.map((b) => (share < 0 ? 1 - b : b * share));
        return {
          attributes: { cpu: `cpu${c}`, state },
          values: total
            ? cumulative(
                86_400 * (share < 0 ? 0.6 : 0.1),
                shares.map((s) => value(s, 60)),
              )
            : shares.map((s) => value(s, 1)),
        };
      }),
    );
  const avgBusy = each((m) => cores.reduce((sum, core) => sum + (core[m] ?? 0), 0) / host.cpus);
  const load = (smoothing: number) => {
    let level = (avgBusy[0] ?? 0) * host.cpus;
    return avgBusy.map((b) => {
      level += (b * host.cpus - level) * smoothing;
      return Math.round(level * 100) / 100;
    });
  };
  // Memory: used creeps up over the window; the rest splits between cache, buffers and free.
  const used = each((m) => Math.min(0.97, host.memoryUsed + m / (minutes * 20)));
  const memoryShares: Record<string, number[]> = {
    used,
    cached: used.map((u) => (1 - u) * 0.5),
    buffered: used.map((u) => (1 - u) * 0.1),
    free: used.map((u) => (1 - u) * 0.4),
  };
  const memory = (scale: number): Points =>
    Object.entries(memoryShares).map(([state, shares]) => ({
      attributes: { state },
      values: shares.map((s) => Math.round(s * scale)),
    }));
  const disk = { device: "nvme0n1p1", mountpoint: "/", type: "ext4", mode: "rw" };
  const diskUsedBytes = Math.round(host.diskBytes * host.diskUsed);
  const diskReserved = Math.round(host.diskBytes * 0.02);
  const traffic = (perMinute: number) =>
    cumulative(
      perMinute * 1000,
      each(() => Math.round(perMinute * (0.8 + rng.next() * 0.4))),
    );
  return [
    {
      name: "system.cpu.time",
      unit: "s",
      kind: "counter",
      series: cpuSeries((s, k) => s * k, true),
    },
    {
      name: "system.cpu.utilization",
      unit: "1",
      kind: "gauge",
      series: cpuSeries((s) => s, false),
    },
    ...(["1m", "5m", "15m"] as const).map((span, i) => ({
      name: `system.cpu.load_average.${span}`,
      unit: "{thread}",
      kind: "gauge" as const,
      series: [{ attributes: {}, values: load([0.6, 0.2, 0.07][i] ?? 0.1) }],
    })),
    { name: "system.memory.usage", unit: "By", kind: "updown", series: memory(host.memoryBytes) },
    { name: "system.memory.utilization", unit: "1", kind: "gauge", series: memory(1) },
    {
      name: "system.filesystem.usage",
      unit: "By",
      kind: "updown",
      series: [
        { attributes: { ...disk, state: "used" }, values: each(() => diskUsedBytes) },
        { attributes: { ...disk, state: "reserved" }, values: each(() => diskReserved) },
        {
          attributes: { ...disk, state: "free" },
          values: each(() => host.diskBytes - diskUsedBytes - diskReserved),
        },
      ],
    },
    {
      name: "system.filesystem.utilization",
      unit: "1",
      kind: "gauge",
      series: [{ attributes: disk, values: each(() => host.diskUsed) }],
    },
    {
      name: "system.disk.io",
      unit: "By",
      kind: "counter",
      series: [
        {
          attributes: { device: "nvme0n1", direction: "read" },
          values: traffic(host.networkPerMinute / 2),
        },
        {
          attributes: { device: "nvme0n1", direction: "write" },
          values: traffic(host.networkPerMinute / 4),
        },
      ],
    },
    {
      name: "system.network.io",
      unit: "By",
      kind: "counter",
      series: [
        {
          attributes: { device: "eth0", direction: "receive" },
          values: traffic(host.networkPerMinute),
        },
        {
          attributes: { device: "eth0", direction: "transmit" },
          values: traffic(host.networkPerMinute * 0.6),
        },
      ],
    },
  ];
}
