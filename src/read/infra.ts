import { z } from "zod";
import {
  type ComponentKind,
  DEGRADED_PERCENT,
  DOWN_PERCENT,
  type HealthState,
  type InfraComponent,
  type InfraHealth,
  type Reading,
  STALE_AFTER_MS,
} from "../contracts/infra.js";
import { NotFoundError } from "../lib/domain-errors.js";
import {
  bucketMs,
  bucketStarts,
  dashboardWindow,
  isoMs,
  type TimeWindow,
  WindowQuery,
} from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import { num, Sql, whereClause } from "./sql.js";

/** Points per series: one bucket per minute for an hour, coarser for longer windows. */
const SERIES_BUCKETS = 60;

export const InfraHealthQuery = z
  .object({
    ...WindowQuery.shape,
    component: z
      .string()
      .max(512)
      .regex(/^(pod|container|host|instance):.+$/, "must be <kind>:<name>, e.g. host:db-1")
      .optional()
      .describe(
        "Only this component: host:<host.name>, container:<container.id>, pod:[<namespace>/]<pod>, instance:<service.instance.id>",
      ),
  })
  .strict();
export type InfraHealthQuery = z.infer<typeof InfraHealthQuery>;

type Sources = InfraComponent["sources"];

type Resource = "cpu" | "memory" | "disk";
/**
 * Utilization metrics by precedence per resource: a component's value comes from the first one
 * it reports. `scale` turns a value into a 0–1 ratio (Docker stats reports percent).
 */
const UTILIZATION: readonly { resource: Resource; metric: string; scale: number }[] = [
  { resource: "cpu", metric: "system.cpu.utilization", scale: 1 },
  { resource: "cpu", metric: "k8s.pod.cpu_limit_utilization", scale: 1 },
  { resource: "cpu", metric: "container.cpu.utilization", scale: 0.01 },
  { resource: "memory", metric: "system.memory.utilization", scale: 1 },
  { resource: "memory", metric: "k8s.pod.memory_limit_utilization", scale: 1 },
  { resource: "memory", metric: "container.memory.percent", scale: 0.01 },
  { resource: "memory", metric: "system.memory.usage", scale: 1 },
  { resource: "disk", metric: "system.filesystem.utilization", scale: 1 },
  { resource: "disk", metric: "system.filesystem.usage", scale: 1 },
];
/** Byte counters by precedence; Docker's two (rx_bytes, tx_bytes) count as one source. */
const NETWORK = [
  "system.network.io",
  "k8s.pod.network.io",
  "container.network.io.usage.*",
] as const;
const DOCKER_PREFIX = "container.network.io.usage.";

/** Resource attributes worth showing beside a component. */
const SHOWN_ATTRIBUTES =
  `host.name host.id os.type service.namespace service.instance.id k8s.namespace.name
  k8s.node.name k8s.pod.name k8s.deployment.name container.id container.name container.image.name
  cloud.provider cloud.region deployment.environment.name`.split(/\s+/);
/** The attribute naming each kind of component (a container's id when it has no name). */
const NAME_ATTRIBUTE: Record<ComponentKind, string> = {
  pod: "k8s.pod.name",
  container: "container.name",
  host: "host.name",
  instance: "service.instance.id",
};

/**
 * A component per data point, most specific resource first: a pod (its containers and their
 * host report under it), else a container, else a host, else a service instance. Points with
 * none of these attributes belong to no component.
 */
function componentSql(sql: Sql): string {
  const ra = (key: string) => `resource_attributes[${sql.bind(key)}]`;
  const pod = ra("k8s.pod.name");
  const ns = ra("k8s.namespace.name");
  return `multiIf(
    ${pod} != '', concat('pod:', if(${ns} != '', concat(${ns}, '/'), ''), ${pod}),
    ${ra("container.id")} != '', concat('container:', ${ra("container.id")}),
    ${ra("host.name")} != '', concat('host:', ${ra("host.name")}),
    ${ra("service.instance.id")} != '', concat('instance:', ${ra("service.instance.id")}), '')`;
}

