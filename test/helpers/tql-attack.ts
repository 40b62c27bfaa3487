/**
 * The fixture of the hostile-TQL tests (test/tql-security-*.int.test.ts): a service with two
 * projects, A (the attacker's key) and B (the victim's rows, marked so a leak shows), one row per
 * telemetry table each and A's bulk rows, and the one check every attack case passes: refused
 * with a helpful problem document (400, or 422 for resource exhaustion) or run confined to A's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.js";
import { systemCtx } from "../../src/context.js";
import { createProject } from "../../src/projects/projects.js";
import { initialize } from "../../src/setup/initialize.js";
import type { TelemetryExecutor } from "../../src/telemetry/executor.js";
import { makeTempDir } from "./temp-dir.js";
import { startTestService, type TestService } from "./test-service.js";

export const MAX_EXECUTION_SECONDS = 5;

export const A_TRACE = "a".repeat(32);
export const B_TRACE = "f00dbabe".repeat(4);
/** Values only project B's rows hold; none may ever reach A's responses. */
export const B_MARKERS = [
  "victim-secret-svc",
  "VICTIM-SECRET",
  "victim_secret_metric",
  "victim-secret-model",
  "/victim-secret",
  "fp-victim",
  "VictimError",
  B_TRACE,
];
/** Rows of A's bulk data: enough for cross joins to hit the limits. */
export const BULK_ROWS = 2000;

/** One attack: its query, and whether it must be refused or run confined to A's rows. */
export interface Case {
  name: string;
  query: string;
  expect: "rejected" | "confined";
  /** rejected: the detail must match. */
  detail?: RegExp;
  /** rejected: acceptable statuses (default 400). */
  status?: readonly number[];
  /** confined: the exact rows expected (A's data). */
  rows?: unknown[][];
}

export const ONLY_SELECT = /Only SELECT is permitted/;
export const HIDDEN = /project_id is not available/;
export const TABLE_FUNCTION = /Table functions .* are not allowed/;
export const DISALLOWED_FUNCTION = /Unknown or disallowed function/;
export const QUALIFIED = /cannot be qualified with a database|tables are not accessible from TQL/;
export const LIMITS = [422, 400] as const;

export const nested = (open: string, inner: string, close: string, depth: number) =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

/** Text of the rewritten query or the server's settings: never part of what the caller sees. */
const INTERNALS =
  /project_id`? = |`vigil`\.|\(SELECT `|Syntax error: failed at position|LIMIT 10001|max_memory_usage|max_execution_time|readonly = 1|\{project:String\}/;

