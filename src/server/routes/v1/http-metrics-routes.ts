import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { HttpMetrics } from "../../../contracts/http-metrics.js";
import { HttpMetricsQuery, httpMetrics } from "../../../read/http-metrics.js";
import { keyReader, readRoute } from "./read-route.js";

/** GET /v1/http-metrics. */
export const httpMetricsRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/http-metrics",
      readRoute({
        permission: "http_metrics:read",
        summary:
          "HTTP traffic: requests, error rate and latency percentiles over time, by route and status class",
        description:
          "`time_range` is required; `from`/`to` pin the window. Buckets are 1m for windows up to 6h and 1h " +
          "beyond unless `resolution` says otherwise. A resolution giving more than 2160 buckets is " +
          "coarsened to the finest that fits (`requestedResolution` and `notice` say so); a window too long " +
          "even for 1h is refused. Percentiles are " +
          "estimated from merged duration histograms: linear interpolation inside the bucket holding the " +
          "rank, clamped to the observed min and max.",
        querystring: HttpMetricsQuery,
        response: HttpMetrics,
      }),
      async (request) => httpMetrics({ ...keyReader(deps.domain, request), ...request.query }),
    );
  };
