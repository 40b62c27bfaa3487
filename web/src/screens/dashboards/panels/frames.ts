import type { PanelOptions } from "../../../../../src/contracts/dashboards.js";
import type { TqlColumn, TqlResult } from "../../../../../src/contracts/tql.js";
import {
  formatCell,
  isLabelType,
  isNumericType,
  isTimeType,
  parseTime,
  toNumber,
} from "../../../lib/column-types.js";

/**
 * How panels read query results (pure, tested in test/web-dashboard-frames.test.ts): the first
 * Date/DateTime column is time, text columns are labels, numeric columns are values. A series
 * is (query, label values, value column); its name leaves the column out when it is the only
 * value column, and starts with the query's refId when the panel has several queries.
 */

/** One query's result as a panel reads it, with the refId its series are prefixed with. */
export interface QueryFrame {
  refId?: string | undefined;
  result: Pick<TqlResult, "columns" | "rows">;
}

export type Reducer = NonNullable<PanelOptions["reduce"]>;

export interface ColumnLayout {
  /** The time column's index, or -1. */
  time: number;
  labels: number[];
  values: number[];
}

export function columnLayout(columns: readonly TqlColumn[]): ColumnLayout {
  const layout: ColumnLayout = { time: -1, labels: [], values: [] };
  columns.forEach((column, i) => {
    if (isTimeType(column.type)) {
      if (layout.time < 0) layout.time = i;
    } else if (isNumericType(column.type)) layout.values.push(i);
    else if (isLabelType(column.type)) layout.labels.push(i);
  });
  return layout;
}

/** A label value as a legend shows it: an empty string would name nothing. */
const labelText = (value: unknown): string => {
  const text = formatCell(value);
  return text === "" ? "(empty)" : text;
};

const labelsOf = (row: readonly unknown[], labels: readonly number[]) =>
  labels.map((i) => labelText(row[i])).join(", ");

function seriesName(labels: string, column: string, valueColumns: number): string {
  if (labels === "") return column;
  return valueColumns === 1 ? labels : `${labels} · ${column}`;
}

const prefixOf = (frames: readonly QueryFrame[], frame: QueryFrame) =>
  frames.length > 1 && frame.refId ? `${frame.refId}: ` : "";

export interface SeriesData {
  name: string;
  values: (number | null)[];
  /** Its label columns' values by name (a panel link's placeholders read them). */
  labels: Record<string, string>;
}

export interface TimeFrame {
  /** Unix seconds, ascending, each once. */
  x: number[];
  series: SeriesData[];
  /** Series left out beyond the cap (the smallest by total). */
  omitted: number;
}

/** Series a time series panel draws at most; more would be noise and slow. */
export const MAX_SERIES = 40;

/**
 * The results pivoted into aligned time series: one x for all (the union of their times), each
 * series null where it has no row. Two rows of one series at one time add up. Null when no
 * result has a time column. `firstValueOnly` reads only the first numeric column (stat).
 */
export function toTimeSeries(
  frames: readonly QueryFrame[],
  { firstValueOnly = false, maxSeries = MAX_SERIES } = {},
): TimeFrame | null {
  const found = new Map<
    string,
    { name: string; labels: Record<string, string>; points: Map<number, number | null> }
  >();
  const times = new Set<number>();
  let timed = false;
  frames.forEach((frame, qi) => {
    const { columns, rows } = frame.result;
    const layout = columnLayout(columns);
    const timeColumn = columns[layout.time];
    if (!timeColumn) return;
    timed = true;
    const values = firstValueOnly ? layout.values.slice(0, 1) : layout.values;
    const prefix = prefixOf(frames, frame);
    for (const row of rows) {
      const ms = parseTime(row[layout.time], timeColumn.type);
      if (ms === null) continue;
      const t = ms / 1000;
      times.add(t);
      const labels = labelsOf(row, layout.labels);
      for (const vi of values) {
        const key = `${qi}\u0000${labels}\u0000${vi}`;
        let series = found.get(key);
        if (!series) {
          const name = prefix + seriesName(labels, columns[vi]?.name ?? "", values.length);
          const named = Object.fromEntries(
            layout.labels.map((i) => [columns[i]?.name ?? "", formatCell(row[i])]),
          );
          series = { name, labels: named, points: new Map() };
          found.set(key, series);
        }
        const value = toNumber(row[vi]);
        const before = series.points.get(t);
        series.points.set(
          t,
          before === undefined || before === null
            ? value
            : value === null
              ? before
              : before + value,
        );
      }
    }
  });
  if (!timed) return null;
  const x = [...times].sort((a, b) => a - b);
  const all = [...found.values()].map(({ name, labels, points }) => ({
    name,
    values: x.map((t) => points.get(t) ?? null),
    labels,
  }));
  return { x, ...largest(all, maxSeries) };
}

