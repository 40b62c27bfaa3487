import type { FastifyRequest, preHandlerHookHandler } from "fastify";
import type { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import type { Permission } from "../../../contracts/auth.js";
import { Problem } from "../../../contracts/pagination.js";
import { requirePermission } from "../../plugins/auth.js";
import { apiKeyCtx } from "../../request-context.js";

/**
 * The shared shape of a read-API GET: the key's permission checked before anything runs, and
 * the problem responses every such route can give (404 too when the path names one item).
 */
export function readRoute<
  R extends z.ZodType,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(options: {
  permission: Permission;
  summary: string;
  description?: string;
  querystring?: Q;
  params?: P;
  response: R;
}) {
  const preHandler: preHandlerHookHandler = requirePermission(options.permission);
  const schema = {
    tags: ["v1"],
    summary: options.summary,
    description: options.description ?? options.summary,
    security: [{ apiKey: [] }],
    querystring: options.querystring as Q,
    params: options.params as P,
    response: {
      200: options.response,
      400: Problem,
      401: Problem,
      403: Problem,
      404: Problem,
      429: Problem,
      500: Problem,
    },
  };
  // Absent keys, not undefined ones: Fastify warns about a schema entry that is undefined.
  if (!options.querystring) delete (schema as { querystring?: unknown }).querystring;
  if (!options.params) delete (schema as { params?: unknown }).params;
  return { preHandler, schema };
}

/** The key's ctx and the project it reads: what every read verb takes besides its input. */
export function keyReader<D extends DomainDeps>(deps: D, request: FastifyRequest) {
  const ctx = apiKeyCtx(deps, request);
  return { ctx, projectId: ctx.actor.projectId };
}
