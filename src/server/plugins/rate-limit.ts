import rateLimit, { type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Metrics } from "../../lib/metrics.js";
import { limitBucket, rateLimitedError } from "../key-limiter.js";
import { MemoryRateLimitCounter, type RateLimitCounter } from "../rate-limit-counter.js";
import { RedisRateLimitCounter } from "../rate-limit-counter-redis.js";

/**
 * Where rate-limit counters live. `memory` keeps them in this process (one node); `redis` shares
 * them between every API node on that Redis, so each limit holds across the nodes.
 */
export type RateLimitStore = { kind: "memory" } | { kind: "redis"; client: Redis };

/** The counter over a store: every limit of the server counts through one of these. */
export function rateLimitCounterFor(
  store: RateLimitStore,
  deps: {
    logger: Logger;
    metrics: Pick<Metrics, "rateLimitStoreErrors" | "rateLimitLocalCounts">;
  },
): RateLimitCounter {
  return store.kind === "redis"
    ? new RedisRateLimitCounter(store.client, deps)
    : new MemoryRateLimitCounter();
}

/** A route-level limit's own key space (as the plugin's stores do), empty for app.rateLimit(). */
function routeScope(options: unknown): string {
  if (typeof options !== "object" || options === null || !("routeInfo" in options)) return "";
  const info = options.routeInfo;
  if (typeof info !== "object" || info === null) return "";
  const method = "method" in info && typeof info.method === "string" ? info.method : "";
  const url = "url" in info && typeof info.url === "string" ? info.url : "";
  return method || url ? `${method}${url}:` : "";
}

/**
 * The plugin's store over our counter rather than its built-in Redis store: one counter, so one
 * failure policy (fail open to a local count, logged and measured), one key namespace, and the
 * OTLP scope counts in the same counter as the gRPC receiver.
 */
function counterStore(counter: RateLimitCounter, scope = ""): FastifyRateLimitStoreCtor {
  return class {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      counter.increment(`${scope}${key}`, timeWindow).then(
        (window) => callback(null, window),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(options: unknown) {
      const Child = counterStore(counter, `${scope}${routeScope(options)}`);
      return new Child({});
    }
  };
}

/**
 * Registers the limiter in this scope without applying it anywhere by itself: routes opt in
 * with `config.rateLimit` (sign-in), scopes with `keyRateLimiter`. Every count goes to
 * `counter` (OTLP over HTTP and gRPC pass the same one, so they spend one budget).
 */
export async function useRateLimits(
  app: FastifyInstance,
  counter: RateLimitCounter,
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    // After body parsing, so route limits can key on form fields (the sign-in email).
    hook: "preHandler",
    enableDraftSpec: true,
    store: counterStore(counter),
    errorResponseBuilder: (_request, context) => rateLimitedError(context.max, context.ttl),
  });
}

/**
 * The per-API-key limit (docs/design.md §4) as a hook to run once the key is known: RateLimit-* headers
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
