import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

/** A TQL query that is allowed but never finishes by itself: it runs until the time limit. */
const ENDLESS =
  "SELECT count() AS n FROM traces a CROSS JOIN traces b CROSS JOIN traces c " +
  "WHERE cityHash64(a.duration_ms, b.duration_ms, c.duration_ms) % 1000 = 7";

const tql = (service: TestService, key: string, query: string) =>
  service.fetch("/v1/tql", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });

const ingestSpan = (service: TestService, key: string, name: string) =>
  service.fetch("/v1/traces", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(
      tracesBody("other-tenant", [
        {
          traceId: hexId(7, 32),
          spanId: hexId(7, 16),
          name,
          startMs: Date.now() - 1000,
          durationMs: 5,
        },
      ]),
    ),
  });

/** Two tenants on one service: A with enough rows for an endless self-join, B with its own key. */
async function twoTenants(env: Record<string, string>) {
  const dir = makeTempDir();
  const service = await startTestService(dir.path, env);
  const setup = await initialize({
    ctx: systemCtx(service.deps.domain),
    input: {
      email: "engine@example.com",
      password: "correct horse battery",
    },
  });
  const other = await addProjectWithKey(service, setup.orgId, "prj_tenant_b");
  // Recent rows: older ones would fall to the retention TTL at once.
  const now = new Date(Date.now() - 60_000).toISOString().replace("T", " ").replace("Z", "");
  await service.deps.telemetry.insert(
    "traces",
    Array.from({ length: 3000 }, (_, i) => ({
      project_id: setup.projectId,
      service_name: "busy",
      operation_name: "op",
      timestamp: now,
      span_id: hexId(i, 16),
      duration_ms: i,
    })),
  );
  return { dir, service, keyA: setup.apiKey ?? "", keyB: other.key };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("telemetry engine isolation between tenants", () => {
  let env: Awaited<ReturnType<typeof twoTenants>>;
  beforeAll(async () => {
    env = await twoTenants({ VIGIL_TELEMETRY_SESSIONS: "7", VIGIL_TQL_MAX_EXECUTION_SECONDS: "4" });
  });
  afterAll(async () => {
    await env.service.stop();
    env.dir.remove();
  });

  it("acknowledges another project's ingest within a second while long TQL queries run", async () => {
    const { service, keyA, keyB } = env;
    const longA = [tql(service, keyA, ENDLESS), tql(service, keyA, ENDLESS)];
    await sleep(500);

    // A third query of the same project is refused at once, and says when to come back.
    const third = await tql(service, keyA, "SELECT count() FROM traces");
    expect(third.status).toBe(429);
    expect(third.headers.get("content-type")).toContain("application/problem+json");
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await third.json()).toMatchObject({ code: "rate_limited" });

    const started = performance.now();
    const ingested = await ingestSpan(service, keyB, "tenant-b-span");
    const ackMs = performance.now() - started;
    expect(ingested.status).toBe(200);
    expect(ackMs).toBeLessThan(1000);

    // B's read API answers at once, with B's span.
    const readStarted = performance.now();
    const trace = await service.fetch(`/v1/traces/${hexId(7, 32)}`, {
      headers: { "x-api-key": keyB },
    });
    expect(trace.status).toBe(200);
    expect(((await trace.json()) as { spanCount: number }).spanCount).toBe(1);
    expect(performance.now() - readStarted).toBeLessThan(1000);

    // B's own TQL is not limited by A's nor queued behind A's queries, and sees B's span.
    const tqlStarted = performance.now();
    const readB = await tql(
      service,
      keyB,
      "SELECT count() AS n FROM traces WHERE operation_name = 'tenant-b-span'",
    );
    expect(readB.status).toBe(200);
    expect(((await readB.json()) as { rows: unknown[][] }).rows).toEqual([[1]]);
    expect(performance.now() - tqlStarted).toBeLessThan(2000);

    // Ingest is acknowledged in time, so the service stays ready.
    const ready = await service.fetch("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: "ready",
      checks: { telemetry: { ok: true, degraded: false } },
    });

    const answers = await Promise.all(longA);
    for (const answer of answers) {
      expect(answer.status).toBe(422);
      expect(await answer.json()).toMatchObject({ code: "query_timeout" });
    }
    // The slots are free again.
    expect((await tql(service, keyA, "SELECT count() AS n FROM traces")).status).toBe(200);
  }, 30_000);
});

describe("readiness when telemetry writes wait", () => {
  let env: Awaited<ReturnType<typeof twoTenants>>;
  beforeAll(async () => {
    // One session: everything in one queue, the way the engine ran before the pool.
    env = await twoTenants({
      VIGIL_TELEMETRY_SESSIONS: "1",
      VIGIL_TQL_MAX_EXECUTION_SECONDS: "3",
      VIGIL_TELEMETRY_MAX_WRITE_WAIT_MS: "300",
    });
  });
  afterAll(async () => {
    await env.service.stop();
    env.dir.remove();
  });

  it("answers 503 with the degraded check and its waits while ingest is held up", async () => {
    const { service, keyA, keyB } = env;
    const long = tql(service, keyA, ENDLESS);
    await sleep(300);
    const ingested = ingestSpan(service, keyB, "held-up");
    await sleep(700);
    const ready = await service.fetch("/readyz");
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as {
      status: string;
      checks: { telemetry: Record<string, unknown> };
    };
    expect(body.status).toBe("unavailable");
    expect(body.checks.telemetry).toMatchObject({ ok: false, degraded: true });
    expect(body.checks.telemetry.writeWaitMs).toBeGreaterThan(300);
    expect(body.checks.telemetry.ingestWaitMs).toBeGreaterThan(300);
    expect(body.checks.telemetry.reason).toMatch(/waited \d+ ms/);

    expect((await long).status).toBe(422);
    expect((await ingested).status).toBe(200);
    const after = await service.fetch("/readyz");
    expect(after.status).toBe(200);
  }, 30_000);
});
