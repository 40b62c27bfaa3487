import type uPlot from "uplot";
import { bucketName, firstFillingBucket, latestIndex } from "../lib/chart-data";

/**
 * What a chart draws of its data: a time chart leaves out its last bucket while it is still
 * filling (a partial count reads as a drop), and names it; `latest` is the point its legend
 * shows until a hover picks another.
 */
export interface DrawnData {
  x: number[];
  values: (number | null)[][];
  latest: number | null;
  /** "minute", "hour": the bucket left out, or null when every bucket is complete. */
  filling: string | null;
}

export function drawnData(
  x: number[],
  series: readonly { values: (number | null)[] }[],
  categories: readonly string[] | undefined,
  nowSeconds: number,
): DrawnData {
  const all = series.map((s) => s.values);
  if (categories) return { x, values: all, latest: null, filling: null };
  const end = firstFillingBucket(x, nowSeconds);
  const values = end === x.length ? all : all.map((v) => v.slice(0, end));
  const last = x[x.length - 1];
  const before = x[x.length - 2];
  return {
    x: end === x.length ? x : x.slice(0, end),
    values,
    latest: latestIndex(values, end),
    filling:
      end < x.length && last !== undefined && before !== undefined
        ? bucketName(last - before)
        : null,
  };
}

/** A series' legend value: under the cursor, else at the latest point (never "—" for want of a hover). */
export const legendValue =
  (format: (n: number | null) => string, values: (number | null)[], latest: number | null) =>
  (_u: uPlot, v: number | null, _series: number, idx: number | null) =>
    format(
      idx === null || idx === undefined ? (latest === null ? null : (values[latest] ?? null)) : v,
    );

const bucketTime = (seconds: number) =>
  new Date(seconds * 1000).toLocaleString(undefined, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });

/** The time legend: the bucket under the cursor, else the latest one the values are of. */
export const timeLegendValue =
  (x: number[], latest: number | null) =>
  (_u: uPlot, v: number | null, _series: number, idx: number | null) => {
    const t = idx === null || idx === undefined ? (latest === null ? null : x[latest]) : v;
    return t === null || t === undefined ? "—" : bucketTime(t);
  };

const AXIS_FONT = "12px system-ui, -apple-system, 'Segoe UI', sans-serif";
const LONGEST_CATEGORY = 24;

let measurer: CanvasRenderingContext2D | null | undefined;
function textWidth(text: string): number {
  measurer ??= document.createElement("canvas").getContext("2d");
  if (!measurer) return text.length * 7;
  measurer.font = AXIS_FONT;
  return measurer.measureText(text).width;
}

/**
 * The x axis of a category chart: labels cut to a readable length and spaced at least their
 * widest apart, so uPlot labels every 2nd or 5th category rather than drawing them over each
 * other when they do not fit.
 */
export function categoryAxis(categories: readonly string[]): uPlot.Axis {
  const labels = categories.map((c) =>
    c.length > LONGEST_CATEGORY ? `${c.slice(0, LONGEST_CATEGORY - 1)}…` : c,
  );
  const widest = Math.max(0, ...labels.map(textWidth));
  return {
    font: AXIS_FONT,
    // Whole steps only: a category sits on an integer.
    incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
    space: Math.ceil(widest) + 12,
    values: (_u, splits) => splits.map((i) => labels[i] ?? ""),
  };
}
