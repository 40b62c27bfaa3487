import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type AuthenticatedUser,
  findSession,
  login,
  logout,
  type SignInDeps,
} from "../../../auth/sign-in-sessions.js";
import { anonymousCtx, type DomainDeps } from "../../../context.js";
import { LoginInput, Me, SessionState } from "../../../contracts/auth.js";
import { Problem } from "../../../contracts/pagination.js";
import { UnauthorizedError } from "../../../lib/domain-errors.js";
import {
  clearSessionCookie,
  SESSION_COOKIE,
  type SessionCookieOptions,
  setSessionCookie,
} from "../../plugins/auth.js";

/** The signed-in user as GET /api/auth/me answers (sign-in and accepting an invitation too). */
export const toMe = (auth: AuthenticatedUser): Me => ({
  user: auth.user,
  organizations: auth.memberships.map((m) => ({ id: m.orgId, name: m.orgName, role: m.role })),
  sessionExpiresAt: auth.expiresAt,
});

export const authRoutes =
  (deps: DomainDeps & SignInDeps, cookies: SessionCookieOptions): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/auth/login",
      {
        // The sign-in limits are the login verb's (per address, per email: docs/operations.md).
        config: { public: true },
        schema: {
          tags: ["auth"],
          summary: "Sign in; sets the session cookie",
          description:
            "Failed sign-ins are limited per client address and per email (429 with " +
            "`Retry-After`); a 503 with `Retry-After` means too many passwords are being " +
            "checked at once.",
          body: LoginInput,
          response: { 200: Me, 400: Problem, 401: Problem, 429: Problem, 503: Problem },
        },
      },
      async (request, reply) => {
        const result = await login({
          ctx: anonymousCtx(deps),
          input: request.body,
          address: request.ip,
        });
        setSessionCookie(request, reply, result, cookies);
        return toMe(result);
      },
    );

    app.post(
      "/auth/logout",
      {
        // Public so an expired session can still clear its cookie; the CSRF check still applies.
        config: { public: true },
        schema: {
          tags: ["auth"],
          summary: "Sign out; ends the session (answers 204 even when it had already ended)",
          response: { 204: z.null(), 403: Problem },
        },
      },
      async (request, reply) => {
        await logout({ ctx: anonymousCtx(deps), token: request.cookies[SESSION_COOKIE] });
        clearSessionCookie(request, reply, cookies);
        return reply.code(204).send(null);
      },
    );

    app.get(
      "/auth/session",
      {
        // Signed out is an answer here, not an error: a sign-in page loads without a 401.
        config: { public: true },
        schema: {
          tags: ["auth"],
          summary: "Whether this browser is signed in, and as whom (200 either way)",
          response: { 200: SessionState },
        },
      },
      async (request, reply) => {
        const token = request.cookies[SESSION_COOKIE];
        const auth = await findSession({ ctx: anonymousCtx(deps), token });
        if (!auth) {
          // A cookie of an ended session is dropped, so the browser stops sending it.
          if (token !== undefined) clearSessionCookie(request, reply, cookies);
          return { signedIn: false, me: null };
        }
        if (token && auth.renewed)
          setSessionCookie(request, reply, { token, expiresAt: auth.expiresAt }, cookies);
        return { signedIn: true, me: toMe(auth) };
      },
    );

    app.get(
      "/auth/me",
      {
        schema: {
          tags: ["auth"],
          summary: "The signed-in user and their organizations",
          response: { 200: Me, 401: Problem },
        },
      },
      async (request) => {
        if (!request.auth) throw new UnauthorizedError("Not signed in");
        return toMe(request.auth);
      },
    );
  };
