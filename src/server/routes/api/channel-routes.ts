import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import {
  ChannelTestResult,
  ChannelTypeView,
  ChannelView,
  CreateChannelInput,
  DELIVERY_LOG_LIMIT,
  NotificationDeliveryView,
  UpdateChannelInput,
} from "../../../contracts/channels.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import {
  type ChannelService,
  createChannel,
  deleteChannel,
  getChannel,
  listChannelDeliveries,
  listChannels,
  listChannelTypes,
  testChannel,
  updateChannel,
} from "../../../notifications/channels.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";
import { IdParam, ProjectParams } from "./project-routes.js";

/** What the channel routes run on: the domain deps with the channels' section. */
export type ChannelRouteDeps = DomainDeps & { channels: ChannelService };

const ChannelParams = ProjectParams.extend({ channelId: IdParam });
const tags = ["channels"];
const read = { 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem };

/** /api/projects/:projectId/channels…: notification channels (session auth). */
export const channelRoutes =
  (domain: ChannelRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/channel-types",
      {
        schema: {
          tags,
          summary:
            "The notification channel types: each one's settings (JSON Schema) and whether this server can create it",
          response: { 200: z.object({ data: z.array(ChannelTypeView) }), 401: Problem },
        },
      },
      async (request) => ({ data: listChannelTypes({ ctx: userCtx(domain, request) }) }),
    );

    app.get(
      "/projects/:projectId/channels",
      {
        schema: {
          tags,
          summary: "Notification channels of a project (secrets masked)",
          params: ProjectParams,
          querystring: PaginationQuery,
          response: { 200: listOf(ChannelView), ...read },
        },
      },
      async (request) =>
        paginate(
          await listChannels({
            ctx: userCtx(domain, request),
            projectId: request.params.projectId,
          }),
          request.query,
        ),
    );

    app.post(
      "/projects/:projectId/channels",
      {
        schema: {
          tags,
          summary:
            "Create a notification channel: webhook, slack, email, pagerduty, teams, discord, telegram or opsgenie (members and above)",
          params: ProjectParams,
          body: CreateChannelInput,
          response: { 201: ChannelView, ...write, 409: Problem },
        },
      },
      async (request, reply) => {
        const channel = await createChannel({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(channel);
      },
    );

    app.get(
      "/projects/:projectId/channels/:channelId",
      {
        schema: {
          tags,
          summary: "One notification channel (secrets masked)",
          params: ChannelParams,
          response: { 200: ChannelView, ...read },
        },
      },
      async (request) => getChannel({ ctx: userCtx(domain, request), ...request.params }),
    );

    app.patch(
      "/projects/:projectId/channels/:channelId",
      {
        schema: {
          tags,
          summary:
            "Rename a channel or change its settings (merged over the current ones); its type is fixed",
          params: ChannelParams,
          body: UpdateChannelInput,
          response: { 200: ChannelView, ...write, 409: Problem },
        },
      },
      async (request) =>
        updateChannel({
          ctx: userCtx(domain, request),
          ...request.params,
          input: request.body,
        }),
    );

    app.delete(
      "/projects/:projectId/channels/:channelId",
      {
        schema: {
          tags,
          summary:
            "Delete a channel and its delivery log; 409 while monitors still notify it (they are named)",
          params: ChannelParams,
          response: {
            204: z.null().describe("Deleted"),
            401: Problem,
            403: Problem,
            404: Problem,
            409: Problem,
          },
        },
      },
      async (request, reply) => {
        await deleteChannel({ ctx: userCtx(domain, request), ...request.params });
        return reply.code(204).send(null);
      },
    );

    app.post(
      "/projects/:projectId/channels/:channelId/test",
      {
        schema: {
          tags,
          summary:
            "Send a sample notification now; the outcome is in the body (ok, error) and the delivery log",
          params: ChannelParams,
          response: { 200: ChannelTestResult, ...write },
        },
      },
      async (request) => testChannel({ ctx: userCtx(domain, request), ...request.params }),
    );

    app.get(
      "/projects/:projectId/channels/:channelId/deliveries",
      {
        schema: {
          tags,
          summary: `The channel's last ${DELIVERY_LOG_LIMIT} deliveries, newest first`,
          params: ChannelParams,
          querystring: PaginationQuery,
          response: { 200: listOf(NotificationDeliveryView), ...read },
        },
      },
      async (request) =>
        paginate(
          await listChannelDeliveries({
            ctx: userCtx(domain, request),
            ...request.params,
          }),
          request.query,
        ),
    );
  };
