import {
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  useEffect,
  useRef,
  useState,
} from "react";
import { useLocation } from "wouter";
import { formatDuration } from "../../lib/format";
import { errorTone, formatRate } from "./figures";
import { edgePath, type MapEdge, type MapLayout, type PlacedNode } from "./map-layout";
import { ArrowMarkers, NodeShape } from "./map-shapes";
import {
  fitView,
  initialView,
  panBy,
  READABLE_SCALE,
  type Viewport,
  viewTransform,
  zoomAt,
} from "./map-viewport";

const PAN_STEP = 60;
const ZOOM_STEP = 1.25;
/** Which way an arrow key moves the drawing (the view moves the other way). */
const PAN_KEYS: Record<string, [number, number]> = {
  ArrowLeft: [1, 0],
  ArrowRight: [-1, 0],
  ArrowUp: [0, 1],
  ArrowDown: [0, -1],
};

const percent = (ratio: number) =>
  ratio === 0 ? "0 %" : `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)} %`;

/** What an edge's label says: calls per second or minute, errors, p95. */
export const edgeFigures = (edge: MapEdge): string =>
  `${formatRate(edge.rate)} · ${percent(edge.errorRate)} err · p95 ${formatDuration(edge.p95Ms)}`;

/**
 * The map as SVG: drag or arrow keys pan, the wheel or +/− zoom, 0 fits it again. Every node and
 * edge is a link (Tab reaches it, Enter opens it); hovering or focusing a node dims what it is not
 * connected to.
 */
