import type { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics, type Metrics } from "../src/lib/metrics.js";
import { RedisRateLimitCounter } from "../src/server/rate-limit-counter-redis.js";
import { closeRateLimitRedis, connectRateLimitRedis } from "../src/server/rate-limit-redis.js";
import { SKIP_REDIS, startThrowawayRedis, type ThrowawayRedis } from "./helpers/redis.js";

/** Log lines as objects, to check what an outage writes (and how often). */
function memoryLogger() {
  const lines: { level: number; msg: string; [field: string]: unknown }[] = [];
  const logger = pino(
    { level: "info" },
    { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) },
  );
  return { logger, lines };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(25);
  }
}

describe.skipIf(SKIP_REDIS)("rate-limit counter on Redis", () => {
  let redis: ThrowawayRedis;
  let metrics: Metrics;
  const log = memoryLogger();
  const clients: Redis[] = [];
  let now = Date.now();
  let counterA: RedisRateLimitCounter;
  let counterB: RedisRateLimitCounter;

  const connect = async () => {
    const client = await connectRateLimitRedis(redis.url, { logger: log.logger, metrics });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    metrics = createMetrics();
    // Two nodes: each its own client and counter over the one Redis.
    const deps = { logger: log.logger, metrics, now: () => now };
    counterA = new RedisRateLimitCounter(await connect(), deps);
    counterB = new RedisRateLimitCounter(await connect(), deps);
  });
  afterAll(async () => {
    for (const client of clients) await closeRateLimitRedis(client);
    await redis?.stop();
  });

  const metric = async (name: string) =>
    (await metrics.registry.getSingleMetric(name)?.get())?.values.reduce((n, v) => n + v.value, 0);

  it("shares one window between counters on different clients, with the window's ttl", async () => {
    const first = await counterA.increment("shared", 60_000);
    expect(first).toEqual({ current: 1, ttl: 60_000 });
    const second = await counterB.increment("shared", 60_000);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(58_000);
    expect(second.ttl).toBeLessThanOrEqual(60_000);
    expect((await counterA.increment("shared", 60_000)).current).toBe(3);
    // Namespaced, with the window as the key's expiry.
    const client = clients[0] as Redis;
    expect(await client.get("vigil:rl:shared")).toBe("3");
    expect(await client.pttl("vigil:rl:shared")).toBeGreaterThan(58_000);
    expect(await metric("vigil_rate_limit_local_counts_total")).toBe(0);
  });

  it("starts a new window once the last one expires", async () => {
    expect((await counterA.increment("short", 300)).current).toBe(1);
    expect((await counterB.increment("short", 300)).current).toBe(2);
    await sleep(350);
    const fresh = await counterB.increment("short", 300);
    expect(fresh.current).toBe(1);
    expect(fresh.ttl).toBeGreaterThan(200);
  });

  it("reads and refunds a shared window without starting or extending one", async () => {
    expect(await counterA.peek("refund")).toBeUndefined();
    await counterA.increment("refund", 60_000);
    await counterB.increment("refund", 60_000);
    const read = await counterB.peek("refund");
    expect(read?.current).toBe(2);
    expect(read?.ttl).toBeGreaterThan(58_000);
    await counterB.decrement("refund");
    expect((await counterA.peek("refund"))?.current).toBe(1);
    await counterA.decrement("refund");
    await counterA.decrement("refund");
    expect((await counterA.peek("refund"))?.current).toBe(0);
    // The refund kept the window's expiry; one for a missing key creates nothing.
    expect(await (clients[0] as Redis).pttl("vigil:rl:refund")).toBeGreaterThan(58_000);
    await counterA.decrement("never-counted");
    expect(await (clients[0] as Redis).exists("vigil:rl:never-counted")).toBe(0);
    expect((await counterB.increment("refund", 60_000)).current).toBe(1);
    expect(await metric("vigil_rate_limit_local_counts_total")).toBe(0);
  });

  it("counts concurrent hits from two nodes exactly once each", async () => {
    const hits = Array.from({ length: 400 }, (_, i) =>
      (i % 2 ? counterA : counterB).increment("burst", 60_000),
    );
    const counts = (await Promise.all(hits)).map((w) => w.current).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(await (clients[0] as Redis).pttl("vigil:rl:burst")).toBeGreaterThan(0);
  });

  it("gives a key left without an expiry one, so it cannot block forever", async () => {
    await (clients[0] as Redis).set("vigil:rl:stuck", "7");
    expect(await counterA.increment("stuck", 5_000)).toEqual({ current: 8, ttl: 5_000 });
    expect(await (clients[0] as Redis).pttl("vigil:rl:stuck")).toBeGreaterThan(4_000);
  });

  it("answers from a local count at once while Redis is hung, and logs it once", async () => {
    const logged = log.lines.length;
    redis.pause();
    try {
      const started = performance.now();
      const hung = await counterA.increment("hung", 60_000);
      // The client's command timeout (500 ms), not the hung server, decides.
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(hung).toEqual({ current: 1, ttl: 60_000 });
      // Paused after the failure: the next hits do not wait at all.
      const quick = performance.now();
      for (let i = 2; i <= 5; i++)
        expect((await counterA.increment("hung", 60_000)).current).toBe(i);
      expect(performance.now() - quick).toBeLessThan(100);
    } finally {
      redis.resume();
    }
    const outage = log.lines.slice(logged).filter((l) => l.msg.includes("rate-limit store"));
    expect(outage.map((l) => l.msg)).toEqual([
      "Redis rate-limit store unavailable: counting rate limits in this node's memory until it answers (fail open)",
    ]);
    expect(await metric("vigil_rate_limit_store_errors_total")).toBeGreaterThanOrEqual(1);
    expect(await metric("vigil_rate_limit_local_counts_total")).toBe(5);
  });

  it("counts locally while Redis is down, logs at most every 30 s, and resumes after a restart", async () => {
    // Past the pause a failure sets, so the counter asks Redis again.
    now += 2_000;
    const logged = log.lines.length;
    await redis.kill();
    await until(() => clients.every((c) => c.status !== "ready"));
    const started = performance.now();
    for (let i = 1; i <= 50; i++) {
      expect((await counterB.increment("down", 60_000)).current).toBe(i);
      now += 1_000;
    }
    expect(performance.now() - started).toBeLessThan(200);
    const lines = log.lines.slice(logged).filter((l) => l.msg.includes("rate-limit store"));
    // One when B's outage starts, one 30 s (of the fake clock) later; none per request.
    expect(lines.map((l) => l.msg)).toEqual([
      "Redis rate-limit store unavailable: counting rate limits in this node's memory until it answers (fail open)",
      "Redis rate-limit store still unavailable: rate limits hold per node only",
    ]);
    expect(lines[1]).toMatchObject({ localCounts: 31 });

    await redis.restart();
    await until(() => clients.every((c) => c.status === "ready"));
    now += 2_000;
    expect((await counterA.increment("after", 60_000)).current).toBe(1);
    expect((await counterB.increment("after", 60_000)).current).toBe(2);
    expect(log.lines.some((l) => l.msg.includes("answers again"))).toBe(true);
    // The client's reconnect errors were logged too, but not once per attempt.
    const connectionLines = log.lines.filter((l) => l.msg.includes("connection error"));
    expect(connectionLines.length).toBeLessThanOrEqual(2);
  });
});
