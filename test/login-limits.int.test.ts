import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(2);
  }
}

/**
 * The sign-in policy over HTTP (docs/operations.md "Sign-in"). The service trusts
 * X-Forwarded-For, so each request names the client address it comes from.
 */
describe("sign-in limits and the password-hash bound", () => {
  const dir = makeTempDir();
  let service: TestService;
  let apiKey: string;

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_TRUST_PROXY: "true",
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_WEBHOOKS_ENABLED: "false",
    });
    apiKey = (await initialize({ ctx: systemCtx(service.deps.domain), input: OWNER })).apiKey ?? "";
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const signIn = (address: string, email: string, password: string) =>
    service.fetch("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify({ email, password }),
    });
  const refusals = async (reason: string) => {
    const metric = await service.deps.metrics.registry.getSingleMetric("vigil_auth_refused_total");
    return (await metric?.get())?.values.find((v) => v.labels.reason === reason)?.value;
  };

  it("meets failed sign-ins with rotating emails from one address with 429 and Retry-After well before 80", async () => {
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 80 && !limited; i++) {
      const response = await signIn("198.51.100.7", `guess${i}@example.com`, "not the password");
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else await response.text();
    }
    // 20 failures (VIGIL_AUTH_LOGIN_FAILURES_PER_ADDRESS), then the address waits out its window.
    expect(statuses).toEqual([...Array<number>(20).fill(401), 429]);
    if (!limited) throw new Error("never limited");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(((await limited.json()) as { code: string }).code).toBe("rate_limited");
    // Even the right password waits there; the owner elsewhere is not held back.
    expect((await signIn("198.51.100.7", OWNER.email, OWNER.password)).status).toBe(429);
    expect((await signIn("198.51.100.8", OWNER.email, OWNER.password)).status).toBe(200);
    expect(await refusals("address")).toBe(2);
  });

  it("stops one email guessed from many addresses, but not its owner on a known address", async () => {
    // The owner signs in from home: that address is now known for the account.
    expect((await signIn("192.0.2.10", OWNER.email, OWNER.password)).status).toBe(200);
    // Someone guesses from ten addresses (one each), under every per-address limit.
    for (let i = 0; i < 10; i++) {
      const response = await signIn(`203.0.113.${i}`, OWNER.email, `guess ${i}`);
      expect(response.status).toBe(401);
      await response.text();
    }
    const limited = await signIn("203.0.113.99", OWNER.email, "guess 99");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(900);
    // A new address waits even with the right password (so guessing it is pointless)...
    expect((await signIn("203.0.113.100", OWNER.email, OWNER.password)).status).toBe(429);
    // ...while the owner's known address still has its password checked, and signs in.
    const home = await signIn("192.0.2.10", OWNER.email, OWNER.password);
    expect(home.status).toBe(200);
    expect(home.headers.get("set-cookie")).toMatch(/^vigil_session=/);
    // Other accounts are not held back by this one's failures.
    expect((await signIn("203.0.113.99", "someone@example.com", "guess")).status).toBe(401);
    expect(await refusals("account")).toBe(2);
  });

  it("decompresses a gzip OTLP body at once while sign-ins saturate the password hashing", async () => {
    const { passwords } = service.deps.domain;
    const answered: number[] = [];
    // More sign-ins than the hash bound runs at once, each from its own address and email.
    const flood = Array.from({ length: 30 }, (_, i) =>
      signIn(`100.64.1.${i}`, `flood${i}@example.com`, "not the password").then(async (r) => {
        await r.text();
        answered.push(r.status);
        return r.status;
      }),
    );
    // Every sign-in of the flood is hashing or waiting for its turn.
    await until(() => passwords.running + passwords.queued >= 28);
    // 2 MB of OTLP/JSON (an empty export padded with spaces): 32 inflate steps of 64 KB, each a
    // task on libuv's thread pool, the pool scrypt runs on.
    const body = gzipSync(`{"resourceSpans":[]}${" ".repeat(2 * 1024 * 1024)}`);
    const before = answered.length;
    const started = performance.now();
    const response = await service.fetch("/v1/traces", {
      method: "POST",
      headers: {
        "x-api-key": apiKey,
        "content-type": "application/json",
        "content-encoding": "gzip",
        "x-forwarded-for": "100.64.2.1",
      },
      body,
    });
    const ms = performance.now() - started;
    const during = answered.length - before;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    // Had the inflate steps queued behind the sign-ins' hashes, most of the flood would have
    // been answered first; with hashing held to 2 of the pool's 4 threads, hardly any is.
    expect(
      during,
      `${during} sign-ins answered during the ${Math.round(ms)} ms request`,
    ).toBeLessThan(6);
    expect(await Promise.all(flood)).toEqual(Array<number>(30).fill(401));
  });

  it("refuses sign-ins beyond the hash bound's queue with 503 and Retry-After, not a longer queue", async () => {
    const { passwords } = service.deps.domain;
    const { maxConcurrent, maxQueued } = passwords.limits;
    const statuses: Promise<number>[] = [];
    const send = (i: number) =>
      signIn(`100.64.3.${i}`, `queue${i}@example.com`, "not the password").then(async (r) => {
        const retryAfter = r.headers.get("retry-after");
        await r.text();
        if (r.status === 503) expect(retryAfter).toBe("1");
        return r.status;
      });
    for (let i = 0; i < maxConcurrent + maxQueued; i++) statuses.push(send(i));
    await until(() => passwords.queued === maxQueued);
    // The queue is full: these are refused at once, not queued behind it.
    for (let i = 0; i < 3; i++) statuses.push(send(100 + i));
    const all = await Promise.all(statuses);
    expect(passwords.queued).toBe(0);
    expect(all.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
    expect(all.every((s) => s === 401 || s === 503)).toBe(true);
    expect(await refusals("hashing")).toBeGreaterThanOrEqual(1);
  });
});
