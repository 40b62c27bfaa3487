import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { PanelQueryRequest, PanelQueryResult } from "../../../contracts/dashboards.js";
import { Problem } from "../../../contracts/pagination.js";
import { runPanelQuery } from "../../../dashboards/panel-queries.js";
import { requirePermission } from "../../plugins/auth.js";
import { keyReader } from "./read-route.js";

/** POST /v1/dashboards/query: one panel's TQL with the dashboard's variables and time window. */
export const dashboardQueryRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/dashboards/query",
      {
        preHandler: requirePermission("tql:query"),
        schema: {
          tags: ["v1", "dashboards"],
          summary: "Run a dashboard panel's query",
          description:
            "Runs one TQL SELECT, as POST /v1/tql does, with the dashboard's variables bound to its " +
            "`{name:Type}` placeholders and the window to `{from:DateTime64(3)}`, " +
            "`{to:DateTime64(3)}` and `{bucket_seconds:UInt32}` (or `$__timeFilter(col)` and " +
            "`$__timeInterval(col)`). A relative `timeRange` ends at the end of the bucket now " +
            "falls in; `bucket_seconds` is the smallest of 1 s, 5 s, 10 s, 15 s, 30 s, 1 m, 5 m, " +
            "10 m, 15 m, 30 m, 1 h, 3 h, 6 h, 12 h, 1 d (then whole days) giving at most " +
            "`maxDataPoints` buckets. Equal queries share one result for the bucket's length " +
            "(5–60 s; `cached: true`). A project's panel queries run at most " +
            "`tql.maxConcurrentPerProject` at once; more wait in the project's line, and a full " +
            "line is 429 with `Retry-After`. A missing variable is 400 naming `variables.<name>`. " +
            "See docs/dashboards.md.",
          security: [{ apiKey: [] }],
          body: PanelQueryRequest,
          response: {
            200: PanelQueryResult,
            400: Problem,
            401: Problem,
            403: Problem,
            413: Problem,
            422: Problem,
            429: Problem,
            500: Problem,
            503: Problem,
          },
        },
      },
      async (request) => runPanelQuery({ ...keyReader(deps.domain, request), input: request.body }),
    );
  };
