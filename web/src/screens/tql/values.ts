import type { TqlColumn, TqlResult } from "./tql-api";

// How the engine's types and values read (shared with the dashboards' panels).
export {
  baseType,
  formatCell,
  isNumericType,
  isTimeType,
  parseTime,
  toNumber,
} from "../../lib/column-types";

import { formatCell, isNumericType, isTimeType, parseTime, toNumber } from "../../lib/column-types";

/** What the chart draws, chosen in its form (and kept in the URL). */
export interface ChartConfig {
  x: string;
  ys: string[];
  /** A column whose values each become a series (the first y column per value). */
  split: string;
  kind: "line" | "bar";
}

export interface ChartData {
  /** Unix seconds when `time`, else category indexes. */
  x: number[];
  series: { label: string; values: (number | null)[] }[];
  categories?: string[];
  time: boolean;
  /** Split values left out (the chart shows the largest few). */
  omitted: number;
}

/** Series a split draws at most; the rest are named as omitted. */
export const MAX_SPLIT_SERIES = 10;

/** Sensible first choices: time (or text) on x, the numbers as series, split by a text column. */
export function defaultChartConfig(columns: readonly TqlColumn[]): ChartConfig {
  const time = columns.find((c) => isTimeType(c.type));
  const x = time ?? columns.find((c) => !isNumericType(c.type)) ?? columns[0];
  const ys = columns.filter((c) => c !== x && isNumericType(c.type)).map((c) => c.name);
  const split = time
    ? columns.find((c) => c !== x && !isNumericType(c.type) && !isTimeType(c.type))?.name
    : undefined;
  return { x: x?.name ?? "", ys: ys.slice(0, 6), split: split ?? "", kind: time ? "line" : "bar" };
}

/** Turns result rows into the chart's x values and aligned series. */
export function buildChartData(result: TqlResult, config: ChartConfig): ChartData {
  const index = (name: string) => result.columns.findIndex((c) => c.name === name);
  const xi = index(config.x);
  const xColumn = result.columns[xi];
  const yis = config.ys.map(index).filter((i) => i >= 0 && i !== xi);
  const si = config.split ? index(config.split) : -1;
  const time = xColumn !== undefined && isTimeType(xColumn.type);
  if (!xColumn || yis.length === 0) return { x: [], series: [], time, omitted: 0 };

  const xKey = (row: unknown[]): number | string | null =>
    time ? parseTime(row[xi], xColumn.type) : formatCell(row[xi]);
  // The distinct x values in order: ascending time, or first appearance for categories.
  const keys: (number | string)[] = [];
  const slot = new Map<number | string, number>();
  for (const row of result.rows) {
    const key = xKey(row);
    if (key === null || slot.has(key)) continue;
    slot.set(key, keys.length);
    keys.push(key);
  }
  if (time) {
    (keys as number[]).sort((a, b) => a - b);
    for (const [i, key] of keys.entries()) slot.set(key, i);
  }

  const series: ChartData["series"] = [];
  let omitted = 0;
  const firstY = yis[0] ?? -1;
  if (si >= 0 && si !== xi) {
    const groups = new Map<string, { values: (number | null)[]; total: number }>();
    for (const row of result.rows) {
      const at = slot.get(xKey(row) ?? "");
      if (at === undefined) continue;
      const name = formatCell(row[si]);
      let group = groups.get(name);
      if (!group) {
        group = { values: new Array<number | null>(keys.length).fill(null), total: 0 };
        groups.set(name, group);
      }
      const value = toNumber(row[firstY]);
      if (value !== null) {
        group.values[at] = (group.values[at] ?? 0) + value;
        group.total += Math.abs(value);
      }
    }
    const ranked = [...groups.entries()].sort((a, b) => b[1].total - a[1].total);
    omitted = Math.max(0, ranked.length - MAX_SPLIT_SERIES);
    for (const [name, group] of ranked.slice(0, MAX_SPLIT_SERIES))
      series.push({ label: name, values: group.values });
  } else {
    for (const yi of yis) {
      const values = new Array<number | null>(keys.length).fill(null);
      for (const row of result.rows) {
        const at = slot.get(xKey(row) ?? "");
        if (at !== undefined && values[at] === null) values[at] = toNumber(row[yi]);
      }
      series.push({ label: result.columns[yi]?.name ?? "", values });
    }
  }
  return time
    ? { x: (keys as number[]).map((ms) => ms / 1000), series, time, omitted }
    : { x: keys.map((_, i) => i), series, categories: keys.map(String), time, omitted };
}
