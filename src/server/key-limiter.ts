import { RateLimitedError } from "../lib/domain-errors.js";
import {
  type CounterWindow,
  MemoryRateLimitCounter,
  type RateLimitCounter,
} from "./rate-limit-counter.js";

const WINDOW_MS = 60_000;

/** The bucket a request counts in: its API key once known, else its client address. */
export const limitBucket = (bucket: string, keyId: string | undefined, address: string): string =>
  `${bucket}:${keyId ? `key:${keyId}` : `ip:${address}`}`;

/**
 * A per-minute fixed-window limit that several transports share, so an API key has one OTLP
 * budget whether it sends over HTTP or gRPC: both count in this limiter's counter (the HTTP
 * routes through @fastify/rate-limit's store, gRPC through take), in memory or in Redis.
 */
export class KeyLimiter {
  constructor(
    readonly perMinute: number,
    readonly counter: RateLimitCounter = new MemoryRateLimitCounter(),
  ) {}

  /** Counts one request in the bucket: how many it has seen this window, and ms until it resets. */
  count(bucket: string): Promise<CounterWindow> {
    return this.counter.increment(bucket, WINDOW_MS);
  }

  /** Counts one request; rejects with rate_limited (with when to retry) beyond the budget. */
  async take(bucket: string): Promise<void> {
    const { current, ttl } = await this.count(bucket);
    if (current > this.perMinute) throw rateLimitedError(this.perMinute, ttl);
  }
}

/** The rate_limited error both transports raise, saying the limit and when to retry. */
export function rateLimitedError(perMinute: number, ttlMs: number): RateLimitedError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new RateLimitedError(
    `Rate limit of ${perMinute} requests per minute exceeded; retry in ${seconds} s`,
    seconds,
  );
}
