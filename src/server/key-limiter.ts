import { RateLimitedError } from "../lib/errors.js";

const WINDOW_MS = 60_000;
/** Counters kept at most; beyond, the oldest window is forgotten (as @fastify/rate-limit's LRU does). */
const MAX_KEYS = 10_000;

interface Window {
  count: number;
  startedAt: number;
}

/** The bucket a request counts in: its API key once known, else its client address. */
export const limitBucket = (bucket: string, keyId: string | undefined, address: string): string =>
  `${bucket}:${keyId ? `key:${keyId}` : `ip:${address}`}`;

/**
 * A per-minute fixed-window counter that several transports share, so an API key has one OTLP
 * budget whether it sends over HTTP or gRPC (@fastify/rate-limit's own stores are per route
 * scope and internal to it; the HTTP routes plug this one into that plugin instead).
 */
export class KeyLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(readonly perMinute: number) {}

  /** Counts one request in the bucket: how many it has seen this window, and ms until it resets. */
  count(bucket: string): { current: number; ttl: number } {
    const now = Date.now();
    let window = this.windows.get(bucket);
    if (!window || window.startedAt + WINDOW_MS <= now) {
      window = { count: 0, startedAt: now };
      // Re-inserted so Map order is oldest-window first, the one evicted below.
      this.windows.delete(bucket);
      this.windows.set(bucket, window);
      if (this.windows.size > MAX_KEYS) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
    }
    window.count += 1;
    return { current: window.count, ttl: window.startedAt + WINDOW_MS - now };
  }

  /** Counts one request; throws rate_limited (with when to retry) beyond the budget. */
  take(bucket: string): void {
    const { current, ttl } = this.count(bucket);
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