/** What the three queries share: the builder, the table, the component expression, WHERE, bucket. */
type Context = { sql: Sql; table: string; component: string; where: string; step: string };
type DiscoverRow = Record<"component" | "first_ms" | "last_ms", string> & { services: string[] };
type UsageRow = Record<"component" | "source" | "bucket" | "last_ts", string> &
  Record<"avg_v" | "last_v", number>;
type TrafficRow = Record<"component" | "source" | "direction" | "bucket", string> & {
  rate: number;
};

/** Every component with data in the window: first and last seen, services, shown attributes. */
async function discover(c: Context) {
  const picks = SHOWN_ATTRIBUTES.map((key, i) => {
    const value = `resource_attributes[${c.sql.bind(key)}]`;
    // The latest non-empty value; ties at one timestamp go to the larger value, deterministically.
    return `tupleElement(maxIf((timestamp, ${value}), ${value} != ''), 2) AS a${i}`;
  });
  return c.sql.query<DiscoverRow & Record<string, unknown>>(
    `SELECT ${c.component} AS component, toUnixTimestamp64Milli(min(timestamp)) AS first_ms,
       toUnixTimestamp64Milli(max(timestamp)) AS last_ms,
       arraySort(groupUniqArrayIf(service_name, NOT startsWith(service_name, 'unknown_service'))) AS services,
       ${picks.join(", ")}
     FROM ${c.table} ${c.where} GROUP BY component`,
  );
}

/**
 * Utilization per component, metric and bucket: the bucket average and the latest sample. One
 * sample per data-point time: CPU is the non-idle share averaged over CPUs (1 − idle); memory is
 * the `used` state; *.usage metrics are used / all states; filesystems take the fullest device.
 */
async function utilization(c: Context) {
  const { sql } = c;
  const at = (key: string) => `attributes[${sql.bind(key)}]`;
  const state = at("state");
  const names = sql.bind(UTILIZATION.map((u) => u.metric));
  const sample = `multiIf(
    metric_name = 'system.cpu.utilization' AND countIf(${state} != '') > 0,
      sumIf(value, ${state} != 'idle') / uniqExact(${at("cpu")}),
    metric_name = 'system.memory.utilization' AND countIf(${state} != '') > 0, sumIf(value, ${state} = 'used'),
    metric_name IN ('system.memory.usage', 'system.filesystem.usage'), sumIf(value, ${state} = 'used') / nullIf(sum(value), 0),
    avg(value))`;
  return sql.query<UsageRow>(
    `SELECT component, metric_name AS source, intDiv(ts, ${c.step}) * ${c.step} AS bucket, avg(v) AS avg_v,
       argMax(v, ts) AS last_v, max(ts) AS last_ts
     FROM (
       SELECT component, metric_name, ts, max(sample) AS v FROM (
         SELECT ${c.component} AS component, metric_name, toUnixTimestamp64Milli(timestamp) AS ts,
           concat(${at("device")}, '|', ${at("mountpoint")}) AS device, ${sample} AS sample
         FROM ${c.table} ${c.where} AND metric_name IN ${names}
         GROUP BY component, metric_name, ts, device)
       WHERE sample IS NOT NULL AND isFinite(sample) GROUP BY component, metric_name, ts)
     GROUP BY component, source, bucket`,
  );
}

/**
 * Network bytes/s per component, metric, direction and bucket. Cumulative counters count the
 * growth between consecutive points of one series (a drop is a restart: the new value is the
 * growth); delta points count their value over their own interval. Series rates are summed.
 */
