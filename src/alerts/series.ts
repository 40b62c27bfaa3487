import { createHash } from "node:crypto";
import type { ResultColumn } from "../telemetry/executor.js";
import { seriesKey } from "./definition.js";

/** One series of an evaluation: a distinct label set and its value (null: no data for it). */
export interface SeriesSample {
  key: string;
  keyHash: string;
  labels: Record<string, string>;
  value: number | null;
}

/** The column an alert query must return, numeric; every other column is a label. */
export const VALUE_COLUMN = "value";
const NUMERIC_TYPE = /^(Nullable\()?(U?Int\d+|Float\d+|Decimal(\d+)?\(.*\)|Decimal)\)?$/;

/** The series key: labels sorted by name, JSON-encoded (`{}` for a rule without label columns). */
export const seriesKeyOf = seriesKey;

/** The first 16 hex characters of the key's SHA-256: short and stable, for event ids. */
export function seriesKeyHash(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

export function seriesOf(labels: Record<string, string>, value: number | null): SeriesSample {
  const key = seriesKeyOf(labels);
  return { key, keyHash: seriesKeyHash(key), labels, value };
}

/** Why a result cannot be read as series (the query's fault: an evaluation error). */
export class SeriesShapeError extends Error {}

const labelText = (value: unknown): string =>
  value === null || value === undefined
    ? ""
    : typeof value === "string"
      ? value
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);

/**
 * Reads a TQL result as series: the numeric `value` column, the others as labels (as text).
 * A label set seen twice keeps its first row; a null (or non-finite) value is no data for it.
 */
export function extractSeries(result: {
  columns: readonly ResultColumn[];
  rows: readonly unknown[][];
}): SeriesSample[] {
  const valueIndex = result.columns.findIndex((c) => c.name === VALUE_COLUMN);
  const valueColumn = result.columns[valueIndex];
  if (!valueColumn)
    throw new SeriesShapeError(
      `the query returns no '${VALUE_COLUMN}' column (columns: ${result.columns.map((c) => c.name).join(", ")})`,
    );
  if (!NUMERIC_TYPE.test(valueColumn.type))
    throw new SeriesShapeError(
      `the '${VALUE_COLUMN}' column must be numeric (it is ${valueColumn.type})`,
    );
  const seen = new Map<string, SeriesSample>();
  for (const row of result.rows) {
    const labels: Record<string, string> = {};
    result.columns.forEach((column, index) => {
      if (index !== valueIndex) labels[column.name] = labelText(row[index]);
    });
    const raw = row[valueIndex];
    const number = raw === null || raw === undefined ? Number.NaN : Number(raw);
    const sample = seriesOf(labels, Number.isFinite(number) ? number : null);
    if (!seen.has(sample.key)) seen.set(sample.key, sample);
  }
  return [...seen.values()];
}
