import { pageInfo } from "../contracts/pagination.js";
import { PageQuery } from "../lib/list-params.js";

/**
 * The shared list parameters (docs/design.md §4): page ≥ 1, limit 1–1000; the read API's, for /api lists
 * too. Strict like the read API's queries: an unknown parameter is a 400 naming it.
 */
export const PaginationQuery = PageQuery.strict();
export type PaginationQuery = PageQuery;

/** Pages an in-memory list (for small per-project collections). */
export function paginate<T>(items: readonly T[], query: PaginationQuery) {
  const { page, limit } = query;
  return {
    data: items.slice((page - 1) * limit, page * limit),
    pagination: pageInfo(query, items.length),
  };
}
