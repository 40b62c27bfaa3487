import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  preHandlerHookHandler,
} from "fastify";
import { authenticateApiKey, requireKeyPermission } from "../../auth/api-keys.js";
import { authenticateSession } from "../../auth/sign-in-sessions.js";
import { anonymousCtx, type DomainDeps } from "../../context.js";
import type { Permission } from "../../contracts/auth.js";
import { ForbiddenError, UnauthorizedError } from "../../lib/domain-errors.js";

export const SESSION_COOKIE = "vigil_session";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * X-API-Key authentication for every route of this scope, including its 404s. The rate limit
 * runs between authenticating and failing, so a 401 carries RateLimit headers too and floods
 * of bad keys are limited (by client address) like good ones (by key).
 */
export function useApiKeyAuth(
  app: FastifyInstance,
  deps: DomainDeps,
  rateLimit: preHandlerAsyncHookHandler,
): void {
  app.addHook("onRequest", async (request, reply) => {
    const header = request.headers["x-api-key"];
    let failure: unknown;
    try {
      request.apiKey = await authenticateApiKey({
        ctx: anonymousCtx(deps),
        presented: Array.isArray(header) ? header[0] : header,
      });
    } catch (error) {
      failure = error;
    }
    await rateLimit.call(app, request, reply);
    if (failure) throw failure;
  });
}

/** A pre-handler that lets through only keys holding the permission (otherwise 403). */
export function requirePermission(permission: Permission): preHandlerHookHandler {
  return async (request: FastifyRequest) => {
    if (!request.apiKey) throw new UnauthorizedError("Missing X-API-Key header");
    requireKeyPermission(request.apiKey, permission);
  };
}

export interface SessionCookieOptions {
  /** Secure cookies regardless of the request's scheme (VIGIL_PUBLIC_URL is https). */
  alwaysSecure: boolean;
}

/** Cookie settings implied by the public URL. */
export const sessionCookieOptions = (publicUrl: string | undefined): SessionCookieOptions => ({
  alwaysSecure: publicUrl?.startsWith("https:") ?? false,
});

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure over HTTPS (directly or via a trusted proxy). */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  session: { token: string; expiresAt: string },
  options: SessionCookieOptions,
): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    ...cookieAttributes(request, options),
    expires: new Date(session.expiresAt),
  });
}

export function clearSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  options: SessionCookieOptions,
): void {
  reply.clearCookie(SESSION_COOKIE, cookieAttributes(request, options));
}

function cookieAttributes(request: FastifyRequest, options: SessionCookieOptions) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: options.alwaysSecure || request.protocol === "https",
  } as const;
}

/**
 * Cookie sessions for this scope. Writes that carry the cookie must come with a same-origin
 * `Origin` header (CSRF); routes marked `config.public` skip the session but not the origin check.
 * A session extended on use gets its cookie re-sent with the new expiry.
 */
export function useSessionAuth(
  app: FastifyInstance,
  deps: DomainDeps,
  options: SessionCookieOptions & { publicOrigin?: string | undefined },
): void {
  app.addHook("onRequest", async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!SAFE_METHODS.has(request.method))
      assertSameOrigin(request, options.publicOrigin, token !== undefined);
    if (request.routeOptions.config.public) return;
    request.auth = await authenticateSession({ ctx: anonymousCtx(deps), token });
    if (token && request.auth.renewed) {
      setSessionCookie(request, reply, { token, expiresAt: request.auth.expiresAt }, options);
    }
  });
}

function assertSameOrigin(
  request: FastifyRequest,
  publicOrigin: string | undefined,
  cookieSent: boolean,
): void {
  const origin = request.headers.origin;
  const expected = publicOrigin ?? `${request.protocol}://${request.host}`;
  // A request with neither cookie nor Origin (a script logging in) cannot be a forged browser request.
  if (origin === undefined && !cookieSent) return;
  if (origin !== expected) {
    throw new ForbiddenError(
      origin === undefined
        ? "Cookie-authenticated writes need an Origin header (CSRF protection)"
        : `Cross-origin request from ${origin} refused (CSRF protection)`,
    );
  }
}
