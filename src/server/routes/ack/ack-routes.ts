import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { anonymousCtx } from "../../../context.js";
import {
  type AckLinkState,
  acknowledgeByLink,
  readAcknowledgeLink,
} from "../../../incidents/ack-link-verbs.js";
import { hashAckToken } from "../../../incidents/ack-links.js";
import { ACK_PAGE_CSP, renderAckPage, renderAckRateLimited } from "../../../incidents/ack-page.js";
import { addressBucket } from "../../../lib/client-address.js";
import { RateLimitedError } from "../../../lib/domain-errors.js";
import { rateLimitedError } from "../../key-limiter.js";
import type { RateLimitCounter } from "../../rate-limit-counter.js";

/** Requests per minute to /ack/… from one client address, and to one link from anywhere. */
export const ACK_LIMITS = { perAddressPerMinute: 30, perLinkPerMinute: 10 } as const;

const tags = ["incidents"];
const TokenParams = z.object({
  token: z.string().min(1).max(200).describe("The link's secret token (from a notification)"),
});
const html = z.string().describe("A small HTML page (no script)");
const responses = {
  200: html,
  404: html.describe("The same page for an unknown, used or expired link"),
  429: html.describe("Too many requests: try again after Retry-After seconds"),
};

/**
 * The one-click acknowledge links of notifications (docs/incidents.md "Acknowledge from a
 * notification"): `GET /ack/<token>` shows the incident's title and one button, never
 * acknowledging (mail scanners prefetch links); `POST /ack/<token>` acknowledges, once.
 * Unauthenticated (the token is the secret, never logged), rate limited per client address and
 * per link before any read, and an unknown, used or expired token gets the same 404 page.
 */
export const ackRoutes =
  (deps: Pick<AppDeps, "domain">, counter: RateLimitCounter): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = anonymousCtx(deps.domain);
    // The page's form posts no fields: any form body is read and ignored.
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 1024 },
      (_request, _body, done) => done(null, {}),
    );

    async function limit(bucket: string, perMinute: number): Promise<void> {
      const { current, ttl } = await counter.increment(bucket, 60_000);
      if (current > perMinute) throw rateLimitedError(perMinute, ttl);
    }

    function send(reply: FastifyReply, status: number, body: string): FastifyReply {
      return reply
        .code(status)
        .header("cache-control", "no-store")
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", ACK_PAGE_CSP)
        .header("referrer-policy", "no-referrer")
        .header("x-robots-tag", "noindex")
        .type("text/html; charset=utf-8")
        .send(body);
    }

    async function answer(
      request: FastifyRequest,
      reply: FastifyReply,
      act: (token: string) => Promise<AckLinkState>,
    ): Promise<void> {
      const { token } = request.params as z.infer<typeof TokenParams>;
      try {
        await limit(`ack:ip:${addressBucket(request.ip)}`, ACK_LIMITS.perAddressPerMinute);
        await limit(`ack:link:${hashAckToken(token)}`, ACK_LIMITS.perLinkPerMinute);
      } catch (error) {
        if (!(error instanceof RateLimitedError)) throw error;
        const seconds = error.retryAfterSeconds ?? 60;
        reply.header("retry-after", String(seconds));
        send(reply, 429, renderAckRateLimited(seconds));
        return;
      }
      const state = await act(token);
      const action = `/ack/${encodeURIComponent(token)}`;
      send(reply, state.state === "unavailable" ? 404 : 200, renderAckPage(state, action));
    }

    app.route({
      method: "GET",
      url: "/ack/:token",
      config: { secretPath: true, mediaType: "text/html" },
      schema: {
        tags,
        summary:
          "A one-click acknowledge link's page: the incident's title and one Acknowledge button (never acknowledges)",
        params: TokenParams,
        response: responses,
      },
      handler: async (request, reply) => {
        await answer(request, reply, (token) => readAcknowledgeLink({ ctx, token }));
        return reply;
      },
    });

    app.route({
      method: "POST",
      url: "/ack/:token",
      config: { secretPath: true, mediaType: "text/html" },
      schema: {
        tags,
        summary:
          "Acknowledge the link's incident (single use; expires after 24 h); answers a confirmation page",
        consumes: ["application/x-www-form-urlencoded"],
        params: TokenParams,
        response: responses,
      },
      handler: async (request, reply) => {
        await answer(request, reply, (token) => acknowledgeByLink({ ctx, token }));
        return reply;
      },
    });
  };