function isProblem(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

/**
 * A confined case answers 200 with none of B's values, no project column and the expected rows; a
 * refused one answers an allowed status with a problem document that explains the caller's query
 * without the rewritten one, the limits or A's project id, and a 422 comes within the time limit.
 */
function expectRefusedOrConfined(
  c: Case,
  response: Response,
  text: string,
  { elapsed, projectA }: { elapsed: number; projectA: string },
): void {
  if (c.expect === "confined") {
    expect(response.status, text.slice(0, 500)).toBe(200);
    const body = JSON.parse(text) as { columns: { name: string }[]; rows: unknown[][] };
    const rows = JSON.stringify(body.rows);
    for (const marker of B_MARKERS) expect(rows).not.toContain(marker);
    for (const column of body.columns) expect(column.name).not.toBe("project_id");
    expect(rows).not.toContain(projectA);
    if (c.rows) expect(body.rows).toEqual(c.rows);
    return;
  }
  const allowed = c.status ?? [400];
  expect(allowed, `status ${response.status}: ${text.slice(0, 500)}`).toContain(response.status);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  const body = JSON.parse(text) as unknown;
  expect(isProblem(body)).toBe(true);
  const problem = body as Record<string, unknown>;
  expect(problem.status).toBe(response.status);
  expect(typeof problem.detail).toBe("string");
  const detail = problem.detail as string;
  expect(detail.length).toBeGreaterThan(10);
  if (c.detail) expect(detail).toMatch(c.detail);
  // A refusal explains the user's query; it never shows the rewritten one or the limits.
  expect(detail).not.toMatch(INTERNALS);
  expect(detail).not.toContain(projectA);
  if (response.status === 422) expect(elapsed).toBeLessThan((MAX_EXECUTION_SECONDS + 10) * 1000);
}

/** One row per table for a project: the attacker's (A) or the victim's (B). */
const rowsOf = (
  id: string,
  attacker: boolean,
  ts: string,
  minute: string,
  p: {
    svc: string;
    trace: string;
    log: string;
    metric: string;
    model: string;
    route: string;
  },
): Record<string, Record<string, unknown>> => ({
  traces: {
    project_id: id,
    timestamp: ts,
    end_timestamp: ts,
    trace_id: p.trace,
    span_id: p.trace.slice(0, 16),
    operation_name: attacker ? "GET /attacker" : "GET /victim-secret",
    span_kind: "server",
    service_name: p.svc,
    duration_ms: 12.5,
    status: "ok",
    http_route: p.route,
  },
  logs: {
    project_id: id,
    id: `log-${p.svc}`,
    timestamp: ts,
    observed_timestamp: ts,
    trace_id: p.trace,
    level: "info",
    service_name: p.svc,
    message: p.log,
  },
  metrics: {
    project_id: id,
    timestamp: ts,
    metric_name: p.metric,
    metric_type: "gauge",
    service_name: p.svc,
    value: 1,
  },
  ai_spans: {
    project_id: id,
    timestamp: ts,
    trace_id: p.trace,
    span_id: p.trace.slice(0, 16),
    service_name: p.svc,
    request_model: p.model,
    input_tokens: 10,
    output_tokens: 5,
    total_tokens: 15,
  },
  http_requests: {
    project_id: id,
    timestamp: minute,
    service_name: p.svc,
    method: "GET",
    route: p.route,
    status_code: 200,
    request_count: 5,
  },
  error_groups: {
    project_id: id,
    fingerprint: attacker ? "fp-attacker" : "fp-victim",
    exception_type: attacker ? "AttackerError" : "VictimError",
    message: attacker ? "attacker error" : "VICTIM-SECRET error",
    first_seen: ts,
    last_seen: ts,
    occurrence_count: 1,
    status: "active",
    services: [p.svc],
    version: 1,
  },
});

/**
 * One row per telemetry table for each project, A's and B's inserted together as the batch writer
 * does (B's marked with B_MARKERS), and BULK_ROWS more traces and logs of A's.
 */
async function insertAttackRows(
  telemetry: TelemetryExecutor,
  projectA: string,
  projectB: string,
): Promise<void> {
  const at = new Date(Date.now() - 60_000);
  const ts = at.toISOString().replace("T", " ").replace("Z", "");
  const minute = `${ts.slice(0, 16)}:00`;
  const a = rowsOf(projectA, true, ts, minute, {
    svc: "attacker-svc",
    trace: A_TRACE,
    log: "hello from attacker",
    metric: "attacker_metric",
    model: "attacker-model",
    route: "/attacker",
  });
  const b = rowsOf(projectB, false, ts, minute, {
    svc: "victim-secret-svc",
    trace: B_TRACE,
    log: "VICTIM-SECRET log line",
    metric: "victim_secret_metric",
    model: "victim-secret-model",
    route: "/victim-secret",
  });
  for (const table of Object.keys(a))
    await telemetry.insert(table, [b[table] ?? {}, a[table] ?? {}]);
  const bulk = Array.from({ length: BULK_ROWS }, (_, i) => ({
    project_id: projectA,
    timestamp: ts,
    trace_id: i.toString(16).padStart(32, "0"),
    service_name: "attacker-bulk",
  }));
  await telemetry.insert(
    "traces",
    bulk.map((row) => ({ ...row, operation_name: "bulk" })),
  );
  await telemetry.insert(
    "logs",
    bulk.map((row, i) => ({ ...row, message: `bulk ${i}` })),
  );
}

/** Project A (the attacker's, with the first key and an ingest-only key) and B (the victim's, its read key). */
async function createAttackProjects(service: TestService) {
  const setup = await initialize({
    ctx: systemCtx(service.deps.domain),
    input: {
      email: "attacker@example.com",
      password: "correct horse battery",
    },
  });
  const ctx = {
    deps: service.deps.domain,
    actor: {
      kind: "user" as const,
      userId: setup.userId,
      memberships: [{ orgId: setup.orgId, orgName: "Default", role: "owner" as const }],
    },
  };
  const projectA = setup.projectId;
  const projectB = (await createProject({ ctx, input: { name: "victim" } })).id;
  const keyB = (
    await createApiKey({ ctx, projectId: projectB, input: { name: "b", role: "read_only" } })
  ).key;
  const ingestKeyA = (
    await createApiKey({ ctx, projectId: projectA, input: { name: "ingest", role: "ingest" } })
  ).key;
  return { projectA, projectB, keyA: setup.apiKey ?? "", keyB, ingestKeyA };
}

/** What a file's own tests use of the fixture, once its setup ran. */
export interface AttackFixture {
  /** POST /v1/tql with A's key; `null` sends no key at all. */
  tql(query: string, key?: string | null): Promise<Response>;
  /** B's read key and A's ingest-only key. */
  readonly keyB: string;
  readonly ingestKeyA: string;
}

/**
 * One describe over the fixture: the markers exist, every case is refused or confined, the file's
 * own tests (`more`), and the service is still healthy and correct after all of them.
 */
export function describeTqlAttacks(
  title: string,
  cases: readonly Case[],
  options: { minCases: number; more?: (fixture: AttackFixture) => void },
): void {
  describe(title, () => {
    const dir = makeTempDir("vigil-tql-sec-");
    let service: TestService;
    let projectA: string;
    let projectB: string;
    let keyA: string;
    let keyB: string;
    let ingestKeyA: string;

    const tql = (query: string, key: string | null = keyA) =>
      service.fetch("/v1/tql", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(key === null ? {} : { "x-api-key": key }),
        },
        body: JSON.stringify({ query }),
      });
    const fixture: AttackFixture = {
      tql,
      get keyB() {
        return keyB;
      },
      get ingestKeyA() {
        return ingestKeyA;
      },
    };

    beforeAll(async () => {
      service = await startTestService(dir.path, {
        VIGIL_RATE_LIMIT_PER_MINUTE: "100000",
        VIGIL_TQL_MAX_EXECUTION_SECONDS: String(MAX_EXECUTION_SECONDS),
        VIGIL_TQL_MAX_MEMORY_BYTES: String(256 * 1024 * 1024),
      });
      ({ projectA, projectB, keyA, keyB, ingestKeyA } = await createAttackProjects(service));
      await insertAttackRows(service.deps.telemetry, projectA, projectB);
    });
    afterAll(async () => {
      await service?.stop();
      dir.remove();
    });

    /** What no response to A may ever contain. */
    const assertNoLeak = (text: string) => {
      expect(text).not.toContain(projectB);
      expect(text).not.toContain(dir.path);
    };

    it("gives B's key B's rows: the markers the cases look for exist", async () => {
      const response = await tql(
        "SELECT (SELECT groupArray(service_name) FROM traces), (SELECT groupArray(message) FROM logs), (SELECT groupArray(message) FROM error_groups)",
        keyB,
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { rows: unknown[][] };
      expect(body.rows).toEqual([
        [["victim-secret-svc"], ["VICTIM-SECRET log line"], ["VICTIM-SECRET error"]],
      ]);
    });

    it("has its cases, each named once", () => {
      expect(cases.length).toBeGreaterThanOrEqual(options.minCases);
      expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    });

    for (const c of cases) {
      it(`${c.expect}: ${c.name}`, { timeout: (MAX_EXECUTION_SECONDS + 15) * 1000 }, async () => {
        const started = performance.now();
        const response = await tql(c.query);
        const elapsed = performance.now() - started;
        const text = await response.text();
        assertNoLeak(text);
        // Errors may quote the caller's own query, never B's values.
        for (const marker of B_MARKERS)
          if (!c.query.includes(marker)) expect(text, text.slice(0, 500)).not.toContain(marker);
        expectRefusedOrConfined(c, response, text, { elapsed, projectA });
      });
    }

    options.more?.(fixture);

    it("is still healthy and correct after every attack", async () => {
      expect((await service.fetch("/readyz")).status).toBe(200);
      const response = await tql(
        "SELECT service_name, count() AS n FROM traces GROUP BY service_name ORDER BY service_name",
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { rows: unknown[][]; truncated: boolean };
      expect(body.rows).toEqual([
        ["attacker-bulk", BULK_ROWS],
        ["attacker-svc", 1],
      ]);
      const victim = await tql("SELECT count() FROM traces", keyB);
      expect(((await victim.json()) as { rows: unknown[][] }).rows).toEqual([[1]]);
    });
  });
}
