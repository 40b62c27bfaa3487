import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { incidentsDashboard, readIncident, readIncidents } from "../../../incidents/read.js";
import {
  IncidentDetailView,
  IncidentIdParam,
  IncidentsDashboard,
  IncidentsDashboardQuery,
  IncidentView,
  ListIncidentsQuery,
} from "../../../incidents/views.js";
import { listOf } from "../../pagination.js";
import { apiKeyCtx } from "../../request-context.js";
import { readRoute } from "./read-route.js";

/** GET /v1/incidents, /v1/incidents/dashboard, /v1/incidents/:incidentId. */
export const incidentsRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/incidents",
      readRoute({
        permission: "incidents:read",
        summary: "Incidents (manual, monitor outages, alert rules), newest first",
        description:
          "Filters: status, severity, source. With a window, the incidents that were open at some time during it.",
        querystring: ListIncidentsQuery,
        response: listOf(IncidentView),
      }),
      async (request) => readIncidents(apiKeyCtx(deps.domain, request), request.query),
    );
    app.get(
      "/incidents/dashboard",
      readRoute({
        permission: "incidents:read",
        summary: "Incident statistics: opened and resolved over time, by severity and source, MTTR",
        querystring: IncidentsDashboardQuery,
        response: IncidentsDashboard,
      }),
      async (request) => incidentsDashboard(apiKeyCtx(deps.domain, request), request.query),
    );
    app.get(
      "/incidents/:incidentId",
      readRoute({
        permission: "incidents:read",
        summary: "One incident: its full timeline and its public updates",
        params: z.object({ incidentId: IncidentIdParam }),
        response: IncidentDetailView,
      }),
      async (request) => readIncident(apiKeyCtx(deps.domain, request), request.params.incidentId),
    );
  };