/** The `max` series of largest total, in their first order, and how many were left out. */
function largest(all: SeriesData[], max: number): { series: SeriesData[]; omitted: number } {
  if (all.length <= max) return { series: all, omitted: 0 };
  const total = (s: SeriesData) => s.values.reduce<number>((sum, v) => sum + Math.abs(v ?? 0), 0);
  const kept = new Set(
    [...all]
      .sort((a, b) => total(b) - total(a))
      .slice(0, max)
      .map((s) => s.name),
  );
  const series = all.filter((s) => kept.has(s.name)).slice(0, max);
  return { series, omitted: all.length - series.length };
}

/** Series stacked: each the sum of itself and those before it (a missing value adds nothing). */
export function stackValues(series: readonly (readonly (number | null)[])[]): number[][] {
  const length = series[0]?.length ?? 0;
  const sum = new Array<number>(length).fill(0);
  return series.map((values) => {
    for (let i = 0; i < length; i += 1) sum[i] = (sum[i] ?? 0) + (values[i] ?? 0);
    return [...sum];
  });
}

/** One value of a series as a stat shows it; missing values are skipped, none gives null. */
export function reduceValues(
  values: readonly (number | null | undefined)[],
  how: Reducer = "last",
): number | null {
  const present = values.filter(
    (v): v is number => v !== null && v !== undefined && !Number.isNaN(v),
  );
  if (present.length === 0) return null;
  switch (how) {
    case "first":
      return present[0] ?? null;
    case "last":
      return present[present.length - 1] ?? null;
    case "min":
      return Math.min(...present);
    case "max":
      return Math.max(...present);
    case "sum":
      return present.reduce((a, b) => a + b, 0);
    case "mean":
      return present.reduce((a, b) => a + b, 0) / present.length;
  }
}

export interface NamedValue {
  name: string;
  value: number | null;
  /** Its row's values by column name (its labels' for a series), for a panel link's placeholders. */
  fields?: Record<string, string>;
  /** The series over time (with a time column), for a sparkline. */
  spark?: { x: number[]; values: (number | null)[] };
}

/**
 * Stat values: the first numeric column reduced over rows. With a time column, per series and
 * with its sparkline; without, per distinct label values (one stat when there are no labels).
 */
export function toStats(frames: readonly QueryFrame[], how: Reducer = "last"): NamedValue[] {
  return frames.flatMap((frame) => statsOf(frame, prefixOf(frames, frame), how));
}

function statsOf(frame: QueryFrame, prefix: string, how: Reducer): NamedValue[] {
  const layout = columnLayout(frame.result.columns);
  const vi = layout.values[0];
  if (vi === undefined) return [];
  if (layout.time >= 0) {
    const timed = toTimeSeries([frame], { firstValueOnly: true });
    const x = timed?.x ?? [];
    return (timed?.series ?? []).map((s) => ({
      name: prefix + s.name,
      value: reduceValues(s.values, how),
      fields: s.labels,
      spark: { x, values: s.values },
    }));
  }
  const { columns } = frame.result;
  const groups = new Map<string, { values: (number | null)[]; fields: Record<string, string> }>();
  for (const row of frame.result.rows) {
    const labels = labelsOf(row, layout.labels);
    const group = groups.get(labels) ?? {
      values: [],
      fields: Object.fromEntries(
        layout.labels.map((i) => [columns[i]?.name ?? "", formatCell(row[i])]),
      ),
    };
    group.values.push(toNumber(row[vi]));
    groups.set(labels, group);
  }
  const column = columns[vi]?.name ?? "";
  return [...groups].map(([labels, group]) => ({
    name: prefix + seriesName(labels, column, 1),
    value: reduceValues(group.values, how),
    fields: group.fields,
  }));
}

/** One name/value per row: the labels name it, the first numeric column is its value. */
export function toRowValues(frames: readonly QueryFrame[]): NamedValue[] {
  return frames.flatMap((frame) => rowValuesOf(frame, prefixOf(frames, frame)));
}

