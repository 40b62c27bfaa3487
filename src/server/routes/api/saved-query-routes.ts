import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import {
  CreateSavedQueryInput,
  SavedQueryView,
  UpdateSavedQueryInput,
} from "../../../contracts/tql.js";
import {
  createSavedQuery,
  deleteSavedQuery,
  getSavedQuery,
  listSavedQueries,
  updateSavedQuery,
} from "../../../tql/saved-queries.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";
import { IdParam, ProjectParams } from "./project-routes.js";

const SavedQueryParams = ProjectParams.extend({ savedQueryId: IdParam });
const tags = ["saved queries"];
const read = { 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem };

/** /api/projects/:projectId/saved-queries…: TQL queries saved by name (session auth). */
export const savedQueryRoutes =
  (domain: DomainDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/projects/:projectId/saved-queries",
      {
        schema: {
          tags,
          summary: "The project's saved TQL queries, by name",
          params: ProjectParams,
          querystring: PaginationQuery,
          response: { 200: listOf(SavedQueryView), ...read },
        },
      },
      async (request) =>
        paginate(
          await listSavedQueries({
            ctx: userCtx(domain, request),
            projectId: request.params.projectId,
          }),
          request.query,
        ),
    );

    app.post(
      "/projects/:projectId/saved-queries",
      {
        schema: {
          tags,
          summary: "Save a TQL query under a name unique in the project (members and above)",
          params: ProjectParams,
          body: CreateSavedQueryInput,
          response: { 201: SavedQueryView, ...write, 409: Problem },
        },
      },
      async (request, reply) => {
        const saved = await createSavedQuery({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(saved);
      },
    );

    app.get(
      "/projects/:projectId/saved-queries/:savedQueryId",
      {
        schema: {
          tags,
          summary: "One saved TQL query",
          params: SavedQueryParams,
          response: { 200: SavedQueryView, ...read },
        },
      },
      async (request) => getSavedQuery({ ctx: userCtx(domain, request), ...request.params }),
    );

    app.patch(
      "/projects/:projectId/saved-queries/:savedQueryId",
      {
        schema: {
          tags,
          summary: "Rename a saved query or change its text or description (members and above)",
          params: SavedQueryParams,
          body: UpdateSavedQueryInput,
          response: { 200: SavedQueryView, ...write, 409: Problem },
        },
      },
      async (request) =>
        updateSavedQuery({
          ctx: userCtx(domain, request),
          ...request.params,
          input: request.body,
        }),
    );

    app.delete(
      "/projects/:projectId/saved-queries/:savedQueryId",
      {
        schema: {
          tags,
          summary: "Delete a saved query (members and above)",
          params: SavedQueryParams,
          response: { 204: z.null().describe("Deleted"), 401: Problem, 403: Problem, 404: Problem },
        },
      },
      async (request, reply) => {
        await deleteSavedQuery({ ctx: userCtx(domain, request), ...request.params });
        return reply.code(204).send(null);
      },
    );
  };
