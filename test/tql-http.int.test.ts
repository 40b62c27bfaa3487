import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/auth/api-keys.js";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { runCli } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const NOW_NS = BigInt(Date.now() - 60_000) * 1_000_000n;
const span = (name: string, ms: number, error: boolean, index: number) => ({
  traceId: index.toString(16).padStart(32, "0"),
  spanId: index.toString(16).padStart(16, "0"),
  name,
  kind: 2,
  startTimeUnixNano: String(NOW_NS),
  endTimeUnixNano: String(NOW_NS + BigInt(ms) * 1_000_000n),
  status: { code: error ? 2 : 1 },
});
const traces = (service: string, spans: object[]) => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: service } }] },
      scopeSpans: [{ spans }],
    },
  ],
});

/** The fields of TQL results and problems these tests read. */
interface Body {
  rows: unknown[][];
  rowCount: number;
  durationMs: number;
  truncated: boolean;
  status: number;
  detail: string;
  errors: { field: string }[];
  requestId: string;
}
const read = async (response: Response) => (await response.json()) as Body;

describe("POST /v1/tql", () => {
  const dir = makeTempDir();
  let service: TestService;
  let fullKey: string;
  let ingestKey: string;

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "tql@example.com",
        password: "correct horse battery",
      },
    });
    fullKey = setup.apiKey ?? "";
    ingestKey = (
      await createApiKey({
        ctx: { deps: service.deps.domain, actor: { kind: "system" } },
        projectId: setup.projectId,
        input: { name: "ingest only", role: "ingest" },
      })
    ).key;
    const body = traces("checkout", [
      span("GET /cart", 10, false, 1),
      span("GET /cart", 30, false, 2),
      span("POST /pay", 200, true, 3),
    ]);
    const ingested = await service.fetch("/v1/traces", {
      method: "POST",
      headers: { "x-api-key": ingestKey, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(ingested.status).toBe(200);
    // Another project's rows in the same tables, which no query of this key may see.
    await service.deps.telemetry.insert("traces", [
      {
        project_id: "prj_someone_else",
        service_name: "checkout",
        operation_name: "secret",
        duration_ms: 1,
      },
    ]);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const tql = (query: string, key = fullKey) =>
    service.fetch("/v1/tql", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });

  it("runs the spec's example query and answers the TQL result object", async () => {
    const response = await tql(`
      SELECT service_name, operation_name AS op, count() AS spans, countIf(status = 'error') AS errors,
             round(quantile(0.5)(duration_ms), 1) AS p50
      FROM traces
      WHERE timestamp > now() - INTERVAL 1 HOUR
      GROUP BY service_name, op
      ORDER BY spans DESC, op
      LIMIT 10`);
    expect(response.status).toBe(200);
    const body = await read(response);
    expect(body).toEqual({
      columns: [
        { name: "service_name", type: "LowCardinality(String)" },
        { name: "op", type: "LowCardinality(String)" },
        { name: "spans", type: "UInt64" },
        { name: "errors", type: "UInt64" },
        { name: "p50", type: "Float64" },
      ],
      rows: [
        ["checkout", "GET /cart", 2, 0, 20],
        ["checkout", "POST /pay", 1, 1, 200],
      ],
      rowCount: 2,
      durationMs: expect.any(Number),
      truncated: false,
    });
    expect(Number.isInteger(body.durationMs)).toBe(true);
  });

  it("answers syntax errors as problem+json with the position", async () => {
    const response = await tql("SELECT count(\nFROM traces");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    const problem = await read(response);
    expect(problem).toMatchObject({
      status: 400,
      code: "invalid_input",
      position: { line: 2, column: 1 },
      errors: [{ field: "query" }],
    });
    expect(problem.detail).toContain("Expected");
    expect(problem.requestId).toBeTruthy();
  });

  it("refuses writes with the spec's message, and engine errors without internals", async () => {
    const write = await read(await tql("ALTER TABLE traces DELETE WHERE 1"));
    expect(write).toMatchObject({
      status: 400,
      detail: expect.stringContaining("Only SELECT is permitted"),
    });
    const engine = await read(await tql("SELECT service_name + 1 FROM traces"));
    expect(engine.status).toBe(400);
    expect(engine.detail).toContain("ILLEGAL_TYPE_OF_ARGUMENT");
    expect(engine.detail).not.toMatch(/project_id|vigil\.|In scope/);
  });

  it("caps the query length at 50,000 characters", async () => {
    const response = await tql(`SELECT 1 ${" ".repeat(50_000)}`);
    expect(response.status).toBe(400);
    expect((await read(response)).errors[0]?.field).toBe("query");
  });

  it("needs tql:query and a key", async () => {
    expect((await tql("SELECT 1", ingestKey)).status).toBe(403);
    const anonymous = await service.fetch("/v1/tql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "SELECT 1" }),
    });
    expect(anonymous.status).toBe(401);
  });

  it("sees only the key's project", async () => {
    const body = await read(await tql("SELECT operation_name FROM traces ORDER BY operation_name"));
    expect(body.rows).toEqual([["GET /cart"], ["GET /cart"], ["POST /pay"]]);
  });

  it("cuts results at 10,000 rows and says so", async () => {
    const body = await read(await tql("SELECT arrayJoin(range(12000)) AS n"));
    expect(body.rowCount).toBe(10_000);
    expect(body.rows).toHaveLength(10_000);
    expect(body.truncated).toBe(true);
    const exact = await read(await tql("SELECT arrayJoin(range(12000)) AS n LIMIT 10000"));
    expect(exact.truncated).toBe(false);
  });

  it("vigil tql prints a table from a running server", async () => {
    const { code, stdout } = await runCli([
      "tql",
      "SELECT operation_name, count() AS n FROM traces GROUP BY operation_name ORDER BY n DESC",
      "--url",
      service.url,
      "--key",
      fullKey,
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/operation_name\s+│ n\n/);
    expect(stdout).toMatch(/GET \/cart\s+│ 2\n/);
    expect(stdout).toContain("2 rows in");
    const failed = await runCli([
      "tql",
      "SELECT nope FROM traces",
      "--url",
      service.url,
      "--key",
      fullKey,
      "--json",
    ]);
    expect(failed.code).toBe(2);
    expect(JSON.parse(failed.stdout).error.message).toContain(
      "Unknown column 'nope' (line 1, column 8)",
    );
  });
});

describe("vigil tql on a data dir", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("queries the local engine for the only project", async () => {
    const init = await runCli([
      "init",
      "--email",
      "cli@example.com",
      "--password",
      "correct horse battery",
      "--json",
      "--data-dir",
      dir.path,
    ]);
    expect(init.code).toBe(0);
    const { code, stdout } = await runCli([
      "tql",
      "SELECT count() AS n FROM logs",
      "--json",
      "--data-dir",
      dir.path,
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      columns: [{ name: "n", type: "UInt64" }],
      rows: [[0]],
      rowCount: 1,
    });
  });
});
