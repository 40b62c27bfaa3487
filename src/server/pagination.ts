import { z } from "zod";

/** The shared list parameters (DESIGN §4): page ≥ 1, limit 1–1000. */
export const PaginationQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).describe("Page number, from 1"),
  limit: z.coerce.number().int().min(1).max(1000).default(50).describe("Items per page, 1–1000"),
});
export type PaginationQuery = z.infer<typeof PaginationQuery>;

export const Pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  hasMore: z.boolean(),
});

/** The list envelope: `{ data, pagination }`. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), pagination: Pagination });

/** Pages an in-memory list (for small per-project collections). */
export function paginate<T>(items: readonly T[], { page, limit }: PaginationQuery) {
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return {
    data: items.slice((page - 1) * limit, page * limit),
    pagination: { page, limit, total, totalPages, hasMore: page * limit < total },
  };
}
