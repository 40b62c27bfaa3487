import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  acceptInvite,
  createInvite,
  type InviteDeps,
  listInvites,
  previewInvite,
  revokeInvite,
} from "../../../auth/invites.js";
import { logout, type SignInDeps } from "../../../auth/sign-in-sessions.js";
import { anonymousCtx, type DomainDeps } from "../../../context.js";
import {
  AcceptedInvite,
  AcceptInviteInput,
  CreatedInvite,
  CreateInviteInput,
  Invitation,
  InviteTokenInput,
  InviteView,
} from "../../../contracts/invites.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import { addressBucket } from "../../../lib/client-address.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { SESSION_COOKIE, type SessionCookieOptions, setSessionCookie } from "../../plugins/auth.js";
import { userCtx } from "../../request-context.js";
import { toMe } from "./auth-routes.js";
import { IdParam, OrgParams } from "./project-routes.js";

const InviteParams = OrgParams.extend({ inviteId: IdParam });
const tags = ["members"];

/** Invitations sent per signed-in user per minute (each may send an email). */
export const INVITES_PER_MINUTE = 20;
/** Looks and accepts per client address per minute on the public invitation routes. */
export const INVITATION_LOOKUPS_PER_MINUTE = 30;

/**
 * /api/orgs/:orgId/invites… (owners and admins) and the public /api/invitations/… the accept page
 * calls. The link's token travels in request bodies, never in an API path, so no request log
 * holds it.
 */
export const inviteRoutes =
  (
    deps: DomainDeps & SignInDeps & { invites: InviteDeps },
    cookies: SessionCookieOptions,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const inviting = app.rateLimit({
      max: INVITES_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request) => `invites:${request.auth?.user.id ?? addressBucket(request.ip)}`,
    });
    // One budget per client address for both public routes: guessing tokens costs like sign-in.
    const publicLimit = app.rateLimit({
      max: INVITATION_LOOKUPS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request) => `invitations:${addressBucket(request.ip)}`,
    });

    app.get(
      "/orgs/:orgId/invites",
      {
        schema: {
          tags,
          summary: "The organization's pending invitations (owners and admins)",
          params: OrgParams,
          querystring: PaginationQuery,
          response: { 200: listOf(InviteView), 401: Problem, 403: Problem, 404: Problem },
        },
      },
      async (request) =>
        paginate(
          await listInvites({ ctx: userCtx(deps, request), orgId: request.params.orgId }),
          request.query,
        ),
    );

    app.post(
      "/orgs/:orgId/invites",
      {
        preHandler: inviting,
        schema: {
          tags,
          summary: "Invite an email with a role (owners and admins; only owners invite owners)",
          description:
            "Makes a single-use link valid for 7 days, emailed when SMTP is configured and " +
            "returned in this response only. A pending invitation of the same email is replaced.",
          params: OrgParams,
          body: CreateInviteInput,
          response: {
            201: CreatedInvite,
            400: Problem,
            401: Problem,
            403: Problem,
            404: Problem,
            409: Problem,
            429: Problem,
          },
        },
      },
      async (request, reply) => {
        const created = await createInvite({
          ctx: userCtx(deps, request),
          orgId: request.params.orgId,
          input: request.body,
        });
        return reply.code(201).send(created);
      },
    );

    app.delete(
      "/orgs/:orgId/invites/:inviteId",
      {
        schema: {
          tags,
          summary: "Revoke a pending invitation: its link opens nothing from now on",
          params: InviteParams,
          response: {
            204: z.null().describe("Revoked"),
            401: Problem,
            403: Problem,
            404: Problem,
          },
        },
      },
      async (request, reply) => {
        await revokeInvite({ ctx: userCtx(deps, request), ...request.params });
        return reply.code(204).send(null);
      },
    );

    app.post(
      "/invitations/preview",
      {
        config: { public: true },
        preHandler: publicLimit,
        schema: {
          tags,
          summary: "What an invitation link holds: organization, email, role (no session)",
          description:
            "An unknown, used, revoked or expired link is the same 404. Limited per client address.",
          body: InviteTokenInput,
          response: { 200: Invitation, 400: Problem, 403: Problem, 404: Problem, 429: Problem },
        },
      },
      async (request) => previewInvite({ ctx: anonymousCtx(deps), input: request.body }),
    );

    app.post(
      "/invitations/accept",
      {
        config: { public: true },
        preHandler: publicLimit,
        schema: {
          tags,
          summary: "Accept an invitation and sign in; sets the session cookie",
          description:
            "Creates the account with the password (and name) given, or, when the email has " +
            "an account, checks that account's password (counted by the sign-in limits) and " +
            "adds the membership. The link works once. Limited per client address.",
          body: AcceptInviteInput,
          response: {
            200: AcceptedInvite,
            400: Problem,
            403: Problem,
            404: Problem,
            409: Problem,
            429: Problem,
            503: Problem,
          },
        },
      },
      async (request, reply) => {
        const { orgId, auth } = await acceptInvite({
          ctx: anonymousCtx(deps),
          input: request.body,
          address: request.ip,
        });
        // The browser may have been signed in as someone else: that session ends here.
        await logout({ ctx: anonymousCtx(deps), token: request.cookies[SESSION_COOKIE] });
        setSessionCookie(request, reply, auth, cookies);
        return { orgId, me: toMe(auth) };
      },
    );
  };
