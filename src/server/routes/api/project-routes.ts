import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import { CreateProjectInput, ProjectView } from "../../../contracts/projects.js";
import { createProject, listProjects, requireProject } from "../../../projects/projects.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";

/** An id in a session route's path (projects, organizations, keys, channels…). */
export const IdParam = z.string().min(1).max(64);
export const ProjectParams = z.object({ projectId: IdParam });
export const OrgParams = z.object({ orgId: IdParam });

export const projectRoutes =
  (deps: DomainDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/projects",
      {
        schema: {
          tags: ["projects"],
          summary: "Projects of the signed-in user's organizations",
          querystring: PaginationQuery,
          response: { 200: listOf(ProjectView), 401: Problem },
        },
      },
      async (request) =>
        paginate(await listProjects({ ctx: userCtx(deps, request) }), request.query),
    );

    app.post(
      "/projects",
      {
        schema: {
          tags: ["projects"],
          summary: "Create a project (owner or admin)",
          body: CreateProjectInput,
          response: { 201: ProjectView, 400: Problem, 401: Problem, 403: Problem, 409: Problem },
        },
      },
      async (request, reply) => {
        const project = await createProject({ ctx: userCtx(deps, request), input: request.body });
        return reply.code(201).send(project);
      },
    );

    app.get(
      "/projects/:projectId",
      {
        schema: {
          tags: ["projects"],
          summary: "One project",
          params: ProjectParams,
          response: { 200: ProjectView, 401: Problem, 404: Problem },
        },
      },
      async (request) =>
        requireProject({
          ctx: userCtx(deps, request),
          projectId: request.params.projectId,
          access: "read",
        }),
    );
  };
