import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ErrorCode, FieldIssue } from "../lib/domain-errors.js";

/** The one table from domain error codes to HTTP statuses; exhaustive by type. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  query_timeout: 422,
  query_limit_exceeded: 422,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

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

export function codeForStatus(status: number): string {
  const entry = Object.entries(STATUS_BY_CODE).find(([, s]) => s === status);
  if (entry) return entry[0];
  if (status === 405) return "method_not_allowed";
  if (status === 408) return "request_timeout";
  return status >= 500 ? "internal" : "invalid_input";
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  problem: {
    status: number;
    detail: string;
    code?: string;
    errors?: readonly FieldIssue[];
    extensions?: Readonly<Record<string, unknown>>;
  },
): FastifyReply {
  const code = problem.code ?? codeForStatus(problem.status);
  const body: Problem = {
    type: `urn:vigil:problem:${code}`,
    title: TITLES[problem.status] ?? "Error",
    status: problem.status,
    detail: problem.detail,
    code,
    requestId: String(request.id),
    ...(problem.errors && problem.errors.length > 0 ? { errors: [...problem.errors] } : {}),
    ...problem.extensions,
  };
  return reply.code(problem.status).type("application/problem+json").send(body);
}
