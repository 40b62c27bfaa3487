import { describe, expect, it } from "vitest";
import { KeyLimiter } from "./key-limiter.js";
import { MemoryRateLimitCounter } from "./rate-limit-counter.js";

describe("MemoryRateLimitCounter", () => {
  it("counts hits in a fixed window that starts at the first hit, then starts over", async () => {
    let now = 1_000_000;
    const counter = new MemoryRateLimitCounter(() => now);
    expect(await counter.increment("a", 60_000)).toEqual({ current: 1, ttl: 60_000 });
    now += 15_000;
    expect(await counter.increment("a", 60_000)).toEqual({ current: 2, ttl: 45_000 });
    // Another key has its own window.
    expect(await counter.increment("b", 60_000)).toEqual({ current: 1, ttl: 60_000 });
    now += 45_000;
    expect(await counter.increment("a", 60_000)).toEqual({ current: 1, ttl: 60_000 });
  });

  it("keeps each key's own window length", async () => {
    let now = 0;
    const counter = new MemoryRateLimitCounter(() => now);
    await counter.increment("short", 1_000);
    await counter.increment("long", 60_000);
    now = 1_000;
    expect((await counter.increment("short", 1_000)).current).toBe(1);
    expect((await counter.increment("long", 60_000)).current).toBe(2);
  });

  it("reads a window without counting, and takes a hit back only from a live window", async () => {
    let now = 0;
    const counter = new MemoryRateLimitCounter(() => now);
    expect(await counter.peek("a")).toBeUndefined();
    await counter.increment("a", 60_000);
    await counter.increment("a", 60_000);
    now = 10_000;
    expect(await counter.peek("a")).toEqual({ current: 2, ttl: 50_000 });
    await counter.decrement("a");
    expect(await counter.peek("a")).toEqual({ current: 1, ttl: 50_000 });
    await counter.decrement("a");
    await counter.decrement("a");
    expect((await counter.peek("a"))?.current).toBe(0);
    // A refund for a window that ended, or never was, does not start one.
    now = 60_000;
    await counter.decrement("a");
    await counter.decrement("b");
    expect(await counter.peek("a")).toBeUndefined();
    expect(await counter.peek("b")).toBeUndefined();
    expect(await counter.increment("a", 60_000)).toEqual({ current: 1, ttl: 60_000 });
  });
});

describe("KeyLimiter", () => {
  it("lets perMinute requests through, then rejects with rate_limited and when to retry", async () => {
    let now = 0;
    const limiter = new KeyLimiter(2, new MemoryRateLimitCounter(() => now));
    await limiter.take("ingest:key:k");
    now = 20_500;
    await limiter.take("ingest:key:k");
    await expect(limiter.take("ingest:key:k")).rejects.toMatchObject({
      code: "rate_limited",
      retryAfterSeconds: 40,
    });
    now = 60_000;
    await expect(limiter.take("ingest:key:k")).resolves.toBeUndefined();
  });
});
