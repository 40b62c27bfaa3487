import {
  type ExploreSource,
  FilterError,
  type Filters,
  filterExpression,
} from "../contracts/explore-filters.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import type { Sql } from "./sql.js";

/**
 * The explorers' filters (contracts/explore-filters.ts) as conditions of a read query, every
 * value a bound parameter. A filter the source cannot apply is a 400 naming it
 * (`filters.<i>.field`, or `.value` when a number column is given text).
 */
export function filterConditions(
  sql: Sql,
  source: ExploreSource,
  filters: Filters | undefined,
  param = "filters",
): string[] {
  return (filters ?? []).map((filter, i) => {
    try {
      return filterExpression(source, filter, (text) => sql.bind(text));
    } catch (error) {
      if (!(error instanceof FilterError)) throw error;
      throw InvalidInputError.forField(`${param}.${i}.${error.part}`, error.message);
    }
  });
}
