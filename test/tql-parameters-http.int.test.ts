/**
 * POST /v1/tql with `parameters`: values bound and confined to the key's project, hostile values
 * answered 200 with the caller's rows only (never a 500), a missing or unfit value a 400 naming
 * `parameters.<name>` with the placeholder's position, and `vigil tql --param` against the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { createProject } from "../src/projects/projects.js";
import { initialize } from "../src/setup/initialize.js";
import { runCli } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

interface Body {
  rows: unknown[][];
  status: number;
  code: string;
  detail: string;
  position?: { line: number; column: number };
  errors: { field: string; message: string }[];
}

const AT = new Date(Date.now() - 60_000);
const TS = AT.toISOString().replace("T", " ").replace("Z", "");
const WINDOW = {
  from: new Date(AT.getTime() - 60_000).toISOString(),
  to: new Date(AT.getTime() + 60_000).toISOString(),
  bucket_seconds: 3600,
};

describe("POST /v1/tql with parameters", () => {
  const dir = makeTempDir("vigil-tql-params-http-");
  let service: TestService;
  let key: string;
  let projectA: string;
  let projectB: string;

  beforeAll(async () => {
    service = await startTestService(dir.path, { VIGIL_RATE_LIMIT_PER_MINUTE: "100000" });
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: { email: "params@example.com", password: "correct horse battery" },
    });
    key = setup.apiKey ?? "";
    projectA = setup.projectId;
    const ctx = {
      deps: service.deps.domain,
      actor: {
        kind: "user" as const,
        userId: setup.userId,
        memberships: [{ orgId: setup.orgId, orgName: "Default", role: "owner" as const }],
      },
    };
    projectB = (await createProject({ ctx, input: { name: "victim" } })).id;
    const span = (project: string, service_name: string, i: number) => ({
      project_id: project,
      timestamp: TS,
      end_timestamp: TS,
      trace_id: `${i}`.padStart(32, "0"),
      span_id: `${i}`.padStart(16, "0"),
      service_name,
      operation_name: "op",
    });
    await service.deps.telemetry.insert("traces", [
      span(projectB, "victim-secret-svc", 1),
      span(projectA, "checkout", 2),
      span(projectA, "gateway", 3),
    ]);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const tql = async (query: string, parameters?: unknown) => {
    const response = await service.fetch("/v1/tql", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(parameters === undefined ? { query } : { query, parameters }),
    });
    const text = await response.text();
    expect(text).not.toContain(projectB);
    expect(text).not.toContain("victim-secret");
    return { status: response.status, body: JSON.parse(text) as Body };
  };

  it("binds the values and the time window, confined to the key's project", async () => {
    const { status, body } = await tql(
      "SELECT service_name, count() FROM traces WHERE $__timeFilter(timestamp) AND service_name IN {services:Array(String)} GROUP BY service_name ORDER BY service_name",
      { ...WINDOW, services: ["checkout", "gateway", "victim-secret-svc"] },
    );
    expect(status).toBe(200);
    expect(body.rows).toEqual([
      ["checkout", 1],
      ["gateway", 1],
    ]);
  });

  it("answers hostile values with the caller's rows only, never a 500", async () => {
    const hostile = [
      "x') OR 1=1 --",
      "' UNION SELECT * FROM system.tables --",
      "{project:String}",
      "\\' \\\\ \" ` \n \t",
      projectB,
    ];
    for (const value of hostile) {
      const { status, body } = await tql(
        "SELECT count() FROM traces WHERE service_name = {v:String} OR service_name IN {vs:Array(String)}",
        { v: value, vs: [value, value.repeat(3)] },
      );
      expect(status).toBe(200);
      expect(body.rows).toEqual([[0]]);
    }
    const named = await tql(
      "SELECT {project:String} = {s0:String} AS same, count() FROM traces WHERE service_name != 'x'",
      { project: projectA, s0: "prj_other" },
    );
    expect(named.status).toBe(200);
    expect(named.body.rows).toEqual([[0, 2]]);
    expect((await tql("SELECT count() FROM traces", { project: "prj_other" })).body.rows).toEqual([
      [2],
    ]);
  });

  it("answers a missing value with 400 naming parameters.<name> and where it is used", async () => {
    const { status, body } = await tql(
      "SELECT count()\nFROM traces WHERE $__timeFilter(timestamp)",
      {
        from: WINDOW.from,
      },
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: "invalid_input",
      detail:
        "Parameter 'to' (DateTime64(3), of $__timeFilter) has no value: give it as parameters.to",
      position: { line: 2, column: 19 },
      errors: [{ field: "parameters.to" }],
    });
  });

  it("answers an unfit value with 400 naming it", async () => {
    const cases: [string, unknown, string][] = [
      ["SELECT {n:UInt8}", { n: 300 }, "parameters.n"],
      ["SELECT {n:UInt8}", { n: "1; DROP TABLE traces" }, "parameters.n"],
      ["SELECT {t:DateTime64(3)}", { t: "now" }, "parameters.t"],
      ["SELECT {l:Array(String)}", { l: "a" }, "parameters.l"],
      ["SELECT {s:String}", { s: 1 }, "parameters.s"],
    ];
    for (const [query, parameters, field] of cases) {
      const { status, body } = await tql(query, parameters);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(body.errors.map((e) => e.field)).toEqual([field]);
      expect(body.position).toEqual({ line: 1, column: 8 });
    }
  });

  it("refuses malformed parameters by the request's schema, naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ "bad-name": "x" }, "parameters.bad-name"],
      [{ a: null }, "parameters.a"],
      [{ a: { nested: true } }, "parameters.a"],
      [{ a: "x".repeat(4097) }, "parameters.a"],
      [{ a: Array.from({ length: 1001 }, () => 1) }, "parameters.a"],
      [Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, i])), "parameters"],
      [["a"], "parameters"],
    ];
    for (const [parameters, field] of cases) {
      const { status, body } = await tql("SELECT 1", parameters);
      expect(status, JSON.stringify(body).slice(0, 300)).toBe(400);
      expect(body.errors.map((e) => e.field)).toContain(field);
    }
  });

  it("runs from vigil tql --param against the server", { timeout: 60_000 }, async () => {
    const result = await runCli([
      "tql",
      "SELECT {n:UInt32} + 1 AS n, has({names:Array(String)}, 'b') AS b, {s:String} AS s",
      "--url",
      service.url,
      "--key",
      key,
      "--param",
      "n=41",
      "--param",
      'names=["a","b"]',
      "--param",
      "s=it's",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ rows: [[42, 1, "it's"]] });
  });
});