async function network(c: Context) {
  const { sql } = c;
  const names = sql.bind([
    NETWORK[0],
    NETWORK[1],
    `${DOCKER_PREFIX}rx_bytes`,
    `${DOCKER_PREFIX}tx_bytes`,
  ]);
  const docker = `startsWith(metric_name, ${sql.bind(DOCKER_PREFIX)})`;
  const direction = `if(${docker}, if(endsWith(metric_name, 'rx_bytes'), 'receive', 'transmit'),
    attributes[${sql.bind("direction")}])`;
  return sql.query<TrafficRow>(
    `SELECT component, source, direction, bucket, sum(series_rate) AS rate FROM (
       SELECT component, source, direction, series, intDiv(ts, ${c.step}) * ${c.step} AS bucket,
         sum(growth) / (sum(dt) / 1000) AS series_rate
       FROM (
         SELECT *,
           if(temporality = 'delta', value, if(value >= prev_v, value - prev_v, value)) AS growth,
           if(temporality = 'delta' AND start_ms > 0 AND start_ms < ts, ts - start_ms, if(n > 1, ts - prev_ts, 0)) AS dt
         FROM (
           SELECT *, lagInFrame(value, 1) OVER w AS prev_v, lagInFrame(ts, 1) OVER w AS prev_ts,
             row_number() OVER w AS n
           FROM (
             SELECT ${c.component} AS component, metric_name, ${direction} AS direction,
               if(${docker}, ${sql.bind(NETWORK[2])}, metric_name) AS source,
               cityHash64(toString(attributes), toString(resource_attributes)) AS series,
               toUnixTimestamp64Milli(timestamp) AS ts, toUnixTimestamp64Milli(start_timestamp) AS start_ms,
               aggregation_temporality AS temporality, value
             FROM ${c.table} ${c.where} AND metric_name IN ${names})
           WINDOW w AS (PARTITION BY component, metric_name, series ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)))
       WHERE dt > 0 AND (temporality = 'delta' OR n > 1) AND direction IN ('receive', 'transmit')
       GROUP BY component, source, direction, series, bucket)
     GROUP BY component, source, direction, bucket`,
  );
}

const percent = (ratio: number): number => Math.round(ratio * 10_000) / 100;
const perSecond = (rate: number): number => Math.round(rate * 1000) / 1000;

/** The state of a component and why: stale first, then the worst utilization rule that holds. */
export function healthOf(
  current: Reading,
  lastSeenMs: number,
  window: TimeWindow,
): { state: HealthState; reasons: string[] } {
  const silentMs = window.toMs - lastSeenMs;
  if (silentMs > STALE_AFTER_MS)
    return {
      state: "stale",
      reasons: [
        `no data for ${Math.floor(silentMs / 60_000)} min before the window's end (last seen ${isoMs(lastSeenMs)})`,
      ],
    };
  const down: string[] = [];
  const degraded: string[] = [];
  const check = (name: string, value: number | null, canBeDown: boolean) => {
    if (value === null) return;
    if (canBeDown && value >= DOWN_PERCENT) down.push(`${name} ${value} % ≥ ${DOWN_PERCENT} %`);
    else if (value >= DEGRADED_PERCENT) degraded.push(`${name} ${value} % ≥ ${DEGRADED_PERCENT} %`);
  };
  // A saturated CPU slows a component but does not stop it; full memory or disk makes it fail.
  check("cpu", current.cpuPercent, false);
  check("memory", current.memoryPercent, true);
  check("disk", current.diskPercent, true);
  if (down.length > 0) return { state: "down", reasons: [...down, ...degraded] };
  if (degraded.length > 0) return { state: "degraded", reasons: degraded };
  return { state: "healthy", reasons: [] };
}

const SEVERITY: Record<HealthState, number> = { down: 0, stale: 1, degraded: 2, healthy: 3 };
const FIELD = { cpu: "cpuPercent", memory: "memoryPercent", disk: "diskPercent" } as const;
const emptyReading = (): Reading => ({
  cpuPercent: null,
  memoryPercent: null,
  diskPercent: null,
  networkInBytesPerSec: null,
  networkOutBytesPerSec: null,
});

/** Rows by component, so assembling each component reads only its own. */
function byComponent<T extends { component: string }>(rows: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.component);
    if (list) list.push(row);
    else map.set(row.component, [row]);
  }
  return map;
}

