import { InvalidInputError } from "../lib/domain-errors.js";
import type { ResultColumn } from "../telemetry/executor.js";
import type { TqlService } from "../tql/tql-service.js";
import { seriesKey } from "./definition.js";

/** The column an alert query must return: its number per series. */
export const VALUE_COLUMN = "value";

/** Int*, UInt*, Float*, Decimal*, optionally Nullable or LowCardinality-wrapped. */
const NUMERIC_TYPE =
  /^(?:(?:Nullable|LowCardinality)\()*(?:U?Int(?:8|16|32|64|128|256)|Float(?:32|64)|BFloat16|Decimal(?:32|64|128|256)?\(.*\))\)*$/;

export const isNumericType = (type: string): boolean => NUMERIC_TYPE.test(type);

/** Names an object key cannot safely carry; refused as label columns. */
const RESERVED_LABELS = new Set(["__proto__", "constructor", "prototype"]);

/** The label columns of a result (every column but `value`), or why the result is unusable. */
export function labelColumns(
  columns: readonly ResultColumn[],
): { ok: true; labels: string[] } | { ok: false; message: string } {
  const value = columns.find((c) => c.name === VALUE_COLUMN);
  if (!value)
    return {
      ok: false,
      message: `the query must return a numeric column named 'value' (it returns ${
        columns.map((c) => `'${c.name}'`).join(", ") || "no columns"
      }); alias it: SELECT count() AS value …`,
    };
  if (!isNumericType(value.type))
    return {
      ok: false,
      message: `the column 'value' must be numeric (Int, UInt, Float or Decimal), not ${value.type}`,
    };
  const labels = columns.filter((c) => c.name !== VALUE_COLUMN).map((c) => c.name);
  const reserved = labels.find((l) => RESERVED_LABELS.has(l));
  if (reserved !== undefined)
    return { ok: false, message: `'${reserved}' cannot name a label column; alias it otherwise` };
  return { ok: true, labels };
}

/**
 * Checks an alert query without reading data: it must compile (TQL errors are 400s naming
 * `query`, with their position) and return a numeric `value`. Returns the label columns.
 */
export async function checkAlertQuery(
  tql: Pick<TqlService, "columns">,
  projectId: string,
  query: string,
): Promise<string[]> {
  return (await checkAlertQueryColumns(tql, projectId, query)).labels;
}

/** checkAlertQuery, with the `value` column's type too (its bounds: an unsigned count ≥ 0). */
export async function checkAlertQueryColumns(
  tql: Pick<TqlService, "columns">,
  projectId: string,
  query: string,
): Promise<{ labels: string[]; valueType: string }> {
  const columns = await tql.columns(projectId, query);
  const checked = labelColumns(columns);
  if (!checked.ok) throw InvalidInputError.forField("query", checked.message);
  const valueType = columns.find((c) => c.name === VALUE_COLUMN)?.type ?? "";
  return { labels: checked.labels, valueType };
}

/** One row of an alert query's result: a series' labels and value (null = no data). */
export interface SeriesSample {
  seriesKey: string;
  labels: Record<string, string>;
  value: number | null;
}

const labelText = (value: unknown): string =>
  value === null || value === undefined
    ? ""
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);

/**
 * The series of a result: each row's labels (other columns, as text) and its value. A row
 * repeating a label set already seen is ignored (the first row wins).
 */
export function seriesFromResult(result: {
  columns: readonly ResultColumn[];
  rows: readonly (readonly unknown[])[];
}): SeriesSample[] {
  const valueIndex = result.columns.findIndex((c) => c.name === VALUE_COLUMN);
  if (valueIndex < 0)
    throw InvalidInputError.forField("query", "the query returns no 'value' column");
  const samples = new Map<string, SeriesSample>();
  for (const row of result.rows) {
    // Prototype-free, so any column name (even `__proto__`) is an own label.
    const labels: Record<string, string> = Object.create(null);
    result.columns.forEach((column, i) => {
      if (i !== valueIndex) labels[column.name] = labelText(row[i]);
    });
    const raw = row[valueIndex];
    const number = raw === null || raw === undefined ? Number.NaN : Number(raw);
    const key = seriesKey(labels);
    if (!samples.has(key))
      samples.set(key, { seriesKey: key, labels, value: Number.isFinite(number) ? number : null });
  }
  return [...samples.values()];
}
