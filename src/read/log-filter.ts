import { z } from "zod";
import { FiltersParam } from "../contracts/explore-filters.js";
import { LOG_LEVELS } from "../contracts/logs.js";
import { SOURCES } from "../contracts/telemetry-sources.js";
import { hexIdParam } from "../lib/list-params.js";
import { filterConditions } from "./filter-conditions.js";
import { searchConditions, searchTerms } from "./search.js";
import type { Sql } from "./sql.js";

/**
 * What selects log records, shared by the list, its volume histogram and its facets, so the
 * three always count the same records.
 */
export const LogFilterQuery = z.object({
  level: z.enum(LOG_LEVELS).optional().describe("Only records of this level"),
  source: z.enum(SOURCES).optional().describe("Only browser (frontend) or server (backend) logs"),
  search: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe(
      'Full text over messages: every word or "quoted phrase" must occur, case-insensitively',
    ),
  service: z.string().min(1).max(256).optional().describe("Only records of this service"),
  trace_id: hexIdParam(32).optional().describe("Only records logged inside this trace"),
  filters: FiltersParam.optional(),
});
export type LogFilterQuery = z.infer<typeof LogFilterQuery>;

/** The conditions (besides the project and window) of `query`'s filters, values bound. */
export function logFilterConditions(sql: Sql, query: LogFilterQuery): string[] {
  return [
    ...(query.level ? [`level = ${sql.bind(query.level)}`] : []),
    ...(query.source ? [`source = ${sql.bind(query.source)}`] : []),
    ...(query.service ? [`service_name = ${sql.bind(query.service)}`] : []),
    ...(query.trace_id ? [`trace_id = ${sql.bind(query.trace_id)}`] : []),
    ...searchConditions(sql, "message", query.search ? searchTerms(query.search) : []),
    ...filterConditions(sql, "logs", query.filters),
  ];
}
