import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import {
  LogContext,
  LogDetail,
  LogFacets,
  LogSummary,
  LogsDashboard,
  LogVolume,
} from "../../../contracts/logs.js";
import { listOf } from "../../../contracts/pagination.js";
import { LogContextQuery, logContext } from "../../../read/log-context.js";
import { LogFacetsQuery, logFacets } from "../../../read/log-facets.js";
import { LogVolumeQuery, logVolume } from "../../../read/log-volume.js";
import {
  getLog,
  ListLogsQuery,
  LogsDashboardQuery,
  listLogs,
  logsDashboard,
} from "../../../read/logs.js";
import { keyReader, readRoute } from "./read-route.js";

const LogParams = z.object({ logId: z.string().min(1).max(128) });

/** GET /v1/logs, /v1/logs/dashboard, /volume, /facets, /v1/logs/:logId and its /context. */
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
          "phrase must occur, case-insensitively. `filters` adds conditions on any column, " +
          "`attributes.<key>` or `resource.<key>`. Without `time_range`/`from`/`to` every retained record is listed.",
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
      "/logs/volume",
      readRoute({
        permission: "logs:read",
        summary: "How many records match the list's filters, per level and time bucket",
        description:
          "The list's histogram: every filter of `GET /v1/logs` (search and `filters` included) " +
          "over the window (default 24h), counts per level in each bucket, every bucket present.",
        querystring: LogVolumeQuery,
        response: LogVolume,
      }),
      async (request) => logVolume({ ...reader(request), ...request.query }),
    );
    app.get(
      "/logs/facets",
      readRoute({
        permission: "logs:read",
        summary: "Value counts of the records the list's filters match",
        description:
          "service_name, level and source counted over every matching record (window default " +
          "24h); the most frequent attribute and resource keys with their top values, counted " +
          "over the newest matching records (`sampled`, `sampleSize`).",
        querystring: LogFacetsQuery,
        response: LogFacets,
      }),
      async (request) => logFacets({ ...reader(request), ...request.query }),
    );
    app.get(
      "/logs/:logId/context",
      readRoute({
        permission: "logs:read",
        summary: "The records of the same service and instance just before and after one record",
        params: LogParams,
        querystring: LogContextQuery,
        response: LogContext,
      }),
      async (request) =>
        logContext({ ...reader(request), logId: request.params.logId, ...request.query }),
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