/** Infrastructure components with their latest utilization, a series per metric and a health state (default window: 1h). */
export async function infraHealth({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & InfraHealthQuery): Promise<InfraHealth> {
  const deps = ctx.deps.read;
  const window = dashboardWindow(query, deps.clock.now().getTime(), "1h");
  const stepMs = bucketMs(window, SERIES_BUCKETS);
  const sql = new Sql(deps.telemetry, projectId);
  const component = componentSql(sql);
  const where = whereClause(sql, [
    ...sql.within("timestamp", window),
    query.component ? `${component} = ${sql.bind(query.component)}` : `${component} != ''`,
  ]);
  const c: Context = { sql, table: sql.table("metrics"), component, where, step: sql.bind(stepMs) };
  const [found, usageRows, trafficRows] = await Promise.all([
    discover(c),
    utilization(c),
    network(c),
  ]);
  if (query.component && found.length === 0) throw new NotFoundError("Component", query.component);

  const starts = bucketStarts(window, stepMs);
  const index = new Map(starts.map((t, i) => [t, i]));
  const usage = byComponent(usageRows);
  const traffic = byComponent(trafficRows);
  const components = found.map((row): InfraComponent => {
    const id = row.component;
    const kind = id.slice(0, id.indexOf(":")) as ComponentKind;
    const attributes: Record<string, string> = {};
    SHOWN_ATTRIBUTES.forEach((key, i) => {
      const value = String(row[`a${i}`] ?? "");
      if (value) attributes[key] = value;
    });
    const current = emptyReading();
    const series = starts.map((t) => ({ time: isoMs(t), ...emptyReading() }));
    const pointAt = (bucket: string) => series[index.get(num(bucket)) ?? -1];
    const sources: Sources = { cpu: null, memory: null, disk: null, network: null };
    const own = usage.get(id) ?? [];
    for (const resource of ["cpu", "memory", "disk"] as const) {
      const field = FIELD[resource];
      const source = UTILIZATION.find(
        (u) => u.resource === resource && own.some((r) => r.source === u.metric),
      );
      if (!source) continue;
      sources[resource] = source.metric;
      let latestMs = -1;
      for (const r of own.filter((r) => r.source === source.metric)) {
        const point = pointAt(r.bucket);
        if (point) point[field] = percent(r.avg_v * source.scale);
        if (num(r.last_ts) > latestMs) {
          latestMs = num(r.last_ts);
          current[field] = percent(r.last_v * source.scale);
        }
      }
    }
    const flows = traffic.get(id) ?? [];
    const network = NETWORK.find((m) => flows.some((r) => r.source === m));
    if (network) {
      sources.network = network;
      let latest = "";
      for (const r of flows.filter((r) => r.source === network)) {
        const field = r.direction === "receive" ? "networkInBytesPerSec" : "networkOutBytesPerSec";
        const point = pointAt(r.bucket);
        if (point) point[field] = perSecond(r.rate);
        if (num(r.bucket) > num(latest)) latest = r.bucket;
      }
      current.networkInBytesPerSec = pointAt(latest)?.networkInBytesPerSec ?? null;
      current.networkOutBytesPerSec = pointAt(latest)?.networkOutBytesPerSec ?? null;
    }
    const lastSeenMs = num(row.last_ms);
    return {
      id,
      kind,
      name: attributes[NAME_ATTRIBUTE[kind]] ?? id.slice(kind.length + 1),
      attributes,
      services: row.services,
      firstSeen: isoMs(num(row.first_ms)),
      lastSeen: isoMs(lastSeenMs),
      ...healthOf(current, lastSeenMs, window),
      current,
      sources,
      series,
    };
  });
  components.sort(
    (a, b) => SEVERITY[a.state] - SEVERITY[b.state] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const summary = { total: components.length, healthy: 0, degraded: 0, down: 0, stale: 0 };
  for (const one of components) summary[one.state] += 1;
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    bucketSeconds: stepMs / 1000,
    thresholds: {
      degradedPercent: DEGRADED_PERCENT,
      downPercent: DOWN_PERCENT,
      staleAfterSeconds: STALE_AFTER_MS / 1000,
    },
    summary,
    components,
  };
}
