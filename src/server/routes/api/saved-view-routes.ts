import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import {
  CreateSavedViewInput,
  SavedView,
  SavedViewListQuery,
  UpdateSavedViewInput,
} from "../../../contracts/saved-views.js";
import {
  createSavedView,
  deleteSavedView,
  getSavedView,
  listSavedViews,
  updateSavedView,
} from "../../../explore/saved-views.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";
import { IdParam, ProjectParams } from "./project-routes.js";

const SavedViewParams = ProjectParams.extend({ savedViewId: IdParam });
const ListQuery = SavedViewListQuery.extend(PaginationQuery.shape).strict();
const tags = ["saved views"];
const read = { 400: Problem, 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem };

/** /api/projects/:projectId/saved-views…: explorers' locations saved by name (session auth). */
export const savedViewRoutes =
  (domain: DomainDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/projects/:projectId/saved-views",
      {
        schema: {
          tags,
          summary: "The project's saved views, by explorer and name",
          params: ProjectParams,
          querystring: ListQuery,
          response: { 200: listOf(SavedView), ...read },
        },
      },
      async (request) => {
        const { page, limit, ...query } = request.query;
        return paginate(
          await listSavedViews({
            ctx: userCtx(domain, request),
            projectId: request.params.projectId,
            query,
          }),
          { page, limit },
        );
      },
    );

    app.post(
      "/projects/:projectId/saved-views",
      {
        schema: {
          tags,
          summary:
            "Save an explorer's location under a name unique among the project's views of its kind (members and above)",
          params: ProjectParams,
          body: CreateSavedViewInput,
          response: { 201: SavedView, ...write, 409: Problem },
        },
      },
      async (request, reply) => {
        const view = await createSavedView({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(view);
      },
    );

    app.get(
      "/projects/:projectId/saved-views/:savedViewId",
      {
        schema: {
          tags,
          summary: "One saved view",
          params: SavedViewParams,
          response: { 200: SavedView, ...read },
        },
      },
      async (request) => getSavedView({ ctx: userCtx(domain, request), ...request.params }),
    );

    app.patch(
      "/projects/:projectId/saved-views/:savedViewId",
      {
        schema: {
          tags,
          summary: "Rename a saved view or replace its location (members and above)",
          params: SavedViewParams,
          body: UpdateSavedViewInput,
          response: { 200: SavedView, ...write, 409: Problem },
        },
      },
      async (request) =>
        updateSavedView({ ctx: userCtx(domain, request), ...request.params, input: request.body }),
    );

    app.delete(
      "/projects/:projectId/saved-views/:savedViewId",
      {
        schema: {
          tags,
          summary: "Delete a saved view (members and above)",
          params: SavedViewParams,
          response: { 204: z.null().describe("Deleted"), 401: Problem, 403: Problem, 404: Problem },
        },
      },
      async (request, reply) => {
        await deleteSavedView({ ctx: userCtx(domain, request), ...request.params });
        return reply.code(204).send(null);
      },
    );
  };
