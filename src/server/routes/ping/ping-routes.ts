import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

import type { AppDeps } from "../../../composition/app-deps.js";
import { Problem } from "../../../contracts/pagination.js";
import { addressBucket } from "../../../lib/client-address.js";
import { utf8Prefix } from "../../../lib/http/bounded-body.js";
import { receivePing } from "../../../monitors/heartbeat-pings.js";
import { MAX_PING_BODY_BYTES, type PingSignal } from "../../../monitors/heartbeat-results.js";
import { hashPingToken } from "../../../monitors/heartbeat-tokens.js";
import { rateLimitedError } from "../../key-limiter.js";
import type { RateLimitCounter } from "../../rate-limit-counter.js";

/** Bytes of a ping's request body read at most (the first MAX_PING_BODY_BYTES are kept). */
export const MAX_PING_REQUEST_BYTES = 64 * 1024;
const WINDOW_MS = 60_000;
const tags = ["heartbeats"];
const Token = z
  .string()
  .min(1)
  .max(200)
  .describe("The heartbeat's secret token (from its pingUrl)");
const TokenParams = z.object({ token: Token });
const CodeParams = z.object({
  token: Token,
  code: z
    .string()
    .regex(/^\d{1,3}$/, { error: "must be an exit code from 0 to 255" })
    .refine((code) => Number(code) <= 255, { error: "must be an exit code from 0 to 255" })
    .describe("The job's exit code: 0 is a success, 1–255 a failure"),
});
const responses = {
  200: z.string().describe("OK: the ping was received"),
  404: z.string().describe("not found: no heartbeat has this token"),
  429: Problem,
};

/** The ping routes: one per signal, each for GET, HEAD (Fastify's, from GET) and POST. */
const ROUTES: { suffix: string; summary: string; signal: (code: string) => PingSignal }[] = [
  {
    suffix: "",
    summary: "A heartbeat's success ping",
    signal: () => ({ kind: "success" }),
  },
  {
    suffix: "/start",
    summary: "A heartbeat's job started (the next ping's duration runs from here)",
    signal: () => ({ kind: "start" }),
  },
  {
    suffix: "/fail",
    summary: "A heartbeat's failure ping (a body up to 10 KB is kept with the check)",
    signal: () => ({ kind: "fail" }),
  },
  {
    suffix: "/:code",
    summary: "A heartbeat's ping with the job's exit code (0 success, 1–255 failure)",
    signal: (code) => ({ kind: "exit", code: Number(code) }),
  },
];

/**
 * The heartbeats' ping URLs (docs/heartbeats.md): `/ping/<token>`, `/start`, `/fail`, `/<exit
 * code>`. Unauthenticated: the token is the secret. Rate limited per client address and per
 * token before the body is read; an unknown token gets the same plain `not found` as any unknown
 * path, and no answer says anything about the monitor. Answers are tiny plain text.
 */
export const pingRoutes =
  (
    deps: Pick<AppDeps, "heartbeats" | "metrics">,
    counter: RateLimitCounter,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    // Any body, as bytes: curl -d sends a form type, scripts send text or JSON.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: MAX_PING_REQUEST_BYTES },
      (_request, body, done) => done(null, body),
    );

    const { perTokenPerMinute, perAddressPerMinute } = deps.heartbeats.limits;
    async function limit(bucket: string, perMinute: number): Promise<void> {
      const { current, ttl } = await counter.increment(bucket, WINDOW_MS);
      if (current > perMinute) {
        deps.metrics.heartbeatPings.inc({ outcome: "rate_limited" });
        throw rateLimitedError(perMinute, ttl);
      }
    }
    // Before the body is read: a flood costs a counter, not a read.
    app.addHook("onRequest", async (request) => {
      await limit(`ping:ip:${addressBucket(request.ip)}`, perAddressPerMinute);
      const token = (request.params as { token?: unknown } | undefined)?.token;
      if (typeof token === "string")
        await limit(`ping:token:${hashPingToken(token)}`, perTokenPerMinute);
    });

    async function answer(
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
      signal: PingSignal,
    ) {
      const bytes = Buffer.isBuffer(request.body) ? request.body : undefined;
      const kept = bytes && bytes.length > 0 ? utf8Prefix(bytes, MAX_PING_BODY_BYTES) : undefined;
      const outcome = await receivePing(deps.heartbeats.pings, {
        token,
        signal,
        body: kept ? kept.toString("utf8") : null,
        bodyTruncated: kept !== undefined && bytes !== undefined && kept.length < bytes.length,
      });
      deps.metrics.heartbeatPings.inc({ outcome });
      reply.header("cache-control", "no-store").type("text/plain; charset=utf-8");
      if (outcome === "unknown") return reply.code(404).send("not found");
      return reply.code(200).send("OK");
    }

    for (const route of ROUTES) {
      const url = `/ping/:token${route.suffix}`;
      const params = route.suffix === "/:code" ? CodeParams : TokenParams;
      app.route({
        method: ["GET", "POST"],
        url,
        config: { secretPath: true, mediaType: "text/plain" },
        schema: { tags, summary: route.summary, params, response: responses },
        handler: async (request, reply) => {
          const { token, code } = request.params as { token: string; code?: string };
          return answer(request, reply, token, route.signal(code ?? ""));
        },
      });
    }
  };
