import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { InfraHealth } from "../../../contracts/infra.js";
import { InfraHealthQuery, infraHealth } from "../../../read/infra.js";
import { keyReader, readRoute } from "./read-route.js";

/** GET /v1/infra-health. */
export const infraRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/infra-health",
      readRoute({
        permission: "infra:read",
        summary: "Infrastructure components with CPU, memory, disk and network, and a health state",
        description:
          "Components come from metric resource attributes (k8s.pod.name, container.id, host.name, " +
          "service.instance.id, in that precedence). Default window 1h. State: stale when nothing arrived " +
          "in the last 5 minutes of the window; down when memory or disk is at 95 % or more; degraded at " +
          "85 % or more (CPU included); healthy otherwise. An unknown `component` answers 404.",
        querystring: InfraHealthQuery,
        response: InfraHealth,
      }),
      async (request) => infraHealth({ ...keyReader(deps.domain, request), ...request.query }),
    );
  };
