import type { ServiceMapNode } from "../../../../src/contracts/services";

/**
 * A node's outline by its kind, centred on (0, 0): a service is a rounded box, a database a
 * cylinder, an external address a hexagon with a dashed edge, a queue a parallelogram. The
 * kind is also written in the node: the shape is never the only sign of it.
 */
export function NodeShape({
  kind,
  width,
  height,
}: {
  kind: ServiceMapNode["kind"];
  width: number;
  height: number;
}) {
  const w = width / 2;
  const h = height / 2;
  switch (kind) {
    case "database": {
      const ry = 7;
      return (
        <>
          <path
            className="svcmap-shape"
            d={`M${-w},${-h + ry} A${w},${ry} 0 0 1 ${w},${-h + ry} V${h - ry} A${w},${ry} 0 0 1 ${-w},${h - ry} Z`}
          />
          <path
            className="svcmap-shape-line"
            d={`M${-w},${-h + ry} A${w},${ry} 0 0 0 ${w},${-h + ry}`}
          />
        </>
      );
    }
    case "external":
      return (
        <polygon
          className="svcmap-shape svcmap-dashed"
          points={`${-w + 12},${-h} ${w - 12},${-h} ${w},0 ${w - 12},${h} ${-w + 12},${h} ${-w},0`}
        />
      );
    case "messaging":
      return (
        <polygon
          className="svcmap-shape"
          points={`${-w + 12},${-h} ${w},${-h} ${w - 12},${h} ${-w},${h}`}
        />
      );
    default:
      return <rect className="svcmap-shape" x={-w} y={-h} width={width} height={height} rx={8} />;
  }
}

/** The arrowheads of the edges, one per tone (a marker does not take its path's colour). */
export function ArrowMarkers() {
  return (
    <defs>
      {(["", "warn", "bad"] as const).map((tone) => (
        <marker
          key={tone || "plain"}
          id={`svcmap-arrow${tone ? `-${tone}` : ""}`}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerUnits="userSpaceOnUse"
          markerWidth="9"
          markerHeight="9"
          orient="auto-start-reverse"
        >
          <path
            d="M0,0 L10,5 L0,10 z"
            className={`svcmap-arrow${tone ? ` svc-tone-${tone}` : ""}`}
          />
        </marker>
      ))}
    </defs>
  );
}
