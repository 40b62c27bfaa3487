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

export interface KeyRateLimitOptions {
  perMinute: number;
  store: RateLimitStore;
}

/**
 * Limits every route of this scope per API key (the scope must authenticate keys first), with
 * RateLimit-* headers on every response and Retry-After on 429.
 */
export async function useKeyRateLimit(
  app: FastifyInstance,
  options: KeyRateLimitOptions,
): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    hook: "preHandler",
    enableDraftSpec: true,
    keyGenerator: (request) => request.apiKey?.keyId ?? `ip:${request.ip}`,
    ...(options.store.kind === "redis"
      ? { redis: options.store.client, nameSpace: "vigil-rl:" }
      : {}),
    errorResponseBuilder: (_request, context) =>
      new DomainError(
        "rate_limited",
        `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`,
      ),
  });
}
