import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { ErrorSummary, UpdateErrorInput } from "../../../contracts/error-groups.js";
import { Problem } from "../../../contracts/pagination.js";
import { ErrorIdParam, updateError } from "../../../read/error-groups.js";
import { userCtx } from "../../request-context.js";
import { ProjectParams } from "./project-routes.js";

/** PATCH /api/projects/:projectId/errors/:errorId: triage from the dashboard (session auth). */
export const errorRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.patch(
      "/projects/:projectId/errors/:errorId",
      {
        schema: {
          tags: ["errors"],
          summary: "Resolve, reopen or change the severity of an error group (members and above)",
          params: ProjectParams.extend({ errorId: ErrorIdParam }),
          body: UpdateErrorInput,
          response: { 200: ErrorSummary, 400: Problem, 401: Problem, 403: Problem, 404: Problem },
        },
      },
      async (request) =>
        updateError({
          ctx: userCtx(deps.domain, request),
          projectId: request.params.projectId,
          errorId: request.params.errorId,
          input: request.body,
        }),
    );
  };
