import type { TqlColumn, TqlResult } from "./tql-api";

/** The type inside Nullable(…) and LowCardinality(…), which change nothing about the values. */
export function baseType(type: string): string {
  const match = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(type.trim());
  return match?.[1] ? baseType(match[1]) : type.trim();
}

export const isNumericType = (type: string): boolean =>
  /^(U?Int\d+|Float\d+|Decimal\d*|BFloat16)\b/.test(baseType(type));

export const isTimeType = (type: string): boolean =>
  /^(Date|Date32|DateTime|DateTime64)\b/.test(baseType(type));

/** A value as the table shows it: NULL spelled out, structures as JSON, the rest as sent. */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** A numeric value for charts: numbers, and the decimal strings of 64-bit integers beyond 2^53. */
export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** The time zone a DateTime type names (`DateTime64(3, 'Europe/Paris')`), UTC otherwise. */
function zoneOf(type: string): string {
  return /'([^']+)'/.exec(baseType(type))?.[1] ?? "UTC";
}

/** Minutes a zone is ahead of UTC at an instant. */
function zoneOffsetMs(zone: string, utcMs: number): number {
  if (zone === "UTC" || zone === "Etc/UTC") return 0;
  try {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).formatToParts(new Date(utcMs));
    const get = (name: string) => Number(parts.find((p) => p.type === name)?.value ?? 0);
    const local = Date.UTC(
      get("year"),
      get("month") - 1,
      get("day"),
      get("hour"),
      get("minute"),
      get("second"),
    );
    return local - Math.floor(utcMs / 1000) * 1000;
  } catch {
    return 0;
  }
}

/**
 * Milliseconds since the epoch of a Date/DateTime value as the engine writes it
 * (`2026-01-02 12:00:00.123456789`, in the type's zone), or null.
 */
export function parseTime(value: unknown, type: string): number | null {
  if (typeof value !== "string") return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", fraction = ""] = match;
  const naive = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(fraction.slice(0, 3).padEnd(3, "0")),
  );
  const zone = zoneOf(type);
  return naive - zoneOffsetMs(zone, naive - zoneOffsetMs(zone, naive));
}

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
