/*
 * Where the services area leads: a service's page, and the traces and logs behind a figure.
 * The traces screen reads `filters` (a JSON array of {field, op, value}, as the read API's
 * `filters`: src/contracts/explore-filters.ts) and `service` (traces with a span of it).
 * Paths are app paths ("/projects/…"); links inside the app open them through the router.
 */
import type { Filter } from "../../../../src/contracts/explore-filters.js";
import type { ServiceEdge, ServiceMapNode } from "../../../../src/contracts/services.js";
import { projectPath } from "../../lib/project-path.js";
import { type RangeSpec, withRange } from "../../lib/time-range-model.js";

/**
 * A service's name as the last segment of its page's path. The map is `services/map`; a
 * service named "map" has its first letter escaped (`%6Dap`), which the area tells apart by
 * reading the path as the browser keeps it (see `serviceFromSegment`).
 */
export const serviceSegment = (service: string): string =>
  service === "map" ? "%6Dap" : encodeURIComponent(service);

/** The service a page's raw path segment names ("map" is the map's, not a service's: null). */
export function serviceFromSegment(segment: string): string | null {
  if (segment === "map") return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A service's page, on the range. */
export const servicePageHref = (projectId: string, service: string, spec: RangeSpec): string =>
  withRange(`${projectPath(projectId, "services")}/${serviceSegment(service)}`, spec);

/** The service map, on the range. */
export const serviceMapHref = (projectId: string, spec: RangeSpec): string =>
  withRange(projectPath(projectId, "services", "map"), spec);

/** The traces screen with attribute filters, and only traces through `service` when given. */
export function tracesHref(
  projectId: string,
  spec: RangeSpec,
  filters: readonly Filter[],
  service?: string,
): string {
  const query = new URLSearchParams();
  if (service) query.set("service", service);
  if (filters.length > 0) query.set("filters", JSON.stringify(filters));
  const text = query.toString();
  return withRange(`${projectPath(projectId, "traces")}${text ? `?${text}` : ""}`, spec);
}

const equals = (field: string, value: string): Filter => ({ field, op: "=", value });

/** Traces through one operation of a service. */
export const operationTracesHref = (
  projectId: string,
  spec: RangeSpec,
  service: string,
  operation: string,
): string =>
  tracesHref(projectId, spec, [
    equals("service_name", service),
    equals("operation_name", operation),
  ]);

/** Traces through a service (its entry spans and the rest). */
export const serviceTracesHref = (projectId: string, spec: RangeSpec, service: string): string =>
  tracesHref(projectId, spec, [], service);

/** The service's logs. */
export const serviceLogsHref = (projectId: string, spec: RangeSpec, service: string): string =>
  withRange(`${projectPath(projectId, "logs")}?${new URLSearchParams({ service })}`, spec);

/** An error group's page. */
export const errorHref = (projectId: string, errorId: string): string =>
  projectPath(projectId, "errors", errorId);

/**
 * The span filters that find calls into a node that is not a service, as the ingest names
 * nodes (docs/services.md): a database is `system` or `system/namespace` (`db.system.name`),
 * a queue `system` or `system/destination` (`messaging.system`), an external node its address
 * (`server.address`). A filter names one attribute: spans that give only the older key
 * (`db.system`, `peer.service`) are not found by it.
 */
export function calleeFilters(kind: ServiceMapNode["kind"], name: string): Filter[] {
  const [system = name] = name.split("/", 1);
  switch (kind) {
    case "database":
      return [equals("span_kind", "client"), equals("attributes.db.system.name", system)];
    case "messaging":
      return [equals("span_kind", "producer"), equals("attributes.messaging.system", system)];
    case "external":
      return [equals("span_kind", "client"), equals("attributes.server.address", name)];
    default:
      return [equals("service_name", name), ENTRY_SPANS];
  }
}

/** A service's entry spans: what a call into it starts. */
const ENTRY_SPANS: Filter = { field: "span_kind", op: "in", value: ["server", "consumer"] };

/**
 * The traces of one edge: the target's spans called by the source. A called service's entry
 * spans (what a call into it starts) in traces through the source (`service`, its own condition
 * on the traces list, apart from the one span the filters describe); a database, an address or
 * a queue sends no spans, so the source's calls naming it stand for them.
 */
export function edgeTracesHref(
  projectId: string,
  spec: RangeSpec,
  edge: Pick<ServiceEdge, "source" | "target" | "targetKind">,
): string {
  if (edge.targetKind === "service")
    return tracesHref(projectId, spec, calleeFilters("service", edge.target), edge.source);
  return tracesHref(projectId, spec, [
    equals("service_name", edge.source),
    ...calleeFilters(edge.targetKind, edge.target),
  ]);
}

/** Where a node of the map leads: a service's page, or the traces of calls into the node. */
export function nodeHref(
  projectId: string,
  spec: RangeSpec,
  node: Pick<ServiceMapNode, "kind" | "name">,
): string {
  return node.kind === "service"
    ? servicePageHref(projectId, node.name, spec)
    : tracesHref(projectId, spec, calleeFilters(node.kind, node.name));
}
