import rateLimit, { type RateLimitPluginOptions } from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import { DomainError } from "../../lib/errors.js";

/**
 * Where rate-limit counters live. `memory` keeps them in this process (one node); a shared store
 * (Redis, for several API nodes) plugs in here without touching routes.
 */
export type RateLimitStore =
  | { kind: "memory" }
  | { kind: "redis"; client: NonNullable<RateLimitPluginOptions["redis"]> };

async function registerRateLimit(
  app: FastifyInstance,
  store: RateLimitStore,
  options: RateLimitPluginOptions,
): Promise<void> {
  await app.register(rateLimit, {
    // After authentication and body parsing, so keys and form fields can be part of the limit key.
    hook: "preHandler",
    enableDraftSpec: true,
    ...(store.kind === "redis" ? { redis: store.client, nameSpace: "vigil-rl:" } : {}),
    errorResponseBuilder: (_request, context) =>
      new DomainError(
        "rate_limited",
        `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`,
      ),
    ...options,
  });
}

/**
 * Limits every route of this scope per API key (the scope must authenticate keys first), with
 * RateLimit-* headers on every response and Retry-After on 429.
 */
export function useKeyRateLimit(
  app: FastifyInstance,
  options: { perMinute: number; store: RateLimitStore },
): Promise<void> {
  return registerRateLimit(app, options.store, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => request.apiKey?.keyId ?? `ip:${request.ip}`,
  });
}

/** Makes `config.rateLimit` on individual routes of this scope take effect (e.g. sign-in). */
export function useRouteRateLimits(app: FastifyInstance, store: RateLimitStore): Promise<void> {
  return registerRateLimit(app, store, { global: false });
}
