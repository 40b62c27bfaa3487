import rateLimit, { type RateLimitPluginOptions } from "@fastify/rate-limit";
import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import { DomainError } from "../../lib/errors.js";

/**
 * Where rate-limit counters live. `memory` keeps them in this process (one node); a shared store
 * (Redis, for several API nodes) plugs in here without touching routes.
 */
export type RateLimitStore =
  | { kind: "memory" }
  | { kind: "redis"; client: NonNullable<RateLimitPluginOptions["redis"]> };

/**
 * Registers the limiter in this scope without applying it anywhere by itself: routes opt in
 * with `config.rateLimit` (sign-in), scopes with `keyRateLimiter`.
 */
export async function useRateLimits(app: FastifyInstance, store: RateLimitStore): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    // After body parsing, so route limits can key on form fields (the sign-in email).
    hook: "preHandler",
    enableDraftSpec: true,
    ...(store.kind === "redis" ? { redis: store.client, nameSpace: "vigil-rl:" } : {}),
    errorResponseBuilder: (_request, context) =>
      new DomainError(
        "rate_limited",
        `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`,
      ),
  });
}

/**
 * The per-API-key limit (DESIGN §4) as a hook to run once the key is known: RateLimit-* headers
 * on every response, 429 with Retry-After beyond the limit. Requests whose key failed
 * authentication share one bucket per client address.
 */
export function keyRateLimiter(
  app: FastifyInstance,
  perMinute: number,
  /** Separate budgets (the read API, OTLP ingestion) count in separate buckets. */
  bucket: string,
): preHandlerAsyncHookHandler {
  return app.rateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) =>
      `${bucket}:${request.apiKey ? `key:${request.apiKey.keyId}` : `ip:${request.ip}`}`,
  });
}
