import uPlot from "uplot";
import type { Panel } from "../../../../../src/contracts/dashboards";
import { cssVar, seriesColor, withAlpha } from "./colors";
import { stackValues, type TimeFrame } from "./frames";
import { addDragZoom, axisWidth, type createTooltip, themedAxes, tooltipTime } from "./plot-parts";
import { formatUnit, formatUnitTicks } from "./units";

/** Panels on one page share the cursor: hovering one time shows it on every time series. */
const SYNC_KEY = "vigil-dashboard";
const TOOLTIP_ROWS = 10;

export interface TimeSeriesPlotInput {
  element: HTMLElement;
  width: number;
  height: number;
  data: TimeFrame;
  hidden: ReadonlySet<number>;
  panel: Pick<Panel, "unit" | "decimals" | "thresholds" | "options">;
  /** The window in Unix seconds: the x axis spans it, so panels line up. */
  window: { from: number; to: number };
  tooltip: ReturnType<typeof createTooltip>;
  onZoom?: ((from: string, to: string) => void) | undefined;
}

/** The smallest gap between two times: a bar's width. */
function stepOf(x: readonly number[]): number {
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < x.length; i += 1) step = Math.min(step, (x[i] ?? 0) - (x[i - 1] ?? 0));
  return Number.isFinite(step) && step > 0 ? step : 60;
}

/** Bars side by side within a time step: series `index` of `count` takes its slot. */
function groupedBars(index: number, count: number, step: number) {
  const width = (step * 0.8) / count;
  return uPlot.paths.bars?.({
    disp: {
      x0: {
        unit: 1,
        values: (u: uPlot) => (u.data[0] as number[]).map((x) => x + step * 0.1 + index * width),
      },
      size: { unit: 1, values: () => [width] },
    },
  });
}

/** The uPlot options and data of a time series panel at a size. */
export function timeSeriesPlot(input: TimeSeriesPlotInput): {
  options: uPlot.Options;
  data: uPlot.AlignedData;
} {
  const { element, data, hidden, panel, tooltip } = input;
  const { unit, decimals, thresholds } = panel;
  const style = panel.options.style ?? "line";
  const stacked = panel.options.stacked === true && data.series.length > 1;
  const raw = data.series.map((s) => s.values);
  const drawn = stacked
    ? stackValues(raw.map((values, i) => (hidden.has(i) ? values.map(() => null) : values)))
    : raw;
  const step = stepOf(data.x);
  const bars = style === "bars";
  const first = data.x[0] ?? input.window.from;
  const last = data.x[data.x.length - 1] ?? input.window.to;
  // A bar stands on its bucket's start: the axis goes one step past the last one.
  const xRange: [number, number] = [
    Math.min(input.window.from, first),
    Math.max(input.window.to, bars ? last + step : last),
  ];
  const format = (v: number | null) => formatUnit(v, unit, decimals);
  let low = 0;
  let high = 0;
  for (const values of drawn)
    for (const v of values)
      if (v !== null) {
        low = Math.min(low, v);
        high = Math.max(high, v);
      }
  const widthGuess = axisWidth(formatUnitTicks([low, high, (low + high) / 2], unit, decimals));
  let hovering = false;

  const options: uPlot.Options = {
    width: input.width,
    height: input.height,
    legend: { show: false },
    padding: [8, 8, 0, 0],
    cursor: {
      // The crosshair follows across panels; a drag does not, or every panel would zoom.
      sync: {
        key: SYNC_KEY,
        filters: { pub: (type) => type !== "mousedown" && type !== "mouseup" },
      },
      points: { size: 6 },
    },
    scales: {
      x: { time: true, range: () => xRange },
      y:
        style === "line" && !stacked
          ? {}
          : {
              range: (_u, min, max) =>
                uPlot.rangeNum(Math.min(0, min), Math.max(0, max), 0.1, true),
            },
    },
    axes: themedAxes(element, {
      values: (_u, splits) => formatUnitTicks(splits, unit, decimals),
      width: widthGuess,
    }),
    series: [
      {},
      ...data.series.map((s, i): uPlot.Series => {
        const color = seriesColor(i);
        const fill =
          style === "line" ? undefined : withAlpha(color, bars ? 0.8 : stacked ? 0.5 : 0.18);
        return {
          label: s.name,
          stroke: color,
          width: bars ? 1 : 1.5,
          show: !hidden.has(i),
          spanGaps: false,
          points: { show: !bars && data.x.length <= 1 },
          ...(fill ? { fill } : {}),
          ...(bars
            ? {
                paths:
                  stacked || data.series.length === 1
                    ? uPlot.paths.bars?.({ size: [0.8, Number.POSITIVE_INFINITY], align: 1 })
                    : groupedBars(i, data.series.length, step),
              }
            : {}),
        };
      }),
    ],
    // Stacked: each series fills down to the one below it.
    bands: stacked
      ? data.series.slice(1).map((_, i) => ({ series: [i + 2, i + 1] as [number, number] }))
      : [],
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
      draw: [(u) => drawThresholds(u, element, thresholds)],
      setCursor: [
        (u) => {
          const idx = u.cursor.idx;
          const left = u.cursor.left ?? -1;
          const top = u.cursor.top ?? -1;
          const t = idx === null || idx === undefined ? undefined : data.x[idx];
          if (!hovering || t === undefined || idx === null || idx === undefined || left < 0)
            return tooltip.hide();
          const rows = data.series
            .map((s, i) => ({ i, name: s.name, v: s.values[idx] ?? null }))
            .filter((r) => r.v !== null && !hidden.has(r.i))
            .sort((a, b) => (b.v ?? 0) - (a.v ?? 0))
            .slice(0, TOOLTIP_ROWS)
            .map((r) => ({ label: r.name, value: format(r.v), color: seriesColor(r.i) }));
          if (rows.length === 0) return tooltip.hide();
          tooltip.show(u, left, top, tooltipTime(t), rows);
        },
      ],
    },
  };
  if (input.onZoom) addDragZoom(options, input.onZoom);
  return { options, data: [data.x, ...drawn] as uPlot.AlignedData };
}

/** Each threshold as a dashed line in its colour, where it falls inside the plot. */
function drawThresholds(u: uPlot, element: Element, thresholds: Panel["thresholds"]) {
  const min = u.scales.y?.min;
  const max = u.scales.y?.max;
  if (min === undefined || max === undefined) return;
  const ctx = u.ctx;
  for (const threshold of thresholds) {
    if (threshold.value < min || threshold.value > max) continue;
    const y = Math.round(u.valToPos(threshold.value, "y", true));
    ctx.save();
    ctx.strokeStyle = cssVar(element, `--panel-${threshold.color}`, "#dc2626");
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y);
    ctx.lineTo(u.bbox.left + u.bbox.width, y);
    ctx.stroke();
    ctx.restore();
  }
}
