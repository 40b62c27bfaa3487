import { describe, expect, it } from "vitest";
import type { ServiceMap } from "../src/contracts/services.js";
import { edgePath, layoutMap, nodeLabel } from "../web/src/screens/services/map-layout.js";
import {
  fitView,
  initialView,
  panBy,
  READABLE_SCALE,
  zoomAt,
} from "../web/src/screens/services/map-viewport.js";
import {
  edgeTracesHref,
  nodeHref,
  operationTracesHref,
  serviceFromSegment,
  serviceLogsHref,
  servicePageHref,
  serviceSegment,
} from "../web/src/screens/services/service-links.js";
import { matchesSearch, nextSort, sortRows } from "../web/src/screens/services/table-sort.js";

const SPEC = { kind: "relative", key: "6h" } as const;
const query = (href: string) => new URLSearchParams(href.split("?")[1] ?? "");
const filters = (href: string) => JSON.parse(query(href).get("filters") ?? "[]") as unknown;

describe("the services tables' sorting", () => {
  const rows = [
    { name: "b", p95: 40 },
    { name: "a", p95: null },
    { name: "c", p95: 900 },
    { name: "d", p95: 40 },
  ];
  const p95 = { key: "p95", label: "p95", num: true, value: (r: (typeof rows)[number]) => r.p95 };
  const name = { key: "name", label: "Name", value: (r: (typeof rows)[number]) => r.name };

  it("orders by a number either way, rows without a value last, ties in their order", () => {
    expect(sortRows(rows, p95, "desc").map((r) => r.name)).toEqual(["c", "b", "d", "a"]);
    expect(sortRows(rows, p95, "asc").map((r) => r.name)).toEqual(["b", "d", "c", "a"]);
    expect(sortRows(rows, name, "asc").map((r) => r.name)).toEqual(["a", "b", "c", "d"]);
  });

  it("starts a number column descending (slowest first) and text ascending; again turns it", () => {
    expect(nextSort({ key: "name", order: "asc" }, p95)).toEqual({ key: "p95", order: "desc" });
    expect(nextSort({ key: "p95", order: "desc" }, p95)).toEqual({ key: "p95", order: "asc" });
    expect(nextSort({ key: "p95", order: "desc" }, name)).toEqual({ key: "name", order: "asc" });
  });

  it("searches names without case; an empty search keeps everything", () => {
    expect(matchesSearch("Orders-Service", " orders ")).toBe(true);
    expect(matchesSearch("api-gateway", "orders")).toBe(false);
    expect(matchesSearch("api-gateway", "")).toBe(true);
  });
});

