import { afterAll, describe, expect, it } from "vitest";
import { demoRequests } from "../src/demo/generator.js";
import { encodeRequest } from "../src/ingest/otlp/codec.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { runCli, startServeProcess } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";

describe("ingestion durability and the demo dataset", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());
  const env = { VIGIL_LOG_LEVEL: "warn" };

  it("keeps every row of an acknowledged request when the process is killed with SIGKILL right after", async () => {
    const init = await runCli(
      [
        "init",
        "--json",
        "--data-dir",
        dir.path,
        "--email",
        "kill@example.com",
        "--password",
        "correct horse battery",
      ],
      env,
    );
    expect(init.code).toBe(0);
    const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };
    const [request] = [
      ...demoRequests({ spans: 3000, batchSpans: 3000, windowMs: 600_000, nowMs: Date.now() }),
    ];
    if (request?.signal !== "traces") throw new Error("expected a traces request first");

    const server = await startServeProcess(["--data-dir", dir.path], env);
    const response = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/x-protobuf", "x-api-key": apiKey },
      body: encodeRequest("traces", request.body),
    });
    expect(response.status).toBe(200);
    await server.kill();

    const engine = createChdbExecutor({ path: `${dir.path}/telemetry`, database: "vigil" });
    try {
      const [{ n } = { n: 0 }] = await engine.query<{ n: number }>(
        "SELECT count() AS n FROM vigil.traces",
      );
      expect(Number(n)).toBe(request.items);
    } finally {
      await engine.close();
    }
  });

  it("vigil demo sends a dataset that fills every derived table", async () => {
    const demo = await runCli(["demo", "--json", "--data-dir", dir.path, "--spans", "4000"], env);
    expect(demo.code, demo.stderr).toBe(0);
    const summary = JSON.parse(demo.stdout) as {
      items: { traces: number; logs: number; metrics: number };
    };
    expect(summary.items.traces).toBeGreaterThanOrEqual(4000);

    const engine = createChdbExecutor({ path: `${dir.path}/telemetry`, database: "vigil" });
    try {
      const count = async (sql: string) => Number((await engine.query<{ n: number }>(sql))[0]?.n);
      expect(await count("SELECT count() AS n FROM vigil.logs")).toBe(summary.items.logs);
      expect(await count("SELECT count() AS n FROM vigil.metrics")).toBe(summary.items.metrics);
      expect(
        await count(
          "SELECT count() AS n FROM vigil.ai_spans WHERE cost_usd > 0 AND input_tokens > 0",
        ),
      ).toBeGreaterThan(0);
      expect(
        await count("SELECT sum(request_count) AS n FROM vigil.http_requests"),
      ).toBeGreaterThan(0);
      expect(
        await count(
          "SELECT uniqExact(session_id) AS n FROM vigil.sessions WHERE browser != '' AND country != ''",
        ),
      ).toBeGreaterThan(0);
      const groups = await engine.query<{ exception_type: string; occurrence_count: number }>(
        "SELECT exception_type, occurrence_count FROM vigil.error_groups FINAL ORDER BY exception_type",
      );
      // Each throw site is one group however many ids its messages carried.
      expect(groups.map((g) => g.exception_type)).toEqual(
        expect.arrayContaining(["QueryTimeoutError", "TypeError"]),
      );
      const types = groups.map((g) => g.exception_type);
      expect(new Set(types).size).toBe(types.length);
    } finally {
      await engine.close();
    }
  });
});
