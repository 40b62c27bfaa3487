import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { listOf, Problem } from "../../../contracts/pagination.js";
import {
  CreatedWebhookEndpointView,
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveryRecordView,
  WebhookEndpointView,
  WebhookEventTypeView,
} from "../../../contracts/webhooks.js";
import {
  createEndpoint,
  DELIVERY_LOG_LIMIT,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  listEventTypes,
  testEndpoint,
  updateEndpoint,
  type WebhookDomainDeps,
} from "../../../webhooks/endpoints.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";
import { IdParam, ProjectParams } from "../api/project-routes.js";

export interface WebhookRouteDeps {
  /** The domain deps with their webhooks section. */
  domain: WebhookDomainDeps;
  /** Per user: creations, edits and tests, each of which may POST to a URL. */
  writesPerMinute: number;
}

const EndpointParams = ProjectParams.extend({ endpointId: IdParam });
const tags = ["webhooks"];
const read = { 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem, 429: Problem };

/** /webhooks/…: endpoint management, tests and the delivery log (session auth, no /v1 prefix). */
export const webhookRoutes =
  (deps: WebhookRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Writes that make the server POST to a URL (verification, test pings) share one budget
    // per signed-in user: a member cannot turn the service into a request cannon.
    const limited = app.rateLimit({
      max: deps.writesPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => `webhook-writes:${request.auth?.user.id ?? request.ip}`,
    });
    const ctx = (request: Parameters<typeof userCtx>[1]) => userCtx(deps.domain, request);

    app.get(
      "/event-types",
      {
        schema: {
          tags,
          summary:
            "The subscribable event types, each with its payload's JSON Schema and an example",
          response: { 200: z.object({ data: z.array(WebhookEventTypeView) }), 401: Problem },
        },
      },
      async (request) => ({ data: await listEventTypes({ ctx: ctx(request) }) }),
    );

    app.get(
      "/:projectId/endpoints",
      {
        schema: {
          tags,
          summary: "The project's webhook endpoints (secrets are never shown)",
          params: ProjectParams,
          querystring: PaginationQuery,
          response: { 200: listOf(WebhookEndpointView), ...read },
        },
      },
      async (request) =>
        paginate(
          await listEndpoints({ ctx: ctx(request), projectId: request.params.projectId }),
          request.query,
        ),
    );

    app.post(
      "/:projectId/endpoints",
      {
        preHandler: limited,
        schema: {
          tags,
          summary:
            "Create an endpoint: it must answer the endpoint.verify POST with a 2xx within 8 s; the secret is shown only here",
          params: ProjectParams,
          body: CreateWebhookEndpointInput,
          response: { 201: CreatedWebhookEndpointView, ...write, 409: Problem },
        },
      },
      async (request, reply) => {
        const endpoint = await createEndpoint({
          ctx: ctx(request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(endpoint);
      },
    );

    app.patch(
      "/:projectId/endpoints/:endpointId",
      {
        preHandler: limited,
        schema: {
          tags,
          summary: "Enable or disable an endpoint, change its events, or its URL (verified again)",
          params: EndpointParams,
          body: UpdateWebhookEndpointInput,
          response: { 200: WebhookEndpointView, ...write, 409: Problem },
        },
      },
      async (request) =>
        updateEndpoint({ ctx: ctx(request), ...request.params, input: request.body }),
    );

    app.delete(
      "/:projectId/endpoints/:endpointId",
      {
        schema: {
          tags,
          summary: "Delete an endpoint with its delivery log and pending retries",
          params: EndpointParams,
          response: { 204: z.null().describe("Deleted"), 401: Problem, 403: Problem, 404: Problem },
        },
      },
      async (request, reply) => {
        await deleteEndpoint({ ctx: ctx(request), ...request.params });
        return reply.code(204).send(null);
      },
    );

    app.post(
      "/:projectId/endpoints/:endpointId/test",
      {
        preHandler: limited,
        schema: {
          tags,
          summary:
            "Send a test.ping now; answers with its delivery record (a failed ping is retried in 60 s like any delivery)",
          params: EndpointParams,
          response: { 200: WebhookDeliveryRecordView, ...write, 409: Problem },
        },
      },
      async (request) => testEndpoint({ ctx: ctx(request), ...request.params }),
    );

    app.get(
      "/:projectId/endpoints/:endpointId/deliveries",
      {
        schema: {
          tags,
          summary: `The endpoint's last ${DELIVERY_LOG_LIMIT} delivery records (one per attempt), newest first`,
          params: EndpointParams,
          querystring: PaginationQuery,
          response: { 200: listOf(WebhookDeliveryRecordView), ...read },
        },
      },
      async (request) =>
        paginate(await listDeliveries({ ctx: ctx(request), ...request.params }), request.query),
    );
  };
