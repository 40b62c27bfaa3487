import rateLimit, {
  type FastifyRateLimitStoreCtor,
  type RateLimitPluginOptions,
} from "@fastify/rate-limit";
import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import { type KeyLimiter, limitBucket, rateLimitedError } from "../key-limiter.js";

/**
 * Where rate-limit counters live. `memory` keeps them in this process (one node); a shared store
 * (Redis, for several API nodes) plugs in here without touching routes.
 */
export type RateLimitStore =
  | { kind: "memory" }
  | { kind: "redis"; client: NonNullable<RateLimitPluginOptions["redis"]> };

/** The plugin's store over a shared limiter: every scope and route counts in that limiter. */
function sharedStore(limiter: KeyLimiter): FastifyRateLimitStoreCtor {
  return class {
    incr(
      key: string,
      callback: (error: Error | null, result: { current: number; ttl: number }) => void,
    ) {
      callback(null, limiter.count(key));
    }
    child() {
      return this;
    }
  };
}

/**
 * Registers the limiter in this scope without applying it anywhere by itself: routes opt in
 * with `config.rateLimit` (sign-in), scopes with `keyRateLimiter`. With `shared`, counts go to
 * that limiter (OTLP over HTTP and gRPC spend one budget).
 */
export async function useRateLimits(
  app: FastifyInstance,
  store: RateLimitStore,
  shared?: KeyLimiter,
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    // After body parsing, so route limits can key on form fields (the sign-in email).
    hook: "preHandler",
    enableDraftSpec: true,
    ...(shared
      ? { store: sharedStore(shared) }
      : store.kind === "redis"
        ? { redis: store.client, nameSpace: "vigil-rl:" }
        : {}),
    errorResponseBuilder: (_request, context) => rateLimitedError(context.max, context.ttl),
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
    keyGenerator: (request) => limitBucket(bucket, request.apiKey?.keyId, request.ip),
  });
}
