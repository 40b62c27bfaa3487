import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import {
  CreateDashboardInput,
  DashboardExport,
  DashboardSummary,
  DashboardView,
  DuplicateDashboardInput,
  StarDashboardInput,
  UpdateDashboardInput,
} from "../../../contracts/dashboards.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import { exportDashboard, importDashboard } from "../../../dashboards/dashboard-transfer.js";
import {
  createDashboard,
  deleteDashboard,
  duplicateDashboard,
  getDashboard,
  listDashboards,
  starDashboard,
  updateDashboard,
} from "../../../dashboards/dashboards.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";
import { IdParam, ProjectParams } from "./project-routes.js";

const DashboardParams = ProjectParams.extend({ dashboardId: IdParam });
const ListDashboardsQuery = PaginationQuery.extend({
  q: z.string().max(200).optional().describe("Words each found in the title or a tag (any case)"),
  tag: z.string().max(50).optional().describe("Only dashboards with this tag (any case)"),
  starred: z.enum(["true", "false"]).optional().describe("true: only the dashboards you starred"),
  sort: z
    .enum(["starred", "title", "updated"])
    .default("starred")
    .describe("starred (default): starred first, then by title; title; updated: newest first"),
}).strict();

const tags = ["dashboards"];
const read = { 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem, 413: Problem };

/** /api/projects/:projectId/dashboards…: panels on a grid (session auth; docs/dashboards.md). */
export const dashboardRoutes =
  (domain: DomainDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/projects/:projectId/dashboards",
      {
        schema: {
          tags,
          summary: "The project's dashboards, without their panels",
          params: ProjectParams,
          querystring: ListDashboardsQuery,
          response: { 200: listOf(DashboardSummary), 400: Problem, ...read },
        },
      },
      async (request) => {
        const { q, tag, starred, sort, ...page } = request.query;
        const filter = {
          sort,
          ...(q === undefined ? {} : { q }),
          ...(tag === undefined ? {} : { tag }),
          ...(starred === undefined ? {} : { starred: starred === "true" }),
        };
        const list = await listDashboards({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
          filter,
        });
        return paginate(list, page);
      },
    );

    app.post(
      "/projects/:projectId/dashboards",
      {
        schema: {
          tags,
          summary: "Create a dashboard (members and above); panels without an id get one",
          params: ProjectParams,
          body: CreateDashboardInput,
          response: { 201: DashboardView, ...write },
        },
      },
      async (request, reply) => {
        const created = await createDashboard({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(created);
      },
    );

    app.post(
      "/projects/:projectId/dashboards/import",
      {
        schema: {
          tags,
          summary: "Create a dashboard from an export file (members and above)",
          description:
            "Takes exactly what `GET …/dashboards/{dashboardId}/export` gives. Another " +
            "`schemaVersion`, an unknown panel type or field is 400 naming its path; a document " +
            "over 1,000,000 bytes of JSON is 413.",
          params: ProjectParams,
          body: DashboardExport,
          response: { 201: DashboardView, ...write },
        },
      },
      async (request, reply) => {
        const created = await importDashboard({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(created);
      },
    );

    app.get(
      "/projects/:projectId/dashboards/:dashboardId",
      {
        schema: {
          tags,
          summary: "One dashboard with its variables and panels",
          params: DashboardParams,
          response: { 200: DashboardView, ...read },
        },
      },
      async (request) => getDashboard({ ctx: userCtx(domain, request), ...request.params }),
    );

    app.patch(
      "/projects/:projectId/dashboards/:dashboardId",
      {
        schema: {
          tags,
          summary: "Save a change made on `version` (members and above); a stale version is 409",
          description:
            "The fields given replace the saved ones and the version goes up by one. `version` " +
            "must be the dashboard's current one: a change made on an older version (someone " +
            "else saved meanwhile) is 409 `conflict` naming `version`, and nothing is written.",
          params: DashboardParams,
          body: UpdateDashboardInput,
          response: { 200: DashboardView, ...write, 409: Problem },
        },
      },
      async (request) =>
        updateDashboard({ ctx: userCtx(domain, request), ...request.params, input: request.body }),
    );

    app.delete(
      "/projects/:projectId/dashboards/:dashboardId",
      {
        schema: {
          tags,
          summary: "Delete a dashboard (members and above)",
          params: DashboardParams,
          response: { 204: z.null().describe("Deleted"), 401: Problem, 403: Problem, 404: Problem },
        },
      },
      async (request, reply) => {
        await deleteDashboard({ ctx: userCtx(domain, request), ...request.params });
        return reply.code(204).send(null);
      },
    );

    app.post(
      "/projects/:projectId/dashboards/:dashboardId/duplicate",
      {
        schema: {
          tags,
          summary: "Copy a dashboard under a new id (members and above)",
          params: DashboardParams,
          body: DuplicateDashboardInput,
          response: { 201: DashboardView, ...write },
        },
      },
      async (request, reply) => {
        const copy = await duplicateDashboard({
          ctx: userCtx(domain, request),
          ...request.params,
          input: request.body,
        });
        return reply.code(201).send(copy);
      },
    );

    app.put(
      "/projects/:projectId/dashboards/:dashboardId/star",
      {
        schema: {
          tags,
          summary: "Star or unstar a dashboard for yourself (viewers too)",
          params: DashboardParams,
          body: StarDashboardInput,
          response: { 200: StarDashboardInput, 400: Problem, ...read },
        },
      },
      async (request) =>
        starDashboard({ ctx: userCtx(domain, request), ...request.params, input: request.body }),
    );

    app.get(
      "/projects/:projectId/dashboards/:dashboardId/export",
      {
        schema: {
          tags,
          summary:
            "The dashboard as an export file (schemaVersion and body, no ids of this project)",
          params: DashboardParams,
          response: { 200: DashboardExport, ...read },
        },
      },
      async (request) => exportDashboard({ ctx: userCtx(domain, request), ...request.params }),
    );
  };
