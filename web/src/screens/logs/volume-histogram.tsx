import { type KeyboardEvent, type PointerEvent, useRef, useState } from "react";
import { LOG_LEVELS, type LogVolume } from "../../../../src/contracts/logs";
import { formatCompact, formatNumber, formatTime } from "../../lib/format";

type Point = LogVolume["series"][number];

/** Levels from the bottom of a bar up: the severe ones on top, where the eye lands. */
const STACK = LOG_LEVELS;

/**
 * The list's records per level over its window as stacked bars (SVG, one per bucket). Hovering
 * or the arrow keys read a bar out; a click on a bar, a drag across bars, or Enter zooms the
 * time range to them (the screen's range: every figure follows, Back returns).
 */
export function VolumeHistogram({
  volume,
  refreshing,
  onZoom,
}: {
  volume: LogVolume;
  refreshing: boolean;
  /** The chosen span, in Unix seconds. */
  onZoom: (from: number, to: number) => void;
}) {
  const { series } = volume;
  const count = series.length;
  const max = Math.max(1, ...series.map((p) => p.total));
  const [active, setActive] = useState<number | null>(null);
  const [drag, setDrag] = useState<{ start: number; end: number } | null>(null);
  const plot = useRef<HTMLDivElement>(null);

  const indexAt = (clientX: number): number => {
    const box = plot.current?.getBoundingClientRect();
    if (!box || box.width === 0) return 0;
    return Math.max(0, Math.min(count - 1, Math.floor(((clientX - box.left) / box.width) * count)));
  };
  const zoomTo = (a: number, b: number) => {
    const first = series[Math.min(a, b)];
    const last = series[Math.max(a, b)];
    if (!first || !last) return;
    const from = Math.max(Date.parse(first.time), Date.parse(volume.from));
    const to = Math.min(Date.parse(last.time) + volume.bucketSeconds * 1000, Date.parse(volume.to));
    if (to > from) onZoom(from / 1000, to / 1000);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const at = indexAt(event.clientX);
    setDrag({ start: at, end: at });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const at = indexAt(event.clientX);
    setActive(at);
    if (drag) setDrag({ ...drag, end: at });
  };
  const onPointerUp = () => {
    if (drag) zoomTo(drag.start, drag.end);
    setDrag(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: (active ?? -1) + 1,
      ArrowLeft: (active ?? count) - 1,
      Home: 0,
      End: count - 1,
    };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      setActive(Math.max(0, Math.min(count - 1, next)));
    } else if (event.key === "Enter" && active !== null) {
      event.preventDefault();
      zoomTo(active, active);
    }
  };

  const shown = active === null ? undefined : series[active];
  const selection = drag && {
    x: Math.min(drag.start, drag.end),
    width: Math.abs(drag.end - drag.start) + 1,
  };
  return (
    <figure className={`volume${refreshing ? " refreshing" : ""}`} aria-labelledby="volume-readout">
      <figcaption className="volume-head">
        <span id="volume-readout" className="small" aria-live="polite">
          {shown ? (
            readout(shown, volume.bucketSeconds)
          ) : (
            <>
              <strong className="volume-total">{formatNumber(volume.total)}</strong> log
              {volume.total === 1 ? "" : "s"} in this range
            </>
          )}
        </span>
        <span className="volume-legend small">
          {STACK.filter((l) => volume.byLevel[l] > 0).map((level) => (
            <span key={level}>
              <i className={`volume-swatch level-${level}`} aria-hidden="true" /> {level}{" "}
              {formatCompact(volume.byLevel[level])}
            </span>
          ))}
        </span>
      </figcaption>
      <div className="volume-body">
        <span className="volume-max small muted" aria-hidden="true">
          {formatCompact(max)}
        </span>
        <div
          ref={plot}
          className="volume-plot"
          tabIndex={0}
          role="slider"
          aria-label="Log volume by severity: arrow keys choose a bar, Enter zooms to it; click or drag to zoom"
          aria-valuemin={0}
          aria-valuemax={Math.max(0, count - 1)}
          aria-valuenow={active ?? 0}
          aria-valuetext={shown ? readout(shown, volume.bucketSeconds) : "No bar chosen"}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
          onPointerLeave={() => !drag && setActive(null)}
          onKeyDown={onKeyDown}
          onBlur={() => setActive(null)}
        >
          <svg viewBox={`0 0 ${count} 100`} preserveAspectRatio="none" aria-hidden="true">
            {series.map((point, i) => (
              <Bar key={point.time} point={point} index={i} max={max} active={i === active} />
            ))}
            {selection && (
              <rect
                className="volume-selection"
                x={selection.x}
                y={0}
                width={selection.width}
                height={100}
              />
            )}
          </svg>
        </div>
      </div>
      <div className="volume-axis small muted" aria-hidden="true">
        <span>{formatTime(volume.from)}</span>
        <span>{formatTime(volume.to)}</span>
      </div>
    </figure>
  );
}

function Bar({
  point,
  index,
  max,
  active,
}: {
  point: Point;
  index: number;
  max: number;
  active: boolean;
}) {
  let top = 100;
  return (
    <g className={active ? "active" : undefined}>
      {active && <rect className="volume-hover" x={index} y={0} width={1} height={100} />}
      {STACK.map((level) => {
        const height = (point[level] / max) * 100;
        if (height === 0) return null;
        top -= height;
        return (
          <rect
            key={level}
            className={`level-${level}`}
            x={index + 0.1}
            y={top}
            width={0.8}
            height={height}
          />
        );
      })}
    </g>
  );
}

/** One bucket in words: its time span, its total and its levels. */
function readout(point: Point, bucketSeconds: number): string {
  const end = new Date(Date.parse(point.time) + bucketSeconds * 1000).toISOString();
  const levels = STACK.filter((l) => point[l] > 0)
    .map((l) => `${formatNumber(point[l])} ${l}`)
    .join(", ");
  return `${formatTime(point.time)} – ${formatTime(end)}: ${formatNumber(point.total)} record${point.total === 1 ? "" : "s"}${levels ? ` (${levels})` : ""}`;
}