describe("where the services area links", () => {
  it("a service's page carries its name whole, and a service named map is not the map", () => {
    for (const service of ["orders", "a/b c", "100%", "x?y#z", "map", "%6Dap"]) {
      const href = servicePageHref("p1", service, SPEC);
      expect(href.startsWith("/projects/p1/services/")).toBe(true);
      expect(query(href).get("range")).toBe("6h");
      const segment = href.split("?")[0]?.split("/").pop() ?? "";
      expect(segment).toBe(serviceSegment(service));
      expect(serviceFromSegment(segment)).toBe(service);
    }
    expect(serviceFromSegment("map")).toBeNull();
  });

  it("an operation opens the traces filtered to the service and the operation", () => {
    const href = operationTracesHref("p1", SPEC, "orders", "GET /api/orders/:id");
    expect(href.startsWith("/projects/p1/traces?")).toBe(true);
    expect(filters(href)).toEqual([
      { field: "service_name", op: "=", value: "orders" },
      { field: "operation_name", op: "=", value: "GET /api/orders/:id" },
    ]);
    expect(query(href).get("range")).toBe("6h");
  });

  it("an edge into a service opens the traces through the caller where the callee served a call", () => {
    const href = edgeTracesHref("p1", SPEC, {
      source: "api-gateway",
      target: "orders",
      targetKind: "service",
    });
    expect(query(href).get("service")).toBe("api-gateway");
    expect(filters(href)).toEqual([
      { field: "service_name", op: "=", value: "orders" },
      { field: "span_kind", op: "in", value: ["server", "consumer"] },
    ]);
  });

  it("an edge into a database, an address or a queue opens the caller's calls naming it", () => {
    const into = (target: string, targetKind: "database" | "external" | "messaging") =>
      filters(edgeTracesHref("p1", SPEC, { source: "orders", target, targetKind }));
    const caller = { field: "service_name", op: "=", value: "orders" };
    expect(into("postgresql/shop", "database")).toEqual([
      caller,
      { field: "span_kind", op: "=", value: "client" },
      { field: "attributes.db.system.name", op: "=", value: "postgresql" },
    ]);
    expect(into("api.stripe.com", "external")).toEqual([
      caller,
      { field: "span_kind", op: "=", value: "client" },
      { field: "attributes.server.address", op: "=", value: "api.stripe.com" },
    ]);
    expect(into("kafka/orders", "messaging")).toEqual([
      caller,
      { field: "span_kind", op: "=", value: "producer" },
      { field: "attributes.messaging.system", op: "=", value: "kafka" },
    ]);
  });

  it("a service node opens its page, another node the calls into it; logs follow the service", () => {
    expect(nodeHref("p1", SPEC, { kind: "service", name: "orders" }).split("?")[0]).toBe(
      "/projects/p1/services/orders",
    );
    expect(nodeHref("p1", SPEC, { kind: "external", name: "api.stripe.com" })).toMatch(
      /^\/projects\/p1\/traces\?/,
    );
    const logs = serviceLogsHref("p1", SPEC, "a&b");
    expect(logs.startsWith("/projects/p1/logs?")).toBe(true);
    expect(query(logs).get("service")).toBe("a&b");
  });
});

describe("the service map's layout", () => {
  /** A chain of `n` services, each calling the next and a database every third. */
  function chain(n: number): Pick<ServiceMap, "nodes" | "edges"> {
    const nodes: ServiceMap["nodes"] = [];
    const edges: ServiceMap["edges"] = [];
    const figures = { calls: 10, rate: 1, errors: 0, errorRate: 0, p50Ms: 1, p95Ms: 2, p99Ms: 3 };
    for (let i = 0; i < n; i++) {
      nodes.push({
        id: `svc-${i}`,
        name: `svc-${i}`,
        kind: "service",
        requests: 10,
        errorRate: 0,
        p95Ms: 5,
      });
      if (i > 0)
        edges.push({
          source: `svc-${Math.floor((i - 1) / 2)}`,
          target: `svc-${i}`,
          targetId: `svc-${i}`,
          targetKind: "service",
          ...figures,
        });
    }
    for (let i = 0; i < n; i += 3)
      edges.push({
        source: `svc-${i}`,
        target: "postgresql",
        targetId: "database:postgresql",
        targetKind: "database",
        ...figures,
      });
    nodes.push({
      id: "database:postgresql",
      name: "postgresql",
      kind: "database",
      requests: 40,
      errorRate: 0,
      p95Ms: 3,
    });
    return { nodes, edges };
  }

  it("places 30 services and a database without overlapping boxes, callers left of callees", () => {
    const map = chain(30);
    const layout = layoutMap(map);
    expect(layout.nodes).toHaveLength(31);
    expect(layout.edges).toHaveLength(map.edges.length);
    for (const [i, a] of layout.nodes.entries())
      for (const b of layout.nodes.slice(i + 1)) {
        const apart =
          Math.abs(a.x - b.x) >= (a.width + b.width) / 2 ||
          Math.abs(a.y - b.y) >= (a.height + b.height) / 2;
        expect(apart, `${a.node.id} / ${b.node.id}`).toBe(true);
      }
    const at = new Map(layout.nodes.map((n) => [n.node.id, n]));
    for (const { edge, points } of layout.edges) {
      expect(points.length).toBeGreaterThanOrEqual(2);
      expect((at.get(edge.source)?.x ?? 0) < (at.get(edge.targetId)?.x ?? 0)).toBe(true);
      expect(edgePath(points)).toMatch(/^M[\d.-]+,[\d.-]+ .*L[\d.-]+,[\d.-]+$/);
    }
    for (const n of layout.nodes) {
      expect(n.x - n.width / 2).toBeGreaterThanOrEqual(0);
      expect(n.x + n.width / 2).toBeLessThanOrEqual(layout.width);
    }
  });

  it("draws an edge whose end is not among the nodes, and a call of a service to itself", () => {
    const layout = layoutMap({
      nodes: [],
      edges: [
        {
          source: "a",
          target: "b",
          targetId: "b",
          targetKind: "service",
          calls: 1,
          rate: 1,
          errors: 0,
          errorRate: 0,
          p50Ms: null,
          p95Ms: null,
          p99Ms: null,
        },
        {
          source: "a",
          target: "a",
          targetId: "a",
          targetKind: "service",
          calls: 1,
          rate: 1,
          errors: 0,
          errorRate: 0,
          p50Ms: null,
          p95Ms: null,
          p99Ms: null,
        },
      ],
    });
    expect(layout.nodes.map((n) => n.node.id).sort()).toEqual(["a", "b"]);
    expect(layout.edges.every((e) => e.points.length >= 2)).toBe(true);
  });

  it("cuts a long name in the node and keeps it whole elsewhere", () => {
    const long = "a-very-long-service-name-that-goes-on";
    expect(nodeLabel(long)).toHaveLength(26);
    expect(nodeLabel(long).endsWith("…")).toBe(true);
    expect(nodeLabel("orders")).toBe("orders");
  });
});

