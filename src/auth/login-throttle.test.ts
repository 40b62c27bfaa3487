import { describe, expect, it } from "vitest";
import { MemoryRateLimitCounter } from "../server/rate-limit-counter.js";
import { type LoginLimits, type LoginRefusal, LoginThrottle } from "./login-throttle.js";

const LIMITS: LoginLimits = {
  failuresPerAddress: 5,
  addressWindowMinutes: 5,
  failuresPerAccount: 3,
  accountWindowMinutes: 15,
  knownAddressDays: 30,
};

function throttle(limits: LoginLimits = LIMITS, secret?: Buffer) {
  const clock = { now: 1_000_000 };
  const counter = new MemoryRateLimitCounter(() => clock.now);
  const keys: string[] = [];
  const refusals: LoginRefusal[] = [];
  const recording = {
    increment: (key: string, windowMs: number) => {
      keys.push(key);
      return counter.increment(key, windowMs);
    },
    decrement: (key: string) => counter.decrement(key),
    peek: (key: string) => counter.peek(key),
  };
  const limiter = new LoginThrottle(recording, limits, (reason) => refusals.push(reason), secret);
  /** One attempt that fails (its charges stand); the error when it was refused instead. */
  const fail = async (address: string, email: string) => {
    try {
      await limiter.admit(address, email);
      return undefined;
    } catch (error) {
      return error;
    }
  };
  return { clock, limiter, keys, refusals, fail };
}

describe("LoginThrottle", () => {
  it("refuses an address past its failures whatever the emails, until its window ends", async () => {
    const { clock, refusals, fail } = throttle();
    for (let i = 0; i < 5; i++)
      expect(await fail("203.0.113.7", `user${i}@example.com`)).toBeUndefined();
    clock.now += 60_000;
    const refused = await fail("203.0.113.7", "another@example.com");
    expect(refused).toMatchObject({ code: "rate_limited", retryAfterSeconds: 240 });
    expect(refusals).toEqual(["address"]);
    // Another address is not held back.
    expect(await fail("203.0.113.8", "another@example.com")).toBeUndefined();
    clock.now += 240_000;
    expect(await fail("203.0.113.7", "another@example.com")).toBeUndefined();
  });

  it("does not count successful or undecided sign-ins as failures", async () => {
    const { limiter, fail } = throttle();
    for (let i = 0; i < 20; i++) {
      const attempt = await limiter.admit("203.0.113.7", `user${i % 2}@example.com`);
      await (i % 2 ? attempt.succeeded() : attempt.abandoned());
    }
    for (let i = 0; i < 3; i++)
      expect(await fail("203.0.113.7", "user0@example.com")).toBeUndefined();
  });

  it("refuses an email past its failures from new addresses, but not from one it signed in from", async () => {
    const { clock, limiter, refusals, fail } = throttle();
    const email = "owner@example.com";
    await (await limiter.admit("198.51.100.1", email)).succeeded();
    for (let i = 0; i < 3; i++) expect(await fail(`203.0.113.${i}`, email)).toBeUndefined();
    const refused = await fail("203.0.113.50", email);
    expect(refused).toMatchObject({ code: "rate_limited", retryAfterSeconds: 900 });
    expect(refusals).toEqual(["account"]);
    // The owner's usual address still gets its password checked, and signs in.
    const known = await limiter.admit("198.51.100.1", email);
    await known.succeeded();
    // Other emails are not held back by this one's failures.
    expect(await fail("203.0.113.50", "someone@example.com")).toBeUndefined();
    clock.now += 900_000;
    expect(await fail("203.0.113.50", email)).toBeUndefined();
  });

  it("forgets a known address after knownAddressDays", async () => {
    const { clock, limiter, fail } = throttle({ ...LIMITS, knownAddressDays: 1 });
    const email = "owner@example.com";
    await (await limiter.admit("198.51.100.1", email)).succeeded();
    clock.now += 86_400_000;
    for (let i = 0; i < 3; i++) await fail(`203.0.113.${i}`, email);
    expect(await fail("198.51.100.1", email)).toMatchObject({ code: "rate_limited" });
  });

  it("limits attempts per address and email to 20 a minute, successful ones included", async () => {
    const { limiter, refusals } = throttle({ ...LIMITS, failuresPerAddress: 100 });
    for (let i = 0; i < 20; i++)
      await (await limiter.admit("203.0.113.7", "owner@example.com")).succeeded();
    await expect(limiter.admit("203.0.113.7", "owner@example.com")).rejects.toMatchObject({
      code: "rate_limited",
      retryAfterSeconds: 60,
    });
    expect(refusals).toEqual(["address_account"]);
  });

  it("keys its counters by digests, never by an email or an address", async () => {
    const { limiter, keys } = throttle();
    await (await limiter.admit("203.0.113.7", "owner@example.com")).succeeded();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatch(/^login:(address|pair|account|known):[0-9a-f]{32}$/);
      expect(key).not.toContain("203.0.113.7");
      expect(key).not.toContain("owner");
    }
  });

  it("keys its digests with the server's secret when given: a dump cannot be hashed back", async () => {
    const keysWith = async (secret?: Buffer) => {
      const { limiter, keys } = throttle(LIMITS, secret);
      await (await limiter.admit("203.0.113.7", "owner@example.com")).succeeded();
      return keys;
    };
    const plain = await keysWith();
    const keyed = await keysWith(Buffer.alloc(32, 7));
    const other = await keysWith(Buffer.alloc(32, 8));
    expect(keyed).toHaveLength(plain.length);
    for (const [i, key] of keyed.entries()) {
      expect(key).toMatch(/^login:(address|pair|account|known):[0-9a-f]{32}$/);
      expect(key).not.toBe(plain[i]);
      expect(key).not.toBe(other[i]);
    }
  });

  it("counts an IPv6 client by its /64 (see addressBucket)", async () => {
    const { fail } = throttle();
    for (let i = 0; i < 5; i++) await fail(`2001:db8:1:2::${i + 1}`, `user${i}@example.com`);
    expect(await fail("2001:db8:1:2:ffff::9", "next@example.com")).toMatchObject({
      code: "rate_limited",
    });
    expect(await fail("2001:db8:1:3::1", "next@example.com")).toBeUndefined();
  });
});
