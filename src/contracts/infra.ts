// The read API's infrastructure health view (GET /v1/infra/health), shared with the dashboard
// (docs/read-api.md).
import { z } from "zod";

export const COMPONENT_KINDS = ["pod", "container", "host", "instance"] as const;
export type ComponentKind = (typeof COMPONENT_KINDS)[number];

export const HEALTH_STATES = ["healthy", "degraded", "down", "stale"] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

/** Utilization (percent) at which memory or disk make a component degraded, and down. */
export const DEGRADED_PERCENT = 85;

export const DOWN_PERCENT = 95;

/** A component whose latest data point is older than this before the window's end is stale. */
export const STALE_AFTER_MS = 5 * 60_000;

export const Reading = {
  cpuPercent: z.number().nullable(),
  memoryPercent: z.number().nullable(),
  diskPercent: z.number().nullable().describe("The fullest filesystem"),
  networkInBytesPerSec: z.number().nullable(),
  networkOutBytesPerSec: z.number().nullable(),
};
export type Reading = { [K in keyof typeof Reading]: number | null };

const Source = z.string().nullable();

export const InfraComponent = z
  .object({
    id: z.string().describe("<kind>:<name>, the value the `component` parameter takes"),
    kind: z.enum(COMPONENT_KINDS),
    name: z.string(),
    attributes: z
      .record(z.string(), z.string())
      .describe("Identifying resource attributes (host, k8s, container, cloud)"),
    services: z.array(z.string()).describe("service.name values reporting from this component"),
    firstSeen: z.string(),
    lastSeen: z.string().describe("Latest data point of any metric in the window"),
    state: z.enum(HEALTH_STATES),
    reasons: z.array(z.string()).describe("Why the state is not healthy, e.g. `disk 96 % ≥ 95 %`"),
    current: z
      .object(Reading)
      .describe("Latest values; network rates of the latest bucket with data"),
    sources: z
      .object({ cpu: Source, memory: Source, disk: Source, network: Source })
      .describe("The metric each value was read from, null when none was reported"),
    series: z
      .array(z.object({ time: z.string(), ...Reading }))
      .describe("Bucket averages (rates for network), null where nothing was reported"),
  })
  .meta({ id: "InfraComponent" });
export type InfraComponent = z.infer<typeof InfraComponent>;

const Int = z.number().int();

export const InfraHealth = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    thresholds: z.object({ degradedPercent: Int, downPercent: Int, staleAfterSeconds: Int }),
    summary: z.object({ total: Int, healthy: Int, degraded: Int, down: Int, stale: Int }),
    components: z
      .array(InfraComponent)
      .describe("Worst first: down, stale, degraded, healthy; then by id"),
  })
  .meta({ id: "InfraHealth" });
export type InfraHealth = z.infer<typeof InfraHealth>;
