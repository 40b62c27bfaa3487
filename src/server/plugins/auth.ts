import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from "fastify";
import { authenticateApiKey } from "../../auth/api-keys.js";
import type { Permission } from "../../auth/permissions.js";
import { authenticateSession } from "../../auth/sessions.js";
import type { DomainDeps } from "../../context.js";
import { ForbiddenError, UnauthorizedError } from "../../lib/errors.js";

export const SESSION_COOKIE = "vigil_session";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Adds X-API-Key authentication to every route of this scope (missing, invalid or revoked → 401). */
export function useApiKeyAuth(app: FastifyInstance, deps: DomainDeps): void {
  app.addHook("onRequest", async (request) => {
    const header = request.headers["x-api-key"];
    request.apiKey = await authenticateApiKey(deps, Array.isArray(header) ? header[0] : header);
  });
}

/** A pre-handler that lets through only keys holding the permission (otherwise 403). */
export function requirePermission(permission: Permission): preHandlerHookHandler {
  return async (request: FastifyRequest) => {
    if (!request.apiKey) throw new UnauthorizedError("Missing X-API-Key header");
    if (!request.apiKey.permissions.includes(permission)) {
      throw new ForbiddenError(`This API key lacks the '${permission}' permission`);
    }
  };
}

/**
 * Cookie sessions for this scope. Writes authenticated by a cookie must come with a same-origin
 * `Origin` header (CSRF); routes marked `config.public` skip the session but not the origin check.
 */
export function useSessionAuth(
  app: FastifyInstance,
  deps: DomainDeps,
  options: { publicOrigin?: string | undefined },
): void {
  app.addHook("onRequest", async (request) => {
    const cookie = request.cookies[SESSION_COOKIE];
    if (!SAFE_METHODS.has(request.method))
      assertSameOrigin(request, options.publicOrigin, cookie !== undefined);
    if (request.routeOptions.config.public) return;
    request.auth = await authenticateSession(deps, cookie);
  });
}

function assertSameOrigin(
  request: FastifyRequest,
  publicOrigin: string | undefined,
  cookieSent: boolean,
): void {
  const origin = request.headers.origin;
  const expected = publicOrigin ?? `${request.protocol}://${request.host}`;
  // A request with neither cookie nor Origin (curl logging in) cannot be a forged browser request.
  if (origin === undefined && !cookieSent) return;
  if (origin !== expected) {
    throw new ForbiddenError(
      origin === undefined
        ? "Cookie-authenticated writes need an Origin header (CSRF protection)"
        : `Cross-origin request from ${origin} refused (CSRF protection)`,
    );
  }
}
