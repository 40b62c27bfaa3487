import type { ServiceMap, ServiceMapNode, ServiceNodeKind } from "../contracts/services.js";
import { isoMs } from "../lib/list-params.js";
import type { ReadCtx } from "./read-deps.js";
import {
  type EdgeTotals,
  edgeView,
  latencyOf,
  mergeTotals,
  minuteWindow,
  readEdges,
} from "./service-map-edges.js";
import { type ServicesQuery, servicesWindow } from "./services.js";
import { ratio } from "./span-figures.js";
import { Sql } from "./sql.js";

export { ServicesQuery as ServiceMapQuery } from "./services.js";

/** A node's id: the service's name, or `<kind>:<name>` for a database, external host or message system. */
export const nodeId = (kind: ServiceNodeKind, name: string): string =>
  kind === "service" ? name : `${kind}:${name}`;

/**
 * GET /v1/service-map: the services and what they call over the window, from service_edges
 * alone (one statement over per-minute rows, whatever the traffic). A service node's figures
 * are its entry spans; any other node's, the calls into it.
 */
export async function serviceMap({
  ctx,
  projectId,
  ...query
}: { ctx: ReadCtx; projectId: string } & ServicesQuery): Promise<ServiceMap> {
  const deps = ctx.deps.read;
  const asked = servicesWindow(query, deps.clock.now().getTime()).window;
  // Calls are kept per minute: the map covers the whole minutes the window touches, and says so.
  const window = minuteWindow(asked);
  const seconds = (window.toMs - window.fromMs) / 1000;
  const totals = await readEdges(new Sql(deps.telemetry, projectId), window);

  /** Each node and the calls into it: a service's entry spans, else every edge's calls into it. */
  const byId = new Map<string, { name: string; kind: ServiceNodeKind; calls?: EdgeTotals }>();
  const node = (kind: ServiceNodeKind, name: string) => {
    const id = nodeId(kind, name);
    let found = byId.get(id);
    if (!found) {
      found = { name, kind };
      byId.set(id, found);
    }
    return found;
  };
  const edges = totals.filter((edge) => edge.source !== "");
  for (const entry of totals) if (entry.source === "") node("service", entry.target).calls = entry;
  for (const edge of edges) {
    node("service", edge.source);
    const target = node(edge.targetKind, edge.target);
    if (edge.targetKind !== "service")
      target.calls = target.calls ? mergeTotals(target.calls, edge) : edge;
  }

  const nodes = [...byId].map(
    ([id, { name, kind, calls }]): ServiceMapNode => ({
      id,
      name,
      kind,
      requests: calls?.calls ?? 0,
      errorRate: calls ? ratio(calls.errors, calls.calls) : 0,
      p95Ms: calls && calls.calls > 0 ? latencyOf(calls.histogram).p95Ms : null,
    }),
  );
  nodes.sort((a, b) => b.requests - a.requests || a.id.localeCompare(b.id));
  return {
    from: isoMs(window.fromMs),
    to: isoMs(window.toMs),
    nodes,
    edges: edges.map((edge) => ({
      ...edgeView(edge, seconds),
      targetId: nodeId(edge.targetKind, edge.target),
    })),
  };
}
