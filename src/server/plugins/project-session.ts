import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import { API_KEY_ROLES } from "../../auth/permissions.js";
import type { DomainDeps } from "../../context.js";
import { UnauthorizedError } from "../../lib/domain-errors.js";
import { requireProject } from "../../projects/projects.js";
import { userCtx } from "../request-context.js";

/**
 * A dashboard polls (live tail, several charts per screen), so a signed-in user gets a larger
 * budget than one API key; it is counted per user, across the user's tabs and projects.
 */
export const DASHBOARD_REQUESTS_PER_MINUTE = 1_200;

/** The bucket of a signed-in user's dashboard reads. */
const bucketOf = (userId: string) => `dashboard:user:${userId}`;

/** The per-user limit of the dashboard's reads, with RateLimit headers like /v1's. */
export function sessionRateLimiter(app: FastifyInstance): preHandlerAsyncHookHandler {
  return app.rateLimit({
    max: DASHBOARD_REQUESTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) =>
      request.auth ? bucketOf(request.auth.user.id) : `dashboard:ip:${request.ip}`,
  });
}

/**
 * Lets a signed-in member read one project through the /v1 verbs: the `:projectId` of the
 * scope's prefix must be a project of one of the user's organizations (else 404, as /api), and
 * the request then acts as that project's read-only key would (every read permission and TQL).
 * Runs after the session hook, so an anonymous request is a 401 before any project is looked up.
 */
export function useProjectSession(
  app: FastifyInstance,
  deps: DomainDeps,
  rateLimit: preHandlerAsyncHookHandler,
): void {
  app.addHook("onRequest", async (request, reply) => {
    await rateLimit.call(app, request, reply);
    if (reply.sent) return;
    if (!request.auth) throw new UnauthorizedError("Not signed in");
    const { projectId } = request.params as { projectId?: string };
    const project = await requireProject({
      ctx: userCtx(deps, request),
      projectId: projectId ?? "",
      access: "read",
    });
    request.apiKey = {
      kind: "api_key",
      keyId: `session:${request.auth.user.id}`,
      projectId: project.id,
      permissions: API_KEY_ROLES.read_only,
    };
  });
}
