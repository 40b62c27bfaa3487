import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type AuthenticatedUser, LoginInput, login, logout } from "../../../auth/sessions.js";
import type { DomainDeps } from "../../../context.js";
import { UnauthorizedError } from "../../../lib/errors.js";
import { SESSION_COOKIE } from "../../plugins/auth.js";
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
  (deps: DomainDeps, options: { secureCookies: boolean }): FastifyPluginAsyncZod =>
  async (app) => {
    const cookieOptions = {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: options.secureCookies,
    } as const;

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
        reply.setCookie(SESSION_COOKIE, result.token, {
          ...cookieOptions,
          expires: new Date(result.expiresAt),
        });
        return toMe(result);
      },
    );

    app.post(
      "/auth/logout",
      {
        schema: {
          tags: ["auth"],
          summary: "Sign out; ends the session",
          response: { 204: z.null(), 401: Problem },
        },
      },
      async (request, reply) => {
        await logout(deps, request.cookies[SESSION_COOKIE]);
        reply.clearCookie(SESSION_COOKIE, cookieOptions);
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
