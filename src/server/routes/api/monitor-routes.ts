import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import {
  CheckResultView,
  CreateMonitorInput,
  MonitorIncidentView,
  MonitorView,
  UpdateMonitorInput,
} from "../../../contracts/monitors.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import {
  createMonitor,
  deleteMonitor,
  getMonitor,
  getResult,
  ListResultsQuery,
  listIncidents,
  listMonitors,
  listResults,
  MonitorIdParam,
  pauseMonitor,
  resumeMonitor,
  runMonitor,
  updateMonitor,
} from "../../../monitors/monitors.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { linkingUserCtx } from "../../request-context.js";
import { IdParam, ProjectParams } from "./project-routes.js";

const MonitorParams = ProjectParams.extend({ monitorId: MonitorIdParam });
const tags = ["monitors"];
const read = { 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem };

/** /api/projects/:projectId/monitors… (docs/design.md §4, docs/monitors.md): monitors of every kind, their checks and incidents. */
export const monitorRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const ref = (request: FastifyRequest & { params: z.infer<typeof MonitorParams> }) => ({
      ctx: linkingUserCtx(deps.domain, request, deps.config.publicUrl),
      projectId: request.params.projectId,
      monitorId: request.params.monitorId,
    });

    app.get(
      "/projects/:projectId/monitors",
      {
        schema: {
          tags,
          summary: "Monitors of a project with their current state",
          params: ProjectParams,
          querystring: PaginationQuery,
          response: { 200: listOf(MonitorView), ...read },
        },
      },
      async (request) =>
        paginate(
          await listMonitors({
            ctx: linkingUserCtx(deps.domain, request, deps.config.publicUrl),
            projectId: request.params.projectId,
          }),
          request.query,
        ),
    );

    app.post(
      "/projects/:projectId/monitors",
      {
        schema: {
          tags,
          summary:
            "Create a monitor of any kind (members and above); it is checked at once, then at its frequency (a heartbeat waits for its pings)",
          params: ProjectParams,
          body: CreateMonitorInput,
          response: { 201: MonitorView, ...write },
        },
      },
      async (request, reply) => {
        const monitor = await createMonitor({
          ctx: linkingUserCtx(deps.domain, request, deps.config.publicUrl),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(monitor);
      },
    );

    app.get(
      "/projects/:projectId/monitors/:monitorId",
      {
        schema: {
          tags,
          summary: "One monitor",
          params: MonitorParams,
          response: { 200: MonitorView, ...read },
        },
      },
      async (request) => getMonitor(ref(request)),
    );

    app.patch(
      "/projects/:projectId/monitors/:monitorId",
      {
        schema: {
          tags,
          summary: "Change a monitor; `steps` is replaced whole and the result is validated again",
          params: MonitorParams,
          body: UpdateMonitorInput,
          response: { 200: MonitorView, ...write },
        },
      },
      async (request) => updateMonitor({ ...ref(request), input: request.body }),
    );

    app.delete(
      "/projects/:projectId/monitors/:monitorId",
      {
        schema: {
          tags,
          summary: "Delete a monitor with its results and incidents",
          params: MonitorParams,
          response: { 204: z.null(), ...write },
        },
      },
      async (request, reply) => {
        await deleteMonitor(ref(request));
        return reply.code(204).send(null);
      },
    );

    for (const [action, verb, summary] of [
      ["pause", pauseMonitor, "Stop scheduled checks"],
      [
        "resume",
        resumeMonitor,
        "Restart checks with the failure streak cleared (an outage slept through does not re-alert)",
      ],
    ] as const) {
      app.post(
        `/projects/:projectId/monitors/:monitorId/${action}`,
        {
          schema: {
            tags,
            summary,
            params: MonitorParams,
            response: { 200: MonitorView, ...write },
          },
        },
        async (request) => verb(ref(request)),
      );
    }

    app.post(
      "/projects/:projectId/monitors/:monitorId/run",
      {
        schema: {
          tags,
          summary:
            "Run one check now; it is recorded like a scheduled one and counts toward the failure streak (409 for a heartbeat: its pings are its checks)",
          params: MonitorParams,
          response: { 200: CheckResultView, ...write, 409: Problem },
        },
      },
      async (request) => runMonitor(ref(request)),
    );

    app.get(
      "/projects/:projectId/monitors/:monitorId/results",
      {
        schema: {
          tags,
          summary: "Check results, newest first (kept 90 days)",
          params: MonitorParams,
          querystring: ListResultsQuery,
          response: { 200: listOf(CheckResultView), 400: Problem, ...read },
        },
      },
      async (request) => listResults({ ...ref(request), query: request.query }),
    );

    app.get(
      "/projects/:projectId/monitors/:monitorId/results/:resultId",
      {
        schema: {
          tags,
          summary: "One check result",
          params: MonitorParams.extend({ resultId: IdParam }),
          response: { 200: CheckResultView, ...read },
        },
      },
      async (request) => getResult({ ...ref(request), resultId: request.params.resultId }),
    );

    app.get(
      "/projects/:projectId/monitors/:monitorId/incidents",
      {
        schema: {
          tags,
          summary: "Outages of the monitor, newest first, with their notifications",
          params: MonitorParams,
          querystring: PaginationQuery,
          response: { 200: listOf(MonitorIncidentView), ...read },
        },
      },
      async (request) => listIncidents({ ...ref(request), query: request.query }),
    );
  };
