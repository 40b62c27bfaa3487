import type uPlot from "uplot";
import type { Panel } from "../../../../../src/contracts/dashboards";
import { cssVar } from "./colors";
import { type HeatmapFrame, heatLevel } from "./frames";
import { addDragZoom, axisWidth, type createTooltip, themedAxes, tooltipTime } from "./plot-parts";
import { formatUnit } from "./units";

export interface HeatmapPlotInput {
  element: HTMLElement;
  width: number;
  height: number;
  heat: HeatmapFrame;
  panel: Pick<Panel, "unit" | "decimals">;
  window: { from: number; to: number };
  tooltip: ReturnType<typeof createTooltip>;
  onZoom?: ((from: string, to: string) => void) | undefined;
}

/** Each bucket's name: "≤ 100 ms" for an upper bound, "> 5 s" for the last (infinite) one. */
export function bucketLabels(heat: HeatmapFrame, panel: Pick<Panel, "unit" | "decimals">) {
  return heat.buckets.map((bucket, i) => {
    if (typeof bucket === "string") return bucket;
    const previous = heat.buckets[i - 1];
    if (bucket === Number.POSITIVE_INFINITY)
      return typeof previous === "number" ? `> ${formatUnit(previous, panel.unit)}` : "> all";
    return `≤ ${formatUnit(bucket, panel.unit, panel.decimals)}`;
  });
}

/** The smallest gap between two times: a column's width. */
function stepOf(x: readonly number[]): number {
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < x.length; i += 1) step = Math.min(step, (x[i] ?? 0) - (x[i - 1] ?? 0));
  return Number.isFinite(step) && step > 0 ? step : 60;
}

/**
 * A heatmap on uPlot's time axis (so it zooms and lines up like the time series): time columns
 * of bucket cells, each shaded by its count, drawn on the canvas after the axes.
 */
export function heatmapPlot(input: HeatmapPlotInput): {
  options: uPlot.Options;
  data: uPlot.AlignedData;
} {
  const { element, heat, panel, tooltip } = input;
  const step = stepOf(heat.x);
  const n = heat.buckets.length;
  const labels = bucketLabels(heat, panel);
  const rgb = cssVar(element, "--panel-heat", "79 70 229");
  const last = heat.x[heat.x.length - 1] ?? input.window.to;
  const xRange: [number, number] = [
    Math.min(input.window.from, heat.x[0] ?? input.window.from),
    Math.max(input.window.to, last + step),
  ];
  // One label every `every` buckets, so they never overlap.
  const every = Math.max(1, Math.ceil(n / Math.max(1, (input.height - 40) / 16)));
  let hovering = false;

  const cellAt = (u: uPlot, left: number, top: number) => {
    const t = u.posToVal(left, "x");
    const bucket = Math.floor(u.posToVal(top, "y"));
    let xi = -1;
    for (let i = 0; i < heat.x.length; i += 1)
      if ((heat.x[i] ?? 0) <= t && t < (heat.x[i] ?? 0) + step) xi = i;
    return xi < 0 || bucket < 0 || bucket >= n ? null : { xi, bucket };
  };

  const options: uPlot.Options = {
    width: input.width,
    height: input.height,
    legend: { show: false },
    padding: [8, 8, 0, 0],
    cursor: { points: { show: false }, y: false },
    scales: {
      x: { time: true, range: () => xRange },
      y: { time: false, range: () => [0, n] },
    },
    axes: themedAxes(element, {
      splits: () => Array.from({ length: n }, (_, i) => i + 0.5).filter((_, i) => i % every === 0),
      values: (_u, splits) => splits.map((s) => labels[Math.floor(s)] ?? ""),
      width: axisWidth(labels),
    }),
    series: [{}, { label: "count", paths: () => null, points: { show: false } }],
    hooks: {
      init: [
        (u) => {
          u.over.addEventListener("mouseenter", () => {
            hovering = true;
          });
          u.over.addEventListener("mouseleave", () => {
            hovering = false;
            tooltip.hide();
          });
        },
      ],
      draw: [
        (u) => {
          const ctx = u.ctx;
          ctx.save();
          ctx.beginPath();
          ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
          ctx.clip();
          heat.x.forEach((t, xi) => {
            const x0 = u.valToPos(t, "x", true);
            const x1 = u.valToPos(t + step, "x", true);
            heat.counts[xi]?.forEach((count, bi) => {
              const level = heatLevel(count, heat.maxCount);
              if (level <= 0) return;
              const y0 = u.valToPos(bi + 1, "y", true);
              const y1 = u.valToPos(bi, "y", true);
              ctx.fillStyle = `rgb(${rgb} / ${(0.1 + 0.9 * level).toFixed(3)})`;
              // A hairline between cells only where they are wide enough to spare it.
              const w = x1 - x0 > 6 ? x1 - x0 - 1 : x1 - x0;
              const h = y1 - y0 > 6 ? y1 - y0 - 1 : y1 - y0;
              ctx.fillRect(x0, y0, Math.max(1, w), Math.max(1, h));
            });
          });
          ctx.restore();
        },
      ],
      setCursor: [
        (u) => {
          const left = u.cursor.left ?? -1;
          const top = u.cursor.top ?? -1;
          const cell = hovering && left >= 0 ? cellAt(u, left, top) : null;
          if (!cell) return tooltip.hide();
          const count = heat.counts[cell.xi]?.[cell.bucket] ?? 0;
          tooltip.show(u, left, top, tooltipTime(heat.x[cell.xi] ?? 0), [
            { label: labels[cell.bucket] ?? "", value: formatUnit(count, "count") },
          ]);
        },
      ],
    },
  };
  if (input.onZoom) addDragZoom(options, input.onZoom);
  return { options, data: [heat.x, heat.x.map(() => 0)] };
}
