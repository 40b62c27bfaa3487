// The read API's services and service map (GET /v1/services…, /v1/service-map), shared with
// the dashboard (docs/services.md).
import { z } from "zod";

/** Services in one list: more than any project names. */
export const MAX_SERVICES = 500;

const Latency = {
  p50Ms: z.number().nullable().describe("Median duration in ms; null without requests"),
  p95Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
};

/** Requests, errors and latency of a service, an operation or an edge over the window. */
const Figures = {
  requests: z.number().int().describe("Entry spans (server or consumer kind, or roots)"),
  rate: z.number().describe("Requests per second over the window"),
  errors: z.number().int(),
  errorRate: z.number().describe("errors / requests, 0 without requests"),
  ...Latency,
};

export const ServicePoint = z.object({
  time: z.string().describe("Start of the bucket, ISO 8601"),
  requests: z.number().int(),
  errors: z.number().int(),
  p95Ms: z.number().nullable(),
});
export type ServicePoint = z.infer<typeof ServicePoint>;

export const ServiceSummary = z
  .object({
    service: z.string(),
    ...Figures,
    series: z.array(ServicePoint).describe("Every bucket of the window, for sparklines"),
  })
  .meta({ id: "ServiceSummary" });
export type ServiceSummary = z.infer<typeof ServiceSummary>;

const Window = {
  from: z.string(),
  to: z.string(),
  bucketSeconds: z.number().int(),
};

export const ServiceList = z
  .object({ ...Window, services: z.array(ServiceSummary) })
  .meta({ id: "ServiceList" });
export type ServiceList = z.infer<typeof ServiceList>;

export const SERVICE_NODE_KINDS = ["service", "database", "external", "messaging"] as const;
export type ServiceNodeKind = (typeof SERVICE_NODE_KINDS)[number];

/** One caller → callee pair over the window. */
export const ServiceEdge = z
  .object({
    source: z.string().describe("Calling service"),
    target: z.string().describe("Called service, database (`db.system`) or external address"),
    targetKind: z.enum(SERVICE_NODE_KINDS),
    calls: z.number().int(),
    rate: z.number().describe("Calls per second over the window"),
    errors: z.number().int(),
    errorRate: z.number(),
    ...Latency,
  })
  .meta({ id: "ServiceEdge" });
export type ServiceEdge = z.infer<typeof ServiceEdge>;

export const ServiceOperation = z.object({
  operation: z.string().describe("Span name"),
  spanKind: z.string(),
  httpMethod: z.string().nullable(),
  httpRoute: z.string().nullable(),
  ...Figures,
});
export type ServiceOperation = z.infer<typeof ServiceOperation>;

export const ServiceInstance = z.object({
  instance: z
    .string()
    .describe("`service.instance.id`, else `host.name`, else `k8s.pod.name`, else ''"),
  host: z.string().nullable(),
  version: z.string().nullable().describe("`service.version`"),
  requests: z.number().int(),
  errors: z.number().int(),
  lastSeen: z.string(),
  resource: z.record(z.string(), z.string()).describe("Resource attributes of its latest span"),
});
export type ServiceInstance = z.infer<typeof ServiceInstance>;

export const ServiceErrorGroup = z.object({
  errorId: z.string(),
  type: z.string(),
  message: z.string(),
  occurrences: z.number().int().describe("Occurrences within the window"),
  lastSeen: z.string(),
});
export type ServiceErrorGroup = z.infer<typeof ServiceErrorGroup>;

export const ServiceDetail = z
  .object({
    ...Window,
    summary: ServiceSummary,
    operations: z.array(ServiceOperation).describe("Busiest first, at most 200"),
    instances: z.array(ServiceInstance).describe("Busiest first, at most 100"),
    upstream: z.array(ServiceEdge).describe("Callers of this service"),
    downstream: z.array(ServiceEdge).describe("What this service calls"),
    errors: z.array(ServiceErrorGroup).describe("Its error groups in the window, most first"),
  })
  .meta({ id: "ServiceDetail" });
export type ServiceDetail = z.infer<typeof ServiceDetail>;

export const ServiceMapNode = z.object({
  id: z.string().describe("The service name, or `<kind>:<name>` for a database or external node"),
  name: z.string(),
  kind: z.enum(SERVICE_NODE_KINDS),
  requests: z.number().int().describe("Entry spans of a service; calls into any other node"),
  errorRate: z.number(),
  p95Ms: z.number().nullable(),
});
export type ServiceMapNode = z.infer<typeof ServiceMapNode>;

export const ServiceMap = z
  .object({
    from: z.string(),
    to: z.string(),
    nodes: z.array(ServiceMapNode),
    edges: z
      .array(ServiceEdge.extend({ targetId: z.string().describe("The target node's id") }))
      .describe("source is a service node's id"),
  })
  .meta({ id: "ServiceMap" });
export type ServiceMap = z.infer<typeof ServiceMap>;
