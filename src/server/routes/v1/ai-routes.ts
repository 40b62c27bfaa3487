import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { AiDashboard } from "../../../contracts/ai.js";
import { AiDashboardQuery, aiDashboard } from "../../../read/ai/dashboard.js";
import { keyReader, readRoute } from "./read-route.js";

/** GET /v1/ai/dashboard. */
export const aiRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/ai/dashboard",
      readRoute({
        permission: "ai:read",
        summary: "AI usage, cost and latency, with recommendations from deterministic analyzers",
        description:
          "Token usage, cost, error rate and latency of the project's AI (gen_ai.*) calls by " +
          "model, provider and operation, a cost/token series, and recommendations produced by " +
          "documented analyzers over the project's own traces, logs and HTTP summaries. " +
          "`context` (performance, security, cost, quality) runs only that area's analyzers. " +
          "The window defaults to the last 24h.",
        querystring: AiDashboardQuery,
        response: AiDashboard,
      }),
      async (request) => aiDashboard({ ...keyReader(deps.domain, request), ...request.query }),
    );
  };
