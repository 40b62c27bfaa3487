import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  AlertIdParam,
  AlertsDashboardQuery,
  alertsDashboard,
  getAlert,
  ListAlertsQuery,
  listAlerts,
} from "../../../alerts/alerts-read.js";
import type { AppDeps } from "../../../composition/app-deps.js";
import { AlertDetail, AlertSummary, AlertsDashboard } from "../../../contracts/alert-reads.js";
import { listOf } from "../../../contracts/pagination.js";
import { apiKeyCtx } from "../../request-context.js";
import { readRoute } from "./read-route.js";

/** GET /v1/alerts, /v1/alerts/dashboard, /v1/alerts/:alertId (from the metadata store). */
export const alertsRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const scope = (request: Parameters<typeof apiKeyCtx>[1]) => {
      const ctx = apiKeyCtx(deps.domain, request);
      return { ctx, projectId: ctx.actor.projectId };
    };
    app.get(
      "/alerts",
      readRoute({
        permission: "alerts:read",
        summary: "Alerts (alert rules and their state) with thresholds and recent fires/resolves",
        description:
          "An alert is a rule with its state: muted while a mute holds, else active when a series is firing, else resolved. " +
          "With a window, the rules active during it: a fire or resolve in it, or a series firing since before it began.",
        querystring: ListAlertsQuery,
        response: listOf(AlertSummary),
      }),
      async (request) => listAlerts({ ...scope(request), query: request.query }),
    );
    app.get(
      "/alerts/dashboard",
      readRoute({
        permission: "alerts:read",
        summary:
          "Alert statistics: fires over time, by severity, noisiest rules, mean time to resolve",
        querystring: AlertsDashboardQuery,
        response: AlertsDashboard,
      }),
      async (request) => alertsDashboard({ ...scope(request), query: request.query }),
    );
    app.get(
      "/alerts/:alertId",
      readRoute({
        permission: "alerts:read",
        summary:
          "One alert: the rule's definition, query, channels, series states and last evaluation",
        params: z.object({ alertId: AlertIdParam }),
        response: AlertDetail,
      }),
      async (request) => getAlert({ ...scope(request), alertId: request.params.alertId }),
    );
  };
