import { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Metrics } from "../lib/metrics.js";

/**
 * Client settings for rate limiting, where an answer late is worth nothing: each request asks
 * Redis once, and the counter counts locally instead when it cannot (fail open).
 */
const CLIENT_OPTIONS = {
  lazyConnect: true,
  connectTimeout: 1_000,
  // A counter is one round trip (well under 1 ms on a LAN); past this, count locally.
  commandTimeout: 500,
  // A server that stops answering (hung, partitioned) is dropped and reconnected.
  socketTimeout: 2_000,
  keepAlive: 10_000,
  // No offline queue: while disconnected a command fails at once instead of waiting in a queue
  // for the reconnect, so requests never wait on an outage.
  enableOfflineQueue: false,
  // A command cut by a dropped connection is not replayed: it may have counted already.
  maxRetriesPerRequest: 0,
  // Keeps reconnecting in the background, backing off to one attempt every 2 s.
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
  // Concurrent requests' counters share round trips.
  enableAutoPipelining: true,
  connectionName: "vigil-rate-limits",
} as const;

/** Connection errors are logged at most this often while they repeat (each reconnect fails). */
const LOG_EVERY_MS = 30_000;

/** The URL without credentials, safe for logs: scheme, host, port and database. */
export function describeRedisUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
}

/**
 * Connects the Redis client that holds the rate-limit counters of all API nodes. An unreachable
 * Redis does not stop the start: the client keeps reconnecting, and until it is connected the
 * limits count per node.
 */
export async function connectRateLimitRedis(
  url: string,
  deps: { logger: Logger; metrics: Pick<Metrics, "rateLimitStoreErrors"> },
): Promise<Redis> {
  const where = describeRedisUrl(url);
  const client = new Redis(url, CLIENT_OPTIONS);
  let loggedAt = Number.NEGATIVE_INFINITY;
  let failing = false;
  // Also keeps ioredis from printing "Unhandled error event" for every failed reconnect.
  client.on("error", (error: Error) => {
    deps.metrics.rateLimitStoreErrors.inc({ kind: "connection" });
    failing = true;
    if (Date.now() - loggedAt < LOG_EVERY_MS) return;
    loggedAt = Date.now();
    deps.logger.warn({ redis: where, err: error.message }, "Redis (rate limits) connection error");
  });
  client.on("ready", () => {
    if (!failing) return;
    failing = false;
    loggedAt = Number.NEGATIVE_INFINITY;
    deps.logger.info({ redis: where }, "Redis (rate limits) connected again");
  });
  try {
    await client.connect();
    deps.logger.info({ redis: where }, "Rate limits count in Redis, shared by every API node");
  } catch {
    deps.logger.warn(
      { redis: where },
      "Redis (rate limits) not reachable at start: limits count per node until it is",
    );
  }
  return client;
}

/** Quits politely when connected; otherwise (or if QUIT gets no answer) drops the connection. */
export async function closeRateLimitRedis(client: Redis): Promise<void> {
  if (client.status === "ready") {
    try {
      await client.quit();
      return;
    } catch {
      // Falls through to disconnect.
    }
  }
  client.disconnect();
}