function rowValuesOf(frame: QueryFrame, prefix: string): NamedValue[] {
  const layout = columnLayout(frame.result.columns);
  const vi = layout.values[0];
  if (vi === undefined) return [];
  const column = frame.result.columns[vi]?.name ?? "";
  const { rows } = frame.result;
  return rows.map((row, i) => {
    const labels = labelsOf(row, layout.labels);
    const name = labels !== "" ? labels : rows.length > 1 ? `${column} ${i + 1}` : column;
    return {
      name: prefix + name,
      value: toNumber(row[vi]),
      fields: rowFields(frame.result.columns, row),
    };
  });
}

/** A row's values by column name, as text (a panel link's `${column}` reads them). */
export function rowFields(
  columns: readonly { name: string }[],
  row: readonly unknown[],
): Record<string, string> {
  const fields: Record<string, string> = {};
  columns.forEach((column, i) => {
    const value = row[i];
    fields[column.name] =
      value === null || value === undefined
        ? ""
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value);
  });
  return fields;
}

/** Bar gauge and pie values: one per row, or per series reduced when there is a time column. */
export function toCategoryValues(
  frames: readonly QueryFrame[],
  how: Reducer = "last",
): NamedValue[] {
  return frames.flatMap((frame) => {
    const prefix = prefixOf(frames, frame);
    return columnLayout(frame.result.columns).time >= 0
      ? statsOf(frame, prefix, how)
      : rowValuesOf(frame, prefix);
  });
}

export interface HeatmapFrame {
  /** Unix seconds, ascending. */
  x: number[];
  /** Bucket upper bounds ascending (numeric), or text buckets in first-seen order. */
  buckets: (number | string)[];
  /** counts[xi][bi]. */
  counts: number[][];
  maxCount: number;
}

/** A numeric bucket bound; the engine writes an infinite one as "inf". */
function bound(value: unknown): number | null {
  if (typeof value === "string" && /^\+?inf(inity)?$/i.test(value.trim())) return Infinity;
  return toNumber(value);
}

/**
 * Heatmap cells from rows (time, bucket, count): the bucket is the first numeric column (its
 * upper bound) and the count the second, or, with one numeric column, the bucket is the first
 * text column. Null when the result has no such columns.
 */
export function toHeatmap(frames: readonly QueryFrame[]): HeatmapFrame | null {
  const cells = new Map<number, Map<number | string, number>>();
  const buckets = new Set<number | string>();
  let numeric = true;
  let shaped = false;
  for (const frame of frames) {
    const { columns, rows } = frame.result;
    const layout = columnLayout(columns);
    const timeColumn = columns[layout.time];
    const [first, second] = layout.values;
    const labelBucket = second === undefined ? layout.labels[0] : undefined;
    const bucketIndex = labelBucket ?? (second === undefined ? undefined : first);
    const countIndex = second ?? first;
    if (!timeColumn || bucketIndex === undefined || countIndex === undefined) continue;
    shaped = true;
    if (labelBucket !== undefined) numeric = false;
    for (const row of rows) {
      const ms = parseTime(row[layout.time], timeColumn.type);
      const bucket =
        labelBucket !== undefined ? labelText(row[labelBucket]) : bound(row[bucketIndex]);
      const count = toNumber(row[countIndex]);
      if (ms === null || bucket === null || count === null) continue;
      buckets.add(bucket);
      const column = cells.get(ms / 1000) ?? new Map<number | string, number>();
      column.set(bucket, (column.get(bucket) ?? 0) + count);
      cells.set(ms / 1000, column);
    }
  }
  if (!shaped) return null;
  const x = [...cells.keys()].sort((a, b) => a - b);
  const ordered = numeric
    ? [...buckets].map(Number).sort((a, b) => a - b)
    : [...buckets].map(String);
  let maxCount = 0;
  const counts = x.map((t) =>
    ordered.map((b) => {
      const count = cells.get(t)?.get(b) ?? 0;
      maxCount = Math.max(maxCount, count);
      return count;
    }),
  );
  return { x, buckets: ordered, counts, maxCount };
}

/** A cell's shade from 0 (nothing) to 1 (the most): logarithmic, so a few outliers still show. */
export function heatLevel(count: number, maxCount: number): number {
  if (!(count > 0) || !(maxCount > 0)) return 0;
  return Math.min(1, Math.log1p(count) / Math.log1p(maxCount));
}
