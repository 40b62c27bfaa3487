import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { MetricNameList } from "../../../contracts/metric-names.js";
import { MetricNamesQuery, metricNames } from "../../../read/metric-names.js";
import { keyReader, readRoute } from "./read-route.js";

/** GET /v1/metrics/names. */
export const metricsRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/metrics/names",
      readRoute({
        permission: "infra:read",
        summary: "The metrics sent in a window, with type, unit, temporality and attribute keys",
        description:
          "One item per metric name (and type, should a name carry two), sorted by name, with the " +
          "unit and description last sent, its temporality and monotonicity, the point and resource " +
          "attribute keys seen, the services that sent it, its series and points, and its last point. " +
          "`q` matches the name or description (any case). Default window 24h. The metrics explorer " +
          "charts one with the TQL of docs/metrics-explorer.md.",
        querystring: MetricNamesQuery,
        response: MetricNameList,
      }),
      async (request) => metricNames({ ...keyReader(deps.domain, request), ...request.query }),
    );
  };