export function MapCanvas({
  layout,
  windowSeconds,
  nodeHref,
  edgeHref,
}: {
  layout: MapLayout;
  windowSeconds: number;
  nodeHref: (node: PlacedNode["node"]) => string;
  edgeHref: (edge: MapEdge) => string;
}) {
  const [, navigate] = useLocation();
  const box = useRef<HTMLDivElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [view, setView] = useState<Viewport>({ x: 0, y: 0, k: 1 });
  const [active, setActive] = useState<string | null>(null);
  const drag = useRef<{ x: number; y: number; moved: boolean; id: number } | null>(null);
  const dragged = useRef(false);

  // The box's size follows the page; the map is fitted to it once it is known and on a new map.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const fitAll = () => setView(fitView(layout, size));
  // A new map opens readable: all of it, or around its busiest service when that is too small.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on a new layout or a first size only
  useEffect(() => {
    const busiest = layout.nodes.reduce<PlacedNode | undefined>(
      (best, n) => (best === undefined || n.node.requests > best.node.requests ? n : best),
      undefined,
    );
    setView(initialView(layout, size, busiest ?? { x: 0, y: 0 }));
  }, [layout, size.width > 0]);

  // The wheel zooms under the cursor; React's wheel listener is passive, so this one is added here.
  useEffect(() => {
    const element = svg.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const rect = element.getBoundingClientRect();
      const factor = Math.exp(-event.deltaY * 0.0015);
      setView((v) => zoomAt(v, factor, event.clientX - rect.left, event.clientY - rect.top));
    };
    element.addEventListener("wheel", onWheel, { passive: false });
    return () => element.removeEventListener("wheel", onWheel);
  }, []);

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    dragged.current = false;
    drag.current = { x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const start = drag.current;
    if (!start) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < 4) return;
    if (!start.moved) svg.current?.setPointerCapture(start.id);
    start.moved = true;
    dragged.current = true;
    drag.current = { ...start, x: event.clientX, y: event.clientY };
    setView((v) => panBy(v, dx, dy));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  /** Zooms about the middle of the box (the buttons, + and −). */
  const zoomBy = (factor: number) =>
    setView((v) => zoomAt(v, factor, size.width / 2, size.height / 2));
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const move = PAN_KEYS[event.key];
    if (move) setView((v) => panBy(v, move[0] * PAN_STEP, move[1] * PAN_STEP));
    else if (event.key === "+" || event.key === "=") zoomBy(ZOOM_STEP);
    else if (event.key === "-") zoomBy(1 / ZOOM_STEP);
    else if (event.key === "0") fitAll();
    else return;
    event.preventDefault();
  };
  /** A link's click opens it in the app, unless it ended a drag or asks for a new tab. */
  const open = (href: string) => (event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (dragged.current) return;
    navigate(`~${href}`);
  };
  /**
   * A node reached by the keyboard outside the view is brought into it (not one a pointer
   * focuses: it would move away between the press and the release, and the click be lost).
   */
  const reveal = (node: PlacedNode, element: Element) => {
    setActive(node.node.id);
    if (!element.matches(":focus-visible")) return;
    const x = view.x + node.x * view.k;
    const y = view.y + node.y * view.k;
    const margin = 40;
    if (x < margin || y < margin || x > size.width - margin || y > size.height - margin)
      setView((v) => ({
        ...v,
        x: size.width / 2 - node.x * v.k,
        y: size.height / 2 - node.y * v.k,
      }));
  };

  const touches = (edge: MapEdge) =>
    active === null || edge.source === active || edge.targetId === active;
  const neighbours = new Set(
    active === null
      ? []
      : layout.edges.flatMap(({ edge }) =>
          edge.source === active || edge.targetId === active ? [edge.source, edge.targetId] : [],
        ),
  );
  const maxRate = Math.max(0, ...layout.edges.map((e) => e.edge.rate));
  const strokeWidth = (rate: number) => 1.25 + (maxRate > 0 ? 2.75 * Math.sqrt(rate / maxRate) : 0);

  return (
    <div className="svcmap">
      <fieldset className="svcmap-controls">
        <legend className="visually-hidden">Zoom</legend>
        <button
          type="button"
          className="button small"
          onClick={() => zoomBy(ZOOM_STEP)}
          aria-label="Zoom in"
        >
          +
        </button>
        <button
          type="button"
          className="button small"
          onClick={() => zoomBy(1 / ZOOM_STEP)}
          aria-label="Zoom out"
        >
          −
        </button>
        <button type="button" className="button small" onClick={fitAll}>
          Fit
        </button>
      </fieldset>
      <div
        ref={box}
        className="svcmap-box"
        style={{ height: `${Math.min(760, Math.max(320, layout.height + 48))}px` }}
      >
        <svg
          ref={svg}
          className={`svcmap-svg${view.k < READABLE_SCALE ? " svcmap-far" : ""}`}
          width={size.width}
          height={size.height}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
          onMouseLeave={() => setActive(null)}
        >
          <title>
            Service map: drag or arrow keys move it, the wheel or + and − zoom, 0 fits it
          </title>
          <ArrowMarkers />
          <g transform={viewTransform(view)}>
            <g>
              {layout.edges.map(({ key: id, edge, points }) => {
                const tone = errorTone(edge.errorRate);
                return (
                  <path
                    key={id}
                    d={edgePath(points)}
                    className={`svcmap-edge${tone ? ` svc-tone-${tone}` : ""}${touches(edge) ? "" : " svcmap-dim"}`}
                    strokeWidth={strokeWidth(edge.rate)}
                    markerEnd={`url(#svcmap-arrow${tone ? `-${tone}` : ""})`}
                  />
                );
              })}
            </g>
            {layout.nodes.map((placed) => {
              const { node } = placed;
              const tone = node.requests > 0 ? errorTone(node.errorRate) : undefined;
              const rate = windowSeconds > 0 ? node.requests / windowSeconds : 0;
              const figures = `${formatRate(rate)} · ${percent(node.errorRate)} err`;
              const href = nodeHref(node);
              const dim = active !== null && active !== node.id && !neighbours.has(node.id);
              return (
                <a
                  key={node.id}
                  href={href}
                  className={`svcmap-node svcmap-${node.kind}${tone ? ` svc-tone-${tone}` : ""}${dim ? " svcmap-dim" : ""}`}
                  aria-label={`${node.name}, ${node.kind}: ${figures}, p95 ${formatDuration(node.p95Ms)}. ${
                    node.kind === "service"
                      ? "Opens its page."
                      : "Opens the traces of calls into it."
                  }`}
                  onClick={open(href)}
                  onFocus={(event) => reveal(placed, event.currentTarget)}
                  onBlur={() => setActive(null)}
                  onMouseEnter={() => setActive(node.id)}
                >
                  <g transform={`translate(${placed.x} ${placed.y})`}>
                    <title>{node.name}</title>
                    <NodeShape kind={node.kind} width={placed.width} height={placed.height} />
                    <text className="svcmap-name" y={-10} textAnchor="middle">
                      {placed.label}
                    </text>
                    <text className="svcmap-figures" y={7} textAnchor="middle">
                      {figures}
                    </text>
                    <text className="svcmap-figures" y={21} textAnchor="middle">
                      {node.kind === "service" ? "" : `${node.kind} · `}p95{" "}
                      {formatDuration(node.p95Ms)}
                    </text>
                  </g>
                </a>
              );
            })}
            {layout.edges.map(({ key: id, edge, points, label }) => {
              const href = edgeHref(edge);
              const text = edgeFigures(edge);
              return (
                <a
                  key={id}
                  href={href}
                  className={`svcmap-edge-link${
                    touches(edge) ? (active === null ? "" : " svcmap-near") : " svcmap-dim"
                  }`}
                  aria-label={`${edge.source} calls ${edge.target}${
                    edge.targetKind === "service" ? "" : ` (${edge.targetKind})`
                  }: ${text}. Opens its traces.`}
                  onClick={open(href)}
                >
                  <title>{`${edge.source} → ${edge.target}`}</title>
                  <path className="svcmap-edge-hit" d={edgePath(points)} />
                  <text
                    className="svcmap-edge-label"
                    x={label.x}
                    y={label.y - 5}
                    textAnchor="middle"
                  >
                    {text}
                  </text>
                </a>
              );
            })}
          </g>
        </svg>
      </div>
    </div>
  );
}