describe("the service map's view", () => {
  it("fits a large drawing in the box, centred, and never blows a small one up", () => {
    const big = fitView({ width: 2000, height: 500 }, { width: 1000, height: 600 });
    expect(big.k).toBeCloseTo(0.5);
    expect(big.x).toBeCloseTo(0);
    expect(big.y).toBeCloseTo((600 - 250) / 2);
    expect(fitView({ width: 200, height: 100 }, { width: 1000, height: 600 }).k).toBe(1);
  });

  it("opens a map too large to read whole around its busiest node, at a readable scale", () => {
    const box = { width: 1000, height: 600 };
    // Fits whole at a readable scale: the fitted view.
    expect(initialView({ width: 1200, height: 500 }, box, { x: 0, y: 0 })).toEqual(
      fitView({ width: 1200, height: 500 }, box),
    );
    // Too tall: readable, centred on the busiest node, no empty band above the drawing.
    const tall = { width: 800, height: 3000 };
    const view = initialView(tall, box, { x: 100, y: 1500 });
    expect(view.k).toBe(READABLE_SCALE);
    expect(view.y + 1500 * view.k).toBeCloseTo(300);
    expect(view.x).toBeCloseTo((1000 - 800 * READABLE_SCALE) / 2);
    const top = initialView(tall, box, { x: 100, y: 20 });
    expect(top.y).toBe(0);
    const bottom = initialView(tall, box, { x: 100, y: 2990 });
    expect(bottom.y + 3000 * bottom.k).toBeCloseTo(600);
  });

  it("zooms about a point, which stays where it was on screen", () => {
    const view = { x: 30, y: -20, k: 0.8 };
    const zoomed = zoomAt(view, 1.5, 400, 300);
    const before = { x: (400 - view.x) / view.k, y: (300 - view.y) / view.k };
    expect(zoomed.x + before.x * zoomed.k).toBeCloseTo(400);
    expect(zoomed.y + before.y * zoomed.k).toBeCloseTo(300);
    expect(zoomAt(view, 100, 0, 0).k).toBe(3);
    expect(panBy(view, 5, -5)).toEqual({ x: 35, y: -25, k: 0.8 });
  });
});
