import { randomBytes } from "node:crypto";
import { Client, credentials, Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { freePort } from "./helpers/free-port.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { addKey } from "./helpers/projects.js";
import { SKIP_REDIS, startThrowawayRedis, type ThrowawayRedis } from "./helpers/redis.js";
import { type ServeProcess, startServeProcess } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

const postgresBin = findPostgresBin();
const INGEST_PER_MINUTE = 6;
const TRACE_EXPORT = "/opentelemetry.proto.collector.trace.v1.TraceService/Export";

// CI installs Debian's postgresql (see .ci/run): there a missing binary is a failure, not a skip.
if (!postgresBin && process.env.CI && !SKIP_REDIS) {
  describe("rate limits across API nodes", () => {
    it("needs initdb and postgres (apt-get install postgresql)", () => {
      throw new Error("PostgreSQL binaries not found on PATH or under /usr/lib/postgresql");
    });
  });
}

/**
 * Two API nodes behind one Redis and one PostgreSQL: node A in this process, node B a real
 * `vigil serve` process with its own data dir. They know the same keys and users through the
 * metadata store, and every limit must hold across both.
 */
describe.skipIf(SKIP_REDIS || !postgresBin)("rate limits across API nodes", () => {
  const dirA = makeTempDir();
  const dirB = makeTempDir();
  let redis: ThrowawayRedis;
  let postgres: ThrowawayPostgres;
  let nodeA: TestService;
  let nodeB: ServeProcess;
  let grpcA: string;
  let grpcB: string;
  let projectId: string;
  const clients: Client[] = [];
  const owner = { email: "owner@example.com", password: "correct horse battery" };

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    postgres = await startThrowawayPostgres(postgresBin ?? "");
    const env = {
      VIGIL_META_URL: postgres.url,
      VIGIL_SECRET_KEY: randomBytes(32).toString("base64"),
      VIGIL_REDIS_URL: redis.url,
      VIGIL_INGEST_RATE_LIMIT_PER_MINUTE: String(INGEST_PER_MINUTE),
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_WEBHOOKS_ENABLED: "false",
    };
    nodeA = await startTestService(dirA.path, env);
    grpcA = (nodeA.grpcUrl ?? "").replace(/^http:\/\//, "");
    ({ projectId } = await initialize({ ctx: systemCtx(nodeA.deps.domain), input: owner }));
    const port = await freePort();
    // The later --grpc-port wins over the helper's `--grpc-port 0`: node B's port must be known.
    nodeB = await startServeProcess(["--data-dir", dirB.path, "--grpc-port", String(port)], {
      ...env,
      VIGIL_LOG_LEVEL: "info",
    });
    grpcB = `127.0.0.1:${port}`;
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await nodeB?.stop();
    await nodeA?.stop();
    await postgres?.stop();
    await redis?.stop();
    dirA.remove();
    dirB.remove();
  });

  const nodes = () => [nodeA.url, nodeB.url] as const;
  const newKey = (role: "full" | "ingest") => addKey(nodeA, projectId, { role });

  /** GET with the key; the body is read so the connection is reused. */
  async function whoami(base: string, key: string) {
    const started = performance.now();
    const response = await fetch(`${base}/v1/whoami`, { headers: { "x-api-key": key } });
    await response.text();
    return { response, ms: performance.now() - started };
  }

  const otlpHttp = async (base: string, key: string) => {
    const response = await fetch(`${base}/v1/traces`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: "{}",
    });
    await response.text();
    return response.status;
  };

  /** One empty trace Export over gRPC; resolves with the status code (0 = OK). */
  function otlpGrpc(address: string, key: string): Promise<number> {
    const client = new Client(address, credentials.createInsecure());
    clients.push(client);
    const metadata = new Metadata();
    metadata.set("x-api-key", key);
    return new Promise((resolve) => {
      client.makeUnaryRequest(
        TRACE_EXPORT,
        (bytes: Buffer) => bytes,
        (bytes: Buffer) => bytes,
        Buffer.alloc(0),
        metadata,
        { deadline: Date.now() + 10_000 },
        (error: ServiceError | null) => resolve(error ? error.code : status.OK),
      );
    });
  }

  it("shares the 100/min /v1 key limit: Remaining counts down across both, the 101st is 429", async () => {
    const key = await newKey("full");
    for (let i = 1; i <= 100; i++) {
      const { response } = await whoami(nodes()[i % 2] as string, key);
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("100");
      expect(response.headers.get("ratelimit-remaining")).toBe(String(100 - i));
    }
    for (const base of nodes()) {
      const { response } = await whoami(base, key);
      expect(response.status).toBe(429);
      expect(response.headers.get("ratelimit-remaining")).toBe("0");
      const retryAfter = Number(response.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
  });

  it("shares the sign-in limits (failures per email) across nodes", async () => {
    const attempt = async (base: string) => {
      const response = await fetch(`${base}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ email: "guess@example.com", password: "not the password" }),
      });
      await response.text();
      return response.status;
    };
    // 10 failures per email in all (VIGIL_AUTH_LOGIN_FAILURES_PER_ACCOUNT), not 10 per node.
    for (let i = 0; i < 10; i++) expect(await attempt(nodes()[i % 2] as string)).toBe(401);
    expect(await attempt(nodeA.url)).toBe(429);
    expect(await attempt(nodeB.url)).toBe(429);
  });

  it("counts a signed-in user's dashboard reads in one budget across nodes", async () => {
    const session = await signIn(nodeA, owner.email, owner.password);
    const read = async (base: string) => {
      const response = await fetch(`${base}/api/projects/${projectId}/v1/incidents`, {
        headers: { cookie: session.cookie },
      });
      await response.text();
      expect(response.status).toBe(200);
      return response.headers.get("ratelimit-remaining");
    };
    expect(await read(nodeA.url)).toBe("1199");
    expect(await read(nodeB.url)).toBe("1198");
    expect(await read(nodeA.url)).toBe("1197");
  });

  it("spends one OTLP budget per key over HTTP and gRPC on both nodes", async () => {
    const key = await newKey("ingest");
    expect(await otlpHttp(nodeA.url, key)).toBe(200);
    expect(await otlpGrpc(grpcA, key)).toBe(status.OK);
    expect(await otlpHttp(nodeB.url, key)).toBe(200);
    expect(await otlpGrpc(grpcB, key)).toBe(status.OK);
    expect(await otlpHttp(nodeA.url, key)).toBe(200);
    expect(await otlpGrpc(grpcB, key)).toBe(status.OK);
    // The seventh, whichever node and transport, is over the budget.
    expect(await otlpHttp(nodeB.url, key)).toBe(429);
    expect(await otlpGrpc(grpcA, key)).toBe(status.RESOURCE_EXHAUSTED);
    expect(await otlpHttp(nodeA.url, key)).toBe(429);
    expect(await otlpGrpc(grpcB, key)).toBe(status.RESOURCE_EXHAUSTED);
  });

  it("fails open while Redis is down (no hang, no 500, readyz degraded), then shares counts again", async () => {
    const key = await newKey("full");
    const ingestKey = await newKey("ingest");
    await redis.kill();

    for (const base of nodes()) {
      for (let i = 1; i <= 3; i++) {
        const { response, ms } = await whoami(base, key);
        expect(response.status).toBe(200);
        expect(ms).toBeLessThan(2_000);
        // Counted in each node's memory meanwhile: the limit holds per node.
        expect(response.headers.get("ratelimit-remaining")).toBe(String(100 - i));
      }
      expect(await otlpHttp(base, ingestKey)).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({
        status: "ready",
        checks: { redis: { ok: false, degraded: true } },
      });
    }
    expect(await otlpGrpc(grpcA, ingestKey)).toBe(status.OK);
    expect(await otlpGrpc(grpcB, ingestKey)).toBe(status.OK);
    const metrics = await (await fetch(`${nodeA.url}/metrics`)).text();
    expect(metrics).toMatch(/^vigil_rate_limit_local_counts_total [1-9]\d*$/m);
    // Logged when the outage starts, not per request (one counter for ingest, one for the rest).
    const outageLines = nodeA.logs.filter((line) => line.includes("rate-limit store unavailable"));
    expect(outageLines.length).toBeGreaterThan(0);
    expect(outageLines.length).toBeLessThanOrEqual(2);

    await redis.restart();
    const deadline = Date.now() + 15_000;
    for (const base of nodes()) {
      for (;;) {
        const ready = (await (await fetch(`${base}/readyz`)).json()) as {
          checks: { redis?: { ok: boolean } };
        };
        if (ready.checks.redis?.ok) break;
        if (Date.now() > deadline) throw new Error(`${base} did not reconnect to Redis`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    // A command that failed as Redis died leaves Redis alone for 1 s; let that pass.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const fresh = await newKey("full");
    const remaining = [];
    for (const base of [nodeA.url, nodeB.url, nodeA.url]) {
      const { response } = await whoami(base, fresh);
      remaining.push(response.headers.get("ratelimit-remaining"));
    }
    expect(remaining).toEqual(["99", "98", "97"]);
    expect(nodeB.stderr()).toContain("rate-limit store answers again");
  });
});
