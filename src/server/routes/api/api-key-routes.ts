import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  createApiKey,
  listApiKeyPermissions,
  listApiKeys,
  revokeApiKey,
} from "../../../auth/api-keys.js";
import type { DomainDeps } from "../../../context.js";
import {
  ApiKeyPermissions,
  ApiKeyView,
  CreateApiKeyInput,
  CreatedApiKey,
} from "../../../contracts/auth.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";
import { IdParam, ProjectParams } from "./project-routes.js";

export const apiKeyRoutes =
  (deps: DomainDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/api-key-permissions",
      {
        schema: {
          tags: ["api-keys"],
          summary: "The permissions an API key can hold, and the roles that bundle them",
          response: { 200: ApiKeyPermissions, 401: Problem },
        },
      },
      async (request) => {
        // Any signed-in user: it describes the product, not a project.
        userCtx(deps, request);
        return listApiKeyPermissions();
      },
    );

    app.get(
      "/projects/:projectId/api-keys",
      {
        schema: {
          tags: ["api-keys"],
          summary: "API keys of a project (never their secrets)",
          params: ProjectParams,
          querystring: PaginationQuery,
          response: { 200: listOf(ApiKeyView), 401: Problem, 404: Problem },
        },
      },
      async (request) =>
        paginate(
          await listApiKeys({ ctx: userCtx(deps, request), projectId: request.params.projectId }),
          request.query,
        ),
    );

    app.post(
      "/projects/:projectId/api-keys",
      {
        schema: {
          tags: ["api-keys"],
          summary: "Create an API key; the response holds its secret, once",
          params: ProjectParams,
          body: CreateApiKeyInput,
          response: { 201: CreatedApiKey, 400: Problem, 401: Problem, 403: Problem, 404: Problem },
        },
      },
      async (request, reply) => {
        const created = await createApiKey({
          ctx: userCtx(deps, request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(created);
      },
    );

    app.delete(
      "/projects/:projectId/api-keys/:keyId",
      {
        schema: {
          tags: ["api-keys"],
          summary: "Revoke an API key; it answers 401 from then on",
          params: ProjectParams.extend({ keyId: IdParam }),
          response: { 200: ApiKeyView, 401: Problem, 403: Problem, 404: Problem },
        },
      },
      async (request) =>
        revokeApiKey({
          ctx: userCtx(deps, request),
          projectId: request.params.projectId,
          keyId: request.params.keyId,
        }),
    );
  };
