import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import {
  IncidentDetailView,
  IncidentsDashboard,
  IncidentView,
} from "../../../contracts/incidents.js";
import { listOf } from "../../../contracts/pagination.js";
import {
  getIncident,
  IncidentIdParam,
  ListIncidentsQuery,
  listIncidents,
} from "../../../incidents/incidents.js";
import {
  IncidentsDashboardQuery,
  incidentsDashboard,
} from "../../../incidents/incidents-dashboard.js";
import { apiKeyCtx } from "../../request-context.js";
import { readRoute } from "./read-route.js";

/** GET /v1/incidents, /v1/incidents/dashboard, /v1/incidents/:incidentId. */
export const incidentsRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // The key's own project: /v1 reads never name one.
    const scope = (request: Parameters<typeof apiKeyCtx>[1]) => {
      const ctx = apiKeyCtx(deps.domain, request);
      return { ctx, projectId: ctx.actor.projectId };
    };
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
      async (request) => listIncidents({ ...scope(request), query: request.query }),
    );
    app.get(
      "/incidents/dashboard",
      readRoute({
        permission: "incidents:read",
        summary: "Incident statistics: opened and resolved over time, by severity and source, MTTR",
        querystring: IncidentsDashboardQuery,
        response: IncidentsDashboard,
      }),
      async (request) => incidentsDashboard({ ...scope(request), query: request.query }),
    );
    app.get(
      "/incidents/:incidentId",
      readRoute({
        permission: "incidents:read",
        summary: "One incident: its full timeline and its public updates",
        params: z.object({ incidentId: IncidentIdParam }),
        response: IncidentDetailView,
      }),
      async (request) => getIncident({ ...scope(request), incidentId: request.params.incidentId }),
    );
  };
