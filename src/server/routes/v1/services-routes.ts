import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { ServiceDetail, ServiceList, ServiceMap } from "../../../contracts/services.js";
import { ServiceMapQuery, serviceMap } from "../../../read/service-map.js";
import { listServices, ServicesQuery } from "../../../read/services.js";
import { ServiceDetailQuery, serviceDetail } from "../../../read/services-detail.js";
import { keyReader, readRoute } from "./read-route.js";

// Not strict: under /api/projects/:projectId/v1 the params also hold the project.
const ServiceParams = z.object({
  service: z.string().min(1).max(256).describe("`service.name`, URL-encoded"),
});

const WINDOW =
  "Default window: the last hour; `time_range` or `from`/`to` choose another (docs/read-api.md, Shared parameters).";
const FIGURES =
  "A service's requests are its entry spans: server or consumer spans, and root spans of any kind. " +
  "Errors: error status or an HTTP status of 500 or more. Percentiles over span durations.";

/** GET /v1/services, /v1/services/:service, /v1/service-map (docs/services.md). */
export const servicesRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const reader = (request: FastifyRequest) => keyReader(deps.domain, request);
    app.get(
      "/services",
      readRoute({
        permission: "traces:read",
        summary: "Services with their request rate, error rate and latency, and sparklines",
        description: `${FIGURES} Busiest first, at most 500. ${WINDOW}`,
        querystring: ServicesQuery,
        response: ServiceList,
      }),
      async (request) => listServices({ ...reader(request), ...request.query }),
    );
    app.get(
      "/services/:service",
      readRoute({
        permission: "traces:read",
        summary: "One service: operations, instances, callers and callees, error groups",
        description:
          `${FIGURES} Operations group its entry spans by name, kind, method and route; instances by ` +
          "`service.instance.id`, `host.name` or `k8s.pod.name`; callers and callees come from the " +
          `service map's edges. 404 when the project has never seen the service. ${WINDOW}`,
        params: ServiceParams,
        querystring: ServiceDetailQuery,
        response: ServiceDetail,
      }),
      async (request) =>
        serviceDetail({ ...reader(request), ...request.query, service: request.params.service }),
    );
    app.get(
      "/service-map",
      readRoute({
        permission: "traces:read",
        summary:
          "The service map: services, databases, external hosts and message systems, and the calls between them",
        description:
          "Edges are found at ingest by pairing a client or producer span with the server or consumer span it " +
          "caused; database calls from `db.system`, external calls from `peer.service`/`server.address` when no " +
          "server span answers (docs/services.md). Read from per-minute summaries: percentiles are estimated " +
          `from merged duration buckets. ${WINDOW}`,
        querystring: ServiceMapQuery,
        response: ServiceMap,
      }),
      async (request) => serviceMap({ ...reader(request), ...request.query }),
    );
  };
