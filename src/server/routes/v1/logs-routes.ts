import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import {
  getLog,
  ListLogsQuery,
  LogDetail,
  LogSummary,
  LogsDashboard,
  LogsDashboardQuery,
  listLogs,
  logsDashboard,
} from "../../../read/logs.js";
import { listOf } from "../../pagination.js";
import { apiKeyCtx } from "../../request-context.js";
import { readRoute } from "./read-route.js";

const LogParams = z.object({ logId: z.string().min(1).max(128) });

/** GET /v1/logs, /v1/logs/dashboard, /v1/logs/:logId. */
export const logsRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const project = (request: Parameters<typeof apiKeyCtx>[1]) =>
      apiKeyCtx(deps.domain, request).actor.projectId;
    app.get(
      "/logs",
      readRoute({
        permission: "logs:read",
        summary: "Log records, newest first",
        description:
          "Filters combine with AND. `search` is full text over messages: every word or quoted " +
          "phrase must occur, case-insensitively. Without `time_range`/`from`/`to` every retained record is listed.",
        querystring: ListLogsQuery,
        response: listOf(LogSummary),
      }),
      async (request) => listLogs(deps.read, project(request), request.query),
    );
    app.get(
      "/logs/dashboard",
      readRoute({
        permission: "logs:read",
        summary: "Log statistics: counts by level over time, top services, top message patterns",
        querystring: LogsDashboardQuery,
        response: LogsDashboard,
      }),
      async (request) => logsDashboard(deps.read, project(request), request.query),
    );
    app.get(
      "/logs/:logId",
      readRoute({
        permission: "logs:read",
        summary: "One log record with its attributes, resource and trace link",
        params: LogParams,
        response: LogDetail,
      }),
      async (request) => getLog(deps.read, project(request), request.params.logId),
    );
  };
