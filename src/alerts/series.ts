import type { ResultColumn } from "../telemetry/executor.js";
import { labelColumns, type SeriesSample, seriesFromResult } from "./query-check.js";

/** Why a result cannot be read as series (the query's fault: an evaluation error). */
export class SeriesShapeError extends Error {}

/**
 * Reads an evaluation's result as series, as preview does; a result without a numeric `value`
 * (the query or a table changed since the rule was saved) is an evaluation error.
 */
export function readSeries(result: {
  columns: readonly ResultColumn[];
  rows: readonly (readonly unknown[])[];
}): SeriesSample[] {
  const checked = labelColumns(result.columns);
  if (!checked.ok) throw new SeriesShapeError(checked.message);
  return seriesFromResult(result);
}
