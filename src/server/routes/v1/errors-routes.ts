import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import {
  ErrorDetail,
  ErrorSummary,
  ErrorsDashboard,
  ErrorTrends,
} from "../../../contracts/error-groups.js";
import { listOf } from "../../../contracts/pagination.js";
import {
  ErrorDetailQuery,
  ErrorIdParam,
  getError,
  ListErrorsQuery,
  listErrors,
} from "../../../read/error-groups.js";
import { ErrorTrendsQuery, errorTrends } from "../../../read/error-trends.js";
import { ErrorsDashboardQuery, errorsDashboard } from "../../../read/errors-dashboard.js";
import { keyReader, readRoute } from "./read-route.js";

/** GET /v1/errors, /v1/errors/dashboard, /v1/errors/trends, /v1/errors/:errorId. */
export const errorsRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const reader = (request: FastifyRequest) => keyReader(deps.domain, request);
    app.get(
      "/errors",
      readRoute({
        permission: "errors:read",
        summary: "Error groups, most recently seen first",
        description:
          "Occurrences are grouped by fingerprint (exception type and in-app frames, or a normalized message). " +
          "With a window, the groups that occurred during it.",
        querystring: ListErrorsQuery,
        response: listOf(ErrorSummary),
      }),
      async (request) => listErrors({ ...reader(request), ...request.query }),
    );
    app.get(
      "/errors/dashboard",
      readRoute({
        permission: "errors:read",
        summary: "Error statistics: occurrences over time, new groups, severities, top errors",
        querystring: ErrorsDashboardQuery,
        response: ErrorsDashboard,
      }),
      async (request) => errorsDashboard({ ...reader(request), ...request.query }),
    );
    app.get(
      "/errors/trends",
      readRoute({
        permission: "errors:read",
        summary: "Occurrences over time of several error groups at once (sparklines for a list)",
        description:
          "Coarse buckets (at most 48) over the window, default the last 24h. With `ids`, those groups in that " +
          "order, zero-filled (an unknown id gets zeros); without, the busiest groups of the window.",
        querystring: ErrorTrendsQuery,
        response: ErrorTrends,
      }),
      async (request) => errorTrends({ ...reader(request), ...request.query }),
    );
    app.get(
      "/errors/:errorId",
      readRoute({
        permission: "errors:read",
        summary: "One error group: stack trace, occurrences over time, services, sample traces",
        params: z.object({ errorId: ErrorIdParam }),
        querystring: ErrorDetailQuery,
        response: ErrorDetail,
      }),
      async (request) =>
        getError({ ...reader(request), errorId: request.params.errorId, ...request.query }),
    );
  };
