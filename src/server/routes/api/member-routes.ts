import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { changeMemberRole, listMembers, removeMember } from "../../../auth/members.js";
import type { DomainDeps } from "../../../context.js";
import { ChangeMemberRoleInput, MemberView } from "../../../contracts/auth.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";
import { IdParam, OrgParams } from "./project-routes.js";

const MemberParams = OrgParams.extend({ userId: IdParam });
const tags = ["members"];

/** /api/orgs/:orgId/members…: who belongs to an organization, and (owners) their roles. */
export const memberRoutes =
  (deps: DomainDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/orgs/:orgId/members",
      {
        schema: {
          tags,
          summary: "The organization's members with their roles (any member may read)",
          params: OrgParams,
          querystring: PaginationQuery,
          response: { 200: listOf(MemberView), 401: Problem, 404: Problem },
        },
      },
      async (request) =>
        paginate(
          await listMembers({ ctx: userCtx(deps, request), orgId: request.params.orgId }),
          request.query,
        ),
    );

    app.patch(
      "/orgs/:orgId/members/:userId",
      {
        schema: {
          tags,
          summary: "Change a member's role (owners only); the last owner cannot be demoted (409)",
          params: MemberParams,
          body: ChangeMemberRoleInput,
          response: {
            200: MemberView,
            400: Problem,
            401: Problem,
            403: Problem,
            404: Problem,
            409: Problem,
          },
        },
      },
      async (request) =>
        changeMemberRole({ ctx: userCtx(deps, request), ...request.params, input: request.body }),
    );

    app.delete(
      "/orgs/:orgId/members/:userId",
      {
        schema: {
          tags,
          summary:
            "Remove a member from the organization (owners only; their account stays); never the last owner (409)",
          params: MemberParams,
          response: {
            204: z.null().describe("Removed"),
            401: Problem,
            403: Problem,
            404: Problem,
            409: Problem,
          },
        },
      },
      async (request, reply) => {
        await removeMember({ ctx: userCtx(deps, request), ...request.params });
        return reply.code(204).send(null);
      },
    );
  };
