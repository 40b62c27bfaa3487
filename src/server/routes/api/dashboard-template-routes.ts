import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import {
  DashboardTemplateView,
  DashboardView,
  InstallTemplateInput,
} from "../../../contracts/dashboards.js";
import { Problem } from "../../../contracts/pagination.js";
import {
  installDashboardTemplate,
  listDashboardTemplates,
} from "../../../dashboards/dashboard-templates.js";
import type { TqlService } from "../../../tql/tql-service.js";
import { userCtx } from "../../request-context.js";
import { IdParam, ProjectParams } from "./project-routes.js";

const TemplateParams = ProjectParams.extend({ templateId: IdParam });
const tags = ["dashboards"];

/** /api/projects/:projectId/dashboard-templates…: the dashboards Vigil ships (docs/dashboard-templates.md). */
export const dashboardTemplateRoutes =
  (domain: DomainDeps & { tql: TqlService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/projects/:projectId/dashboard-templates",
      {
        schema: {
          tags,
          summary:
            "The dashboard templates, each with whether the project has sent the data it charts",
          params: ProjectParams,
          response: { 200: z.array(DashboardTemplateView), 401: Problem, 404: Problem },
        },
      },
      async (request) =>
        listDashboardTemplates({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
        }),
    );

    app.post(
      "/projects/:projectId/dashboard-templates/:templateId/install",
      {
        schema: {
          tags,
          summary: "Install a template as a new dashboard of the project (members and above)",
          params: TemplateParams,
          body: InstallTemplateInput.optional(),
          response: {
            201: DashboardView,
            400: Problem,
            401: Problem,
            403: Problem,
            404: Problem,
          },
        },
      },
      async (request, reply) => {
        const dashboard = await installDashboardTemplate({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
          templateId: request.params.templateId,
          input: request.body ?? {},
        });
        return reply.code(201).send(dashboard);
      },
    );
  };
