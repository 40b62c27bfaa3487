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
const INCREMENT_SHA = createHash("sha1").update(INCREMENT_SCRIPT).digest("hex");

/** What the script answers, checked: a misbehaving server must not become a NaN limit. */
const ScriptReply = z.tuple([z.number().int().min(1), z.number().int().min(0)]);

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
    // Not connected: the client would refuse at once anyway (no offline queue); skip the error.
    if (this.client.status === "ready" && this.now() >= this.pausedUntil) {
      try {
        const [current, ttl] = ScriptReply.parse(await this.run(this.prefix + key, windowMs));
        this.recovered();
        return { current, ttl };
      } catch (error) {
        this.deps.metrics.rateLimitStoreErrors.inc({ kind: "command" });
        this.pausedUntil = this.now() + PAUSE_AFTER_FAILURE_MS;
        this.unavailable(error instanceof Error ? error.message : String(error));
      }
    } else {
      this.unavailable(`connection ${this.client.status}`);
    }
    this.deps.metrics.rateLimitLocalCounts.inc();
    return this.local.count(key, windowMs);
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  /** EVALSHA, loading the script on the first call to a (re)started server. */
  private async run(key: string, windowMs: number): Promise<unknown> {
    try {
      return await this.client.evalsha(INCREMENT_SHA, 1, key, windowMs);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
      return this.client.eval(INCREMENT_SCRIPT, 1, key, windowMs);
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
