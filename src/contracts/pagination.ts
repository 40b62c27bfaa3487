import { z } from "zod";

// The envelopes every API answer shares with the browser (docs/design.md §4): the list
// envelope and its pagination block, and the problem+json body of every error.

/** The list envelope's pagination block. */
export const PageInfo = z.object({
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
export type PageInfo = z.infer<typeof PageInfo>;

/** One page of a list, in the docs/design.md §4 envelope: `{ data, pagination }`. */
export interface Page<T> {
  data: T[];
  pagination: PageInfo;
}

/** The list envelope of `item`: `{ data, pagination }`. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), pagination: PageInfo });

/** The pagination block of page `page` of `limit` items out of `total` (`totalExact` when a lower bound). */
export function pageInfo(
  { page, limit }: { page: number; limit: number },
  total: number,
  totalExact?: boolean,
): PageInfo {
  return {
    page,
    limit,
    total,
    totalPages: Math.max(1, Math.ceil(total / limit)),
    hasMore: page * limit < total,
    ...(totalExact === undefined ? {} : { totalExact }),
  };
}

/** RFC 9457 problem details as every error response carries them. */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    requestId: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    position: z
      .object({ line: z.number().int(), column: z.number().int() })
      .optional()
      .describe("TQL errors: where in the query the problem is (1-based)"),
    verification: z
      .object({
        reason: z.string(),
        status: z.number().int(),
        durationMs: z.number().int(),
      })
      .optional()
      .describe(
        "Webhook endpoint verification failures: why (status, timeout, dns, blocked_address, tls, refused, reset, network), the status received (0 for none) and the time taken",
      ),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });
export type Problem = z.infer<typeof Problem>;
