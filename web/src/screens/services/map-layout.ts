/*
 * The service map's layout: dagre ranks the nodes left to right, callers before callees, and
 * routes each edge around the nodes with room for its label. Pure (no React, no DOM), so it is
 * tested as it is; the canvas draws what it returns.
 */
import dagre from "@dagrejs/dagre";
import type { ServiceMap, ServiceMapNode } from "../../../../src/contracts/services.js";

export type MapEdge = ServiceMap["edges"][number];

export interface Point {
  x: number;
  y: number;
}

/** A node and its box: x, y is its centre. */
export interface PlacedNode extends Point {
  node: ServiceMapNode;
  width: number;
  height: number;
  /** Its name as drawn: long names are cut, the whole one is in its title and label. */
  label: string;
}

export interface PlacedEdge {
  key: string;
  edge: MapEdge;
  points: Point[];
  /** The centre of its label. */
  label: Point;
}

export interface MapLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

export const NODE_HEIGHT = 58;
/** The room an edge's label takes: its line runs through the middle, the text above it. */
export const EDGE_LABEL = { width: 170, height: 30 };
const MAX_LABEL = 26;
const CHAR_WIDTH = 7.5;

/** A name cut to fit a node ("very-long-service-na…"). */
export function nodeLabel(name: string): string {
  return name.length > MAX_LABEL ? `${name.slice(0, MAX_LABEL - 1)}…` : name;
}

/** A node's width: its label's, within bounds. */
export const nodeWidth = (label: string): number =>
  Math.round(Math.min(230, Math.max(130, label.length * CHAR_WIDTH + 36)));

export const edgeKey = (edge: Pick<MapEdge, "source" | "targetId">): string =>
  `${edge.source}→${edge.targetId}`;

/**
 * Places every node and edge. An edge whose end the answer does not list as a node gets a
 * service node of that id, so nothing is dropped; nodes keep the answer's order within a rank.
 */
export function layoutMap(map: Pick<ServiceMap, "nodes" | "edges">): MapLayout {
  const nodes = new Map(map.nodes.map((n) => [n.id, n]));
  for (const edge of map.edges)
    for (const [id, kind] of [
      [edge.source, "service"],
      [edge.targetId, edge.targetKind],
    ] as const)
      if (!nodes.has(id))
        nodes.set(id, {
          id,
          name: id === edge.targetId ? edge.target : id,
          kind,
          requests: 0,
          errorRate: 0,
          p95Ms: null,
        });

  const graph = new dagre.graphlib.Graph({ multigraph: false });
  graph.setGraph({
    rankdir: "LR",
    nodesep: 28,
    ranksep: 70,
    edgesep: 14,
    marginx: 24,
    marginy: 24,
  });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes.values()) {
    const label = nodeLabel(node.name);
    graph.setNode(node.id, { width: nodeWidth(label), height: NODE_HEIGHT, label });
  }
  for (const edge of map.edges)
    graph.setEdge(edge.source, edge.targetId, {
      width: EDGE_LABEL.width,
      height: EDGE_LABEL.height,
      labelpos: "c",
    });
  dagre.layout(graph);

  const placed: PlacedNode[] = [...nodes.values()].map((node) => {
    const box = graph.node(node.id);
    return {
      node,
      x: box.x ?? 0,
      y: box.y ?? 0,
      width: box.width,
      height: box.height,
      label: String(box.label ?? node.name),
    };
  });
  const edges: PlacedEdge[] = map.edges.map((edge) => {
    const route = graph.edge(edge.source, edge.targetId);
    const points = (route?.points ?? []).map((p: Point) => ({ x: p.x, y: p.y }));
    const middle = points[Math.floor(points.length / 2)] ?? { x: 0, y: 0 };
    return {
      key: edgeKey(edge),
      edge,
      points,
      label: { x: route?.x ?? middle.x, y: route?.y ?? middle.y },
    };
  });
  const size = graph.graph();
  return {
    // Left to right, then top to bottom: the order Tab visits them in.
    nodes: placed.sort((a, b) => a.x - b.x || a.y - b.y),
    edges: edges.sort((a, b) => a.label.x - b.label.x || a.label.y - b.label.y),
    width: size.width ?? 0,
    height: size.height ?? 0,
  };
}

/** An edge's route as an SVG path: straight from end to end, smoothed through its bends. */
export function edgePath(points: readonly Point[]): string {
  const [first, ...rest] = points;
  if (!first) return "";
  if (rest.length === 0) return `M${first.x},${first.y}`;
  let path = `M${first.x.toFixed(1)},${first.y.toFixed(1)}`;
  // Quadratic curves through the midpoints between bends (a route without corners).
  for (let i = 0; i < rest.length - 1; i++) {
    const bend = rest[i] as Point;
    const next = rest[i + 1] as Point;
    path += ` Q${bend.x.toFixed(1)},${bend.y.toFixed(1)} ${((bend.x + next.x) / 2).toFixed(1)},${((bend.y + next.y) / 2).toFixed(1)}`;
  }
  const last = rest[rest.length - 1] as Point;
  return `${path} L${last.x.toFixed(1)},${last.y.toFixed(1)}`;
}
