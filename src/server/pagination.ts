import { z } from "zod";
import { PageQuery, pageInfo } from "../lib/list-params.js";

/**
 * The shared list parameters (docs/design.md §4): page ≥ 1, limit 1–1000; the read API's, for /api lists
 * too. Strict like the read API's queries: an unknown parameter is a 400 naming it.
 */
export const PaginationQuery = PageQuery.strict();
export type PaginationQuery = PageQuery;

export const Pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  hasMore: z.boolean(),
  totalExact: z
    .boolean()
    .optional()
    .describe(
      "Present (false) only when `total` is a lower bound: a count that stopped early (`count=exact` counts all)",
    ),
});

/** The list envelope: `{ data, pagination }`. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), pagination: Pagination });

/** Pages an in-memory list (for small per-project collections). */
export function paginate<T>(items: readonly T[], query: PaginationQuery) {
  const { page, limit } = query;
  return {
    data: items.slice((page - 1) * limit, page * limit),
    pagination: pageInfo(query, items.length),
  };
}
