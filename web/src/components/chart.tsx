import { useEffect, useMemo, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { categoryAxis, drawnData, legendValue, timeLegendValue } from "./chart-parts";

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color?: string;
}

const PALETTE = [
  "#4f46e5",
  "#0891b2",
  "#d97706",
  "#db2777",
  "#16a34a",
  "#7c3aed",
  "#dc2626",
  "#0d9488",
];

export interface TimeSeriesChartProps {
  /** X values: Unix seconds for time series, or category indexes for bar charts. */
  x: number[];
  series: ChartSeries[];
  height?: number;
  kind?: "line" | "bar";
  /** A horizontal line (an alert's threshold). */
  threshold?: number;
  /** Formats the y axis and the legend's values. */
  formatValue?: (n: number) => string;
  /** Formats the y axis's ticks together (one unit for all); else each with `formatValue`. */
  formatTicks?: (ticks: number[]) => string[];
  /** When x is not time: the labels of each x index. */
  categories?: string[];
  /** What the categories are, for the legend ("Series", "Service"). */
  categoryLabel?: string;
  title?: string;
  /** Makes a time chart zoomable: a drag across it calls this with its x bounds (Unix seconds). */
  onZoom?: (from: number, to: number) => void;
}

/**
 * A uPlot chart that fills its container's width and follows its resizes. uPlot draws on a
 * canvas, so 10,000 points stay cheap; the accessible name and a summary go on the figure.
 */
export function TimeSeriesChart({
  x,
  series,
  height = 220,
  kind = "line",
  threshold,
  formatValue,
  formatTicks,
  categories,
  categoryLabel = "Category",
  title,
  onZoom,
}: TimeSeriesChartProps) {
  const container = useRef<HTMLDivElement>(null);
  // The bucket still filling is left out here, for every chart (see drawnData).
  const drawn = useMemo(
    () => drawnData(x, series, categories, Date.now() / 1000),
    [x, series, categories],
  );
  // The latest handler, read at the drag's end, so a new callback does not rebuild the chart.
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const zoomable = onZoom !== undefined && !categories;
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const bars = kind === "bar" ? uPlot.paths.bars?.({ size: [0.8, 64] }) : undefined;
    const fmt = (n: number | null) => (n === null ? "—" : formatValue ? formatValue(n) : String(n));
    const options: uPlot.Options = {
      width: Math.max(200, element.clientWidth),
      height,
      // A category chart has no latest point to show: its legend names the series only.
      legend: { show: series.length > 0, live: !categories },
      // Categories get half a slot either side, so the first and last bars are not cut in half.
      scales: {
        x: categories
          ? { time: false, range: (_u, min, max) => [(min ?? 0) - 0.5, (max ?? 0) + 0.5] }
          : { time: true },
      },
      axes: [
        categories ? categoryAxis(categories) : {},
        {
          values: (_u, splits) => (formatTicks ? formatTicks(splits) : splits.map((n) => fmt(n))),
          size: 64,
        },
      ],
      series: [
        // The legend names the category under the cursor rather than its index.
        categories
          ? { label: categoryLabel, value: (_u: uPlot, i: number) => categories[i] ?? "" }
          : { value: timeLegendValue(drawn.x, drawn.latest) },
        ...series.map((s, i) => {
          const color = s.color ?? PALETTE[i % PALETTE.length] ?? "#4f46e5";
          return {
            label: s.label,
            stroke: color,
            width: 1.5,
            fill: kind === "bar" ? `${color}cc` : `${color}1a`,
            value: legendValue(fmt, drawn.values[i] ?? [], drawn.latest),
            ...(bars ? { paths: bars, points: { show: false } } : {}),
          };
        }),
      ],
      hooks:
        threshold === undefined
          ? {}
          : {
              draw: [
                (u: uPlot) => {
                  const y = u.valToPos(threshold, "y", true);
                  const ctx = u.ctx;
                  ctx.save();
                  ctx.strokeStyle = "#dc2626";
                  ctx.setLineDash([6, 4]);
                  ctx.lineWidth = 1.5;
                  ctx.beginPath();
                  ctx.moveTo(u.bbox.left, y);
                  ctx.lineTo(u.bbox.left + u.bbox.width, y);
                  ctx.stroke();
                  ctx.restore();
                },
              ],
            },
    };
    if (threshold !== undefined) {
      options.scales = {
        ...options.scales,
        y: {
          range: (_u, min, max) => [
            Math.min(min ?? 0, threshold, 0),
            Math.max(max ?? 0, threshold) * 1.1 || 1,
          ],
        },
      };
    }
    if (zoomable) addDragZoom(options, (from, to) => zoom.current?.(from, to));
    const plot = new uPlot(options, [drawn.x, ...drawn.values] as uPlot.AlignedData, element);
    const observer = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(200, element.clientWidth), height }),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [
    drawn,
    series,
    height,
    kind,
    threshold,
    formatValue,
    formatTicks,
    categories,
    categoryLabel,
    zoomable,
  ]);
  return (
    <figure
      className="chart"
      aria-label={title ?? series.map((s) => s.label).join(", ")}
      title={zoomable ? "Drag across the chart to zoom in to that time" : undefined}
    >
      <div ref={container} />
      {drawn.filling && (
        <figcaption className="muted small">
          The current {drawn.filling} is still filling: it is not drawn.
        </figcaption>
      )}
    </figure>
  );
}

/**
 * Dragging across the chart selects a span of x instead of rescaling the chart alone: the
 * handler turns it into the screen's time range, so every figure follows. Clicks (under 4 px)
 * are not drags.
 */
function addDragZoom(options: uPlot.Options, onZoom: (from: number, to: number) => void) {
  options.cursor = { ...options.cursor, drag: { x: true, y: false, setScale: false, dist: 4 } };
  options.hooks = {
    ...options.hooks,
    setSelect: [
      (u: uPlot) => {
        const { left, width } = u.select;
        if (width <= 0) return;
        u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
        onZoom(u.posToVal(left, "x"), u.posToVal(left + width, "x"));
      },
    ],
  };
}

/** A tiny inline trend (an error group's occurrences) as SVG: no canvas for a list row. */
export function Sparkline({
  values,
  width = 120,
  height = 28,
  label,
}: {
  values: number[];
  width?: number;
  height?: number;
  label: string;
}) {
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values
    .map((v, i) => `${(i * step).toFixed(1)},${(height - (v / max) * (height - 2) - 1).toFixed(1)}`)
    .join(" ");
  return (
    <svg className="sparkline" width={width} height={height} role="img" aria-label={label}>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
