import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { cssVar } from "./colors";

/** What the time series and heatmap panels share around uPlot: size, theme, zoom and tooltip. */

const AXIS_FONT = "11px system-ui, -apple-system, 'Segoe UI', sans-serif";

/** Axes in the theme's colours (uPlot's default is black, unreadable on the dark theme). */
export function themedAxes(
  element: Element,
  y: Pick<uPlot.Axis, "values" | "splits" | "incrs"> & { width?: number },
): uPlot.Axis[] {
  const stroke = cssVar(element, "--muted", "#5b5f73");
  const grid = { stroke: cssVar(element, "--border", "#dcdde6"), width: 1 };
  const ticks = { ...grid, size: 4 };
  const { width, ...rest } = y;
  return [
    // Tall enough for uPlot's second line (the date under the first time of a day).
    { stroke, grid, ticks, font: AXIS_FONT, size: 44 },
    { stroke, grid, ticks, font: AXIS_FONT, size: width ?? 56, ...rest },
  ];
}

/** The y axis's width for its labels (uPlot does not measure them itself). */
export const axisWidth = (labels: readonly string[]): number =>
  Math.min(120, Math.max(36, Math.max(0, ...labels.map((l) => l.length)) * 6.5 + 16));

/**
 * A drag across the plot selects a span of time instead of rescaling this plot alone: the
 * handler makes it the dashboard's window, so every panel follows. Clicks (under 4 px) are not
 * drags.
 */
export function addDragZoom(options: uPlot.Options, onZoom: (from: string, to: string) => void) {
  options.cursor = { ...options.cursor, drag: { x: true, y: false, setScale: false, dist: 4 } };
  options.hooks = {
    ...options.hooks,
    setSelect: [
      ...(options.hooks?.setSelect ?? []),
      (u: uPlot) => {
        const { left, width } = u.select;
        if (width <= 0) return;
        u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
        const from = u.posToVal(left, "x");
        const to = u.posToVal(left + width, "x");
        if (Number.isFinite(from) && Number.isFinite(to) && to > from)
          onZoom(new Date(from * 1000).toISOString(), new Date(to * 1000).toISOString());
      },
    ],
  };
}

/**
 * Mounts a plot that fills `element` and follows its size; returns what unmounts it. `make`
 * builds the options for the size, so a rebuild (new data, theme) starts at the right size.
 */
export function mountPlot(
  element: HTMLElement,
  make: (width: number, height: number) => { options: uPlot.Options; data: uPlot.AlignedData },
): () => void {
  const size = () => ({
    width: Math.max(120, Math.floor(element.clientWidth)),
    height: Math.max(60, Math.floor(element.clientHeight)),
  });
  const first = size();
  const { options, data } = make(first.width, first.height);
  const plot = new uPlot(options, data, element);
  const observer = new ResizeObserver(() => plot.setSize(size()));
  observer.observe(element);
  return () => {
    observer.disconnect();
    plot.destroy();
  };
}

export interface TooltipRow {
  label: string;
  value: string;
  color?: string;
}

/**
 * A tooltip over the plot, written with text nodes only (series names come from data), placed
 * beside the cursor and kept inside the panel.
 */
export function createTooltip(host: HTMLElement) {
  const tip = document.createElement("div");
  tip.className = "panel-tooltip";
  tip.hidden = true;
  tip.setAttribute("role", "presentation");
  host.append(tip);
  return {
    show(plot: uPlot, left: number, top: number, title: string, rows: readonly TooltipRow[]) {
      const heading = document.createElement("div");
      heading.className = "panel-tooltip-title";
      heading.textContent = title;
      const lines = rows.map((row) => {
        const line = document.createElement("div");
        line.className = "panel-tooltip-row";
        const swatch = document.createElement("span");
        swatch.className = "panel-swatch";
        if (row.color) swatch.style.background = row.color;
        const label = document.createElement("span");
        label.className = "panel-tooltip-label";
        label.textContent = row.label;
        const value = document.createElement("span");
        value.className = "panel-tooltip-value";
        value.textContent = row.value;
        line.append(swatch, label, value);
        return line;
      });
      tip.replaceChildren(heading, ...lines);
      tip.hidden = false;
      const over = plot.over.getBoundingClientRect();
      const box = host.getBoundingClientRect();
      const x = over.left - box.left + left;
      const y = over.top - box.top + top;
      const flip = x + tip.offsetWidth + 16 > box.width;
      tip.style.left = `${Math.max(0, flip ? x - tip.offsetWidth - 12 : x + 12)}px`;
      tip.style.top = `${Math.max(0, Math.min(y + 12, box.height - tip.offsetHeight))}px`;
    },
    hide() {
      tip.hidden = true;
    },
    remove() {
      tip.remove();
    },
  };
}

/** A time under the cursor, as the tooltip heads it. */
export const tooltipTime = (seconds: number): string =>
  new Date(seconds * 1000).toLocaleString(undefined, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
