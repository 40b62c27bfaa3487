import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { z } from "zod";
import type { Metrics } from "../lib/metrics.js";
import {
  type CounterWindow,
  MemoryRateLimitCounter,
  type RateLimitCounter,
} from "./rate-limit-counter.js";

/**
 * INCR and the window's expiry in one atomic step: the first hit starts the window, later hits
 * only read what is left of it. A key somehow left without an expiry gets one, so no counter
 * can block a key forever.
 */
const INCREMENT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;
/** A refund: one hit less in a window that still exists, never below zero or into a new key. */
const DECREMENT_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  redis.call('DECR', KEYS[1])
end
return 0
`;

/** The window as it is, without a hit: false (nil) when there is none. */
const PEEK_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then
  return false
end
return {tonumber(current), redis.call('PTTL', KEYS[1])}
`;

interface Script {
  text: string;
  sha: string;
}
const script = (text: string): Script => ({
  text,
  sha: createHash("sha1").update(text).digest("hex"),
});
const INCREMENT = script(INCREMENT_SCRIPT);
const DECREMENT = script(DECREMENT_SCRIPT);
const PEEK = script(PEEK_SCRIPT);

/** What the script answers, checked: a misbehaving server must not become a NaN limit. */
const ScriptReply = z.tuple([z.number().int().min(1), z.number().int().min(0)]);
/** A window read back (a refunded one may hold 0 hits; a key without expiry reads as ending now). */
const PeekReply = z.union([
  z.null(),
  z.tuple([
    z.number().int().min(0),
    z
      .number()
      .int()
      .transform((ttl) => Math.max(0, ttl)),
  ]),
]);

/** What `shared` answers when Redis cannot be asked: the caller counts in memory instead. */
const LOCAL = Symbol("local");

/** After a failed or timed-out call, Redis is left alone this long (counting locally meanwhile). */
const PAUSE_AFTER_FAILURE_MS = 1_000;
/** While Redis stays unavailable, the outage is logged again at most this often. */
const LOG_EVERY_MS = 30_000;

export interface RedisCounterDeps {
  logger: Pick<Logger, "warn" | "info">;
  metrics: Pick<Metrics, "rateLimitStoreErrors" | "rateLimitLocalCounts">;
  /** Namespace of the counters' keys, so a shared Redis holds other data safely. */
  prefix?: string;
  now?: () => number;
}

/**
 * Fixed windows in Redis, shared by every node on it. It fails open: while Redis is down, slow or
 * not yet connected, hits are counted in this node's memory instead, so each node still enforces
 * the limit on its own (at most nodes × limit overall) and no request waits on Redis for longer
 * than the client's command timeout (docs/operations.md, "Several API nodes").
 */
export class RedisRateLimitCounter implements RateLimitCounter {
  private readonly local: MemoryRateLimitCounter;
  private readonly prefix: string;
  private readonly now: () => number;
  private pausedUntil = 0;
  private outage: { since: number; loggedAt: number; localCounts: number } | undefined;

  constructor(
    private readonly client: Redis,
    private readonly deps: RedisCounterDeps,
  ) {
    this.prefix = deps.prefix ?? "vigil:rl:";
    this.now = deps.now ?? Date.now;
    this.local = new MemoryRateLimitCounter(this.now);
  }

  async increment(key: string, windowMs: number): Promise<CounterWindow> {
    const shared = await this.shared(async () => {
      const [current, ttl] = ScriptReply.parse(await this.run(INCREMENT, key, windowMs));
      return { current, ttl };
    });
    if (shared !== LOCAL) return shared;
    this.deps.metrics.rateLimitLocalCounts.inc();
    return this.local.count(key, windowMs);
  }

  async decrement(key: string): Promise<void> {
    if ((await this.shared(() => this.run(DECREMENT, key))) === LOCAL) this.local.uncount(key);
  }

  async peek(key: string): Promise<CounterWindow | undefined> {
    const shared = await this.shared(async () => {
      const reply = PeekReply.parse(await this.run(PEEK, key));
      return reply ? { current: reply[0], ttl: reply[1] } : undefined;
    });
    // While Redis is unavailable, what this node counted meanwhile is all there is to read.
    return shared === LOCAL ? this.local.read(key) : shared;
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  /**
   * One call to Redis, or LOCAL when it is not connected, fails or times out (the caller then
   * uses this node's memory).
   */
  private async shared<T>(call: () => Promise<T>): Promise<T | typeof LOCAL> {
    // Not connected: the client would refuse at once anyway (no offline queue); skip the error.
    if (this.client.status !== "ready" || this.now() < this.pausedUntil) {
      this.unavailable(`connection ${this.client.status}`);
      return LOCAL;
    }
    try {
      const result = await call();
      this.recovered();
      return result;
    } catch (error) {
      this.deps.metrics.rateLimitStoreErrors.inc({ kind: "command" });
      this.pausedUntil = this.now() + PAUSE_AFTER_FAILURE_MS;
      this.unavailable(error instanceof Error ? error.message : String(error));
      return LOCAL;
    }
  }

  /** EVALSHA, loading the script on the first call to a (re)started server. */
  private async run(script: Script, key: string, ...args: (string | number)[]): Promise<unknown> {
    try {
      return await this.client.evalsha(script.sha, 1, this.prefix + key, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
      return this.client.eval(script.text, 1, this.prefix + key, ...args);
    }
  }

  /** Logs the outage when it starts and then at most every LOG_EVERY_MS, never per request. */
  private unavailable(reason: string): void {
    const now = this.now();
    if (!this.outage) {
      this.outage = { since: now, loggedAt: now, localCounts: 1 };
      this.deps.logger.warn(
        { reason },
        "Redis rate-limit store unavailable: counting rate limits in this node's memory until it answers (fail open)",
      );
      return;
    }
    this.outage.localCounts += 1;
    if (now - this.outage.loggedAt < LOG_EVERY_MS) return;
    this.deps.logger.warn(
      {
        reason,
        outageMs: now - this.outage.since,
        localCounts: this.outage.localCounts,
      },
      "Redis rate-limit store still unavailable: rate limits hold per node only",
    );
    this.outage.loggedAt = now;
  }

  private recovered(): void {
    if (!this.outage) return;
    const { since, localCounts } = this.outage;
    this.outage = undefined;
    this.deps.logger.info(
      { outageMs: this.now() - since, localCounts },
      "Redis rate-limit store answers again: rate limits count across nodes",
    );
  }
}
