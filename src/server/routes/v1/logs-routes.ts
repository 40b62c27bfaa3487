import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { LogDetail, LogSummary, LogsDashboard } from "../../../contracts/logs.js";
import { listOf } from "../../../contracts/pagination.js";
import {
  getLog,
  ListLogsQuery,
  LogsDashboardQuery,
  listLogs,
  logsDashboard,
} from "../../../read/logs.js";
import { keyReader, readRoute } from "./read-route.js";

const LogParams = z.object({ logId: z.string().min(1).max(128) });

/** GET /v1/logs, /v1/logs/dashboard, /v1/logs/:logId. */
export const logsRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const reader = (request: FastifyRequest) => keyReader(deps.domain, request);
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
      async (request) => listLogs({ ...reader(request), ...request.query }),
    );
    app.get(
      "/logs/dashboard",
      readRoute({
        permission: "logs:read",
        summary: "Log statistics: counts by level over time, top services, top message patterns",
        querystring: LogsDashboardQuery,
        response: LogsDashboard,
      }),
      async (request) => logsDashboard({ ...reader(request), ...request.query }),
    );
    app.get(
      "/logs/:logId",
      readRoute({
        permission: "logs:read",
        summary: "One log record with its attributes, resource and trace link",
        params: LogParams,
        response: LogDetail,
      }),
      async (request) => getLog({ ...reader(request), logId: request.params.logId }),
    );
  };
