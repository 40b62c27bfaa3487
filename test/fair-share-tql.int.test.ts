import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

/** Allowed, and never done by itself: it runs until the time limit stops it. */
const ENDLESS =
  "SELECT count() AS n FROM traces a CROSS JOIN traces b CROSS JOIN traces c " +
  "WHERE cityHash64(a.duration_ms, b.duration_ms, c.duration_ms) % 1000 = 7";
const LIMIT_SECONDS = 4;

const tql = async (service: TestService, key: string, query: string) => {
  const started = performance.now();
  const response = await service.fetch("/v1/tql", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as { code?: string; detail?: string };
  return { status: response.status, body, ms: performance.now() - started, response };
};

/**
 * Organization X with five projects that each send heavy TQL, and organization Y beside it: the
 * engine's ad-hoc sessions are shared by organization first (issue 31, ADR 0021).
 */
describe("TQL shared fairly between organizations", () => {
  const dir = makeTempDir();
  let service: TestService;
  const keysX: string[] = [];
  let keyY = "";

  beforeAll(async () => {
    // 7 sessions: 4 for TQL. X may hold 3 of them (tql.maxConcurrentPerOrganization).
    service = await startTestService(dir.path, {
      VIGIL_TELEMETRY_SESSIONS: "7",
      VIGIL_TQL_MAX_EXECUTION_SECONDS: String(LIMIT_SECONDS),
    });
    const x = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "x@example.com",
        password: "correct horse battery",
      },
    });
    keysX.push(x.apiKey ?? "");
    for (let i = 2; i <= 5; i++)
      keysX.push((await addProjectWithKey(service, x.orgId, `prj_x${i}`)).key);
    await service.deps.meta.repos.organizations.insert({
      id: "org_y",
      name: "Y",
      createdAt: new Date().toISOString(),
    });
    keyY = (await addProjectWithKey(service, "org_y", "prj_y")).key;
    const now = new Date(Date.now() - 60_000).toISOString().replace("T", " ").replace("Z", "");
    for (const projectId of [x.projectId, "prj_x2", "prj_x3", "prj_x4", "prj_x5", "prj_y"])
      await service.deps.telemetry.insert(
        "traces",
        Array.from({ length: 3000 }, (_, i) => ({
          project_id: projectId,
          service_name: "busy",
          operation_name: "op",
          timestamp: now,
          span_id: hexId(i, 16),
          duration_ms: i,
        })),
      );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("answers another organization's query at once while one organization's five projects flood TQL", async () => {
    // Two heavy queries from each of X's five projects, at once.
    const flood = keysX.flatMap((key) => [tql(service, key, ENDLESS), tql(service, key, ENDLESS)]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const y = await tql(service, keyY, "SELECT 1 AS one");
    expect(y.status, JSON.stringify(y.body)).toBe(200);
    expect(y.ms).toBeLessThan(2000);

    const answers = await Promise.all(flood);
    // X had 3 admitted at once, at most: the rest were told at once, naming the organization.
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(7);
    for (const answer of refused) {
      expect(answer.body.detail).toMatch(/organization already has 3 TQL queries/);
      expect(Number(answer.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(answer.ms).toBeLessThan(1000);
    }
    // The admitted ones ran to their time limit, and no further.
    for (const answer of answers.filter((a) => a.status !== 429)) {
      expect(answer.body.code).toBe("query_timeout");
      expect(answer.ms).toBeLessThan((LIMIT_SECONDS + 2) * 1000);
    }
    const metrics = await (await service.fetch("/metrics")).text();
    expect(metrics).toMatch(/vigil_tql_refused_total\{reason="group"\} ([7-9]|10)/);
  }, 30_000);

  it("counts a query's wait for its turn inside its time limit", async () => {
    // X holds 3 sessions and Y's first query the 4th; Y's second waits for one to free.
    const x = keysX.slice(0, 3).map((key) => tql(service, key, ENDLESS));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const first = tql(service, keyY, ENDLESS);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await tql(service, keyY, ENDLESS);
    // It answers (a time-out, or busy) within its own limit and a second, wait included: by
    // itself it would have run its whole limit after waiting most of one.
    expect([422, 503]).toContain(second.status);
    expect(second.ms).toBeLessThan((LIMIT_SECONDS + 1.5) * 1000);
    await Promise.all([...x, first]);
  }, 30_000);
});
