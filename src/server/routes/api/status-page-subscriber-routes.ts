import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDomainDeps } from "../../../composition/app-deps.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import {
  CreatedSubscriberView,
  CreateSubscriberInput,
  SubscriberCountsView,
  SubscriberView,
} from "../../../contracts/status-page-subscribers.js";
import { ItemIdParam, OrgIdParam } from "../../../contracts/status-pages.js";
import {
  createSubscriber,
  listSubscribers,
  removeSubscriber,
  subscriberCounts,
} from "../../../status-pages/subscribers.js";
import { PaginationQuery } from "../../pagination.js";
import { userCtx } from "../../request-context.js";

const PageParams = z.object({ orgId: OrgIdParam, pageId: ItemIdParam });
const SubscriberParams = PageParams.extend({ subscriberId: ItemIdParam });
const tags = ["status-pages"];
const read = { 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem };
const base = "/orgs/:orgId/status-pages/:pageId/subscribers";

/**
 * /api/orgs/:orgId/status-pages/:pageId/subscribers… (docs/status-page-subscribers.md): every
 * member reads the counts and the list; owners and admins add webhooks (or emails, which confirm
 * first) and remove subscribers.
 */
export const statusPageSubscriberRoutes =
  (deps: AppDomainDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      `${base}/counts`,
      {
        schema: {
          tags,
          summary: "How many subscribe to a page: confirmed and pending emails, webhooks",
          params: PageParams,
          response: { 200: SubscriberCountsView, ...read },
        },
      },
      async (request) => subscriberCounts({ ctx: userCtx(deps, request), ...request.params }),
    );

    app.get(
      base,
      {
        schema: {
          tags,
          summary: "A page's subscribers, newest first",
          params: PageParams,
          querystring: PaginationQuery,
          response: { 200: listOf(SubscriberView), ...read },
        },
      },
      async (request) =>
        listSubscribers({
          ctx: userCtx(deps, request),
          ...request.params,
          page: { page: request.query.page, limit: request.query.limit },
        }),
    );

    app.post(
      base,
      {
        schema: {
          tags,
          summary:
            "Add a subscriber (owner or admin): a webhook (its signing secret shown once) or an email (sent a confirmation)",
          params: PageParams,
          body: CreateSubscriberInput,
          response: { 201: CreatedSubscriberView, ...write, 409: Problem },
        },
      },
      async (request, reply) => {
        const created = await createSubscriber({
          ctx: userCtx(deps, request),
          ...request.params,
          input: request.body,
        });
        return reply.code(201).send(created);
      },
    );

    app.delete(
      `${base}/:subscriberId`,
      {
        schema: {
          tags,
          summary: "Remove a subscriber (owner or admin)",
          params: SubscriberParams,
          response: { 204: z.null(), ...write },
        },
      },
      async (request, reply) => {
        await removeSubscriber({ ctx: userCtx(deps, request), ...request.params });
        return reply.code(204).send(null);
      },
    );
  };
