import type { FastifyRequest } from "fastify";
import type { AuthenticatedUser } from "../auth/sign-in-sessions.js";
import { toUserActor } from "../auth/sign-in-sessions.js";
import type { ApiKeyActor, Ctx, DomainDeps } from "../context.js";
import { AppUrl } from "../lib/app-url.js";
import { UnauthorizedError } from "../lib/domain-errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the API key hook on /v1 routes. */
    apiKey?: ApiKeyActor;
    /** Set by the session hook on /api and /webhooks routes. */
    auth?: AuthenticatedUser;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a session (login). */
    public?: boolean;
    /** The path holds a secret (an invitation link's token): the request log shows the route instead. */
    secretPath?: boolean;
    /**
     * The route answers a page or plain text rather than JSON (the ping and acknowledge links):
     * its responses other than problems are documented under this media type.
     */
    mediaType?: "text/html" | "text/plain";
  }
}

/** The domain context of a session-authenticated request. */
export function userCtx<D extends DomainDeps>(deps: D, request: FastifyRequest): Ctx<D> {
  if (!request.auth) throw new UnauthorizedError("Not signed in");
  return { deps, actor: toUserActor(request.auth) };
}

/** The domain context of an API-key-authenticated request. */
export function apiKeyCtx<D extends DomainDeps>(
  deps: D,
  request: FastifyRequest,
): Ctx<D> & { actor: ApiKeyActor } {
  if (!request.apiKey) throw new UnauthorizedError("Missing X-API-Key header");
  return { deps, actor: request.apiKey };
}

/**
 * The ctx of a session request whose answer shows links of the app (a heartbeat's ping URL):
 * without VIGIL_PUBLIC_URL they are drawn from the request's own origin, as the browser reached
 * the server, rather than from the address it listens on. Only for links shown in the answer:
 * what is emailed or sent keeps the server's own address (a Host header is the client's word).
 */
export function linkingUserCtx<D extends DomainDeps>(
  deps: D,
  request: FastifyRequest,
  publicUrl: string | undefined,
): Ctx<D> {
  const ctx = userCtx(deps, request);
  if (publicUrl) return ctx;
  const origin = `${request.protocol}://${request.host}`;
  if (!URL.canParse(origin) || new URL(origin).origin !== origin) return ctx;
  return { ...ctx, deps: { ...deps, appUrl: new AppUrl(origin) } };
}
