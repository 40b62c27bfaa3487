import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type AuthenticatedUser, LoginInput, login, logout } from "../../../auth/sessions.js";
import type { DomainDeps } from "../../../context.js";
import { UnauthorizedError } from "../../../lib/errors.js";
import {
  clearSessionCookie,
  SESSION_COOKIE,
  type SessionCookieOptions,
  setSessionCookie,
} from "../../plugins/auth.js";
import { Problem } from "../../problem.js";

const Me = z
  .object({
    user: z.object({ id: z.string(), email: z.string(), name: z.string(), createdAt: z.string() }),
    organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
    sessionExpiresAt: z.string(),
  })
  .meta({ id: "Me" });

const toMe = (auth: AuthenticatedUser): z.infer<typeof Me> => ({
  user: auth.user,
  organizations: auth.memberships.map((m) => ({ id: m.orgId, name: m.orgName, role: m.role })),
  sessionExpiresAt: auth.expiresAt,
});

const LOGIN_ATTEMPTS_PER_MINUTE = 20;
const emailOf = (body: unknown): string =>
  typeof body === "object" && body !== null && "email" in body
    ? String(body.email).trim().toLowerCase()
    : "";

export const authRoutes =
  (deps: DomainDeps, cookies: SessionCookieOptions): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/auth/login",
      {
        config: {
          public: true,
          // Per address and email: slows password guessing without letting one client lock others out.
          rateLimit: {
            max: LOGIN_ATTEMPTS_PER_MINUTE,
            timeWindow: 60_000,
            keyGenerator: (request) => `login:${request.ip}:${emailOf(request.body)}`,
          },
        },
        schema: {
          tags: ["auth"],
          summary: "Sign in; sets the session cookie",
          body: LoginInput,
          response: { 200: Me, 400: Problem, 401: Problem },
        },
      },
      async (request, reply) => {
        const result = await login(deps, request.body);
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
        await logout(deps, request.cookies[SESSION_COOKIE]);
        clearSessionCookie(request, reply, cookies);
        return reply.code(204).send(null);
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
