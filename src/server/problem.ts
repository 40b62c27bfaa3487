import type { FastifyReply, FastifyRequest } from "fastify";
import type { Problem } from "../contracts/pagination.js";
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
