/**
 * End to end with the telemetry on a ClickHouse server: the real service started with
 * VIGIL_TELEMETRY_URL pointing at the chDB-backed ClickHouse shim ingests OTLP traces and answers
 * them through /v1 and TQL; nothing is stored in the data directory's embedded engine.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { type ClickHouseShim, startClickHouseShim } from "./helpers/clickhouse-shim.js";
import { hexId, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const PASSWORD = "telemetry-secret-9f2c";
const NOW = Date.now();
const A = hexId(0xa1, 32);
const B = hexId(0xb2, 32);

describe("Vigil with its telemetry on a ClickHouse server", () => {
  const dataDir = makeTempDir("vigil-ch-service-");
  const shimDir = makeTempDir("vigil-ch-shim-");
  let shim: ClickHouseShim;
  let service: TestService;
  let key: string;

  const get = async (path: string) => {
    const response = await service.fetch(path, { headers: { "x-api-key": key } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    shim = await startClickHouseShim({ dataDir: shimDir.path, user: "vigil", password: PASSWORD });
    service = await startTestService(dataDir.path, {
      VIGIL_TELEMETRY_URL: shim.url,
      VIGIL_TELEMETRY_USER: "vigil",
      VIGIL_TELEMETRY_PASSWORD: PASSWORD,
      VIGIL_TELEMETRY_DATABASE: "vigil_e2e",
    });
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "clickhouse@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
  });
  afterAll(async () => {
    await service?.stop();
    await shim?.close();
    dataDir.remove();
    shimDir.remove();
  });

  it("runs on the server, not on an embedded engine", async () => {
    expect(service.deps.telemetry.engine).toBe("clickhouse");
    expect(existsSync(join(dataDir.path, "telemetry"))).toBe(false);
    const ready = await service.fetch("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { telemetry: { ok: true } } });
  });

  it("ingests OTLP traces and reads them back through /v1 and TQL", async () => {
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("checkout", [
        {
          traceId: A,
          spanId: hexId(1, 16),
          name: "GET /cart",
          kind: 2,
          startMs: NOW - 60_000,
          durationMs: 120,
        },
        {
          traceId: A,
          spanId: hexId(2, 16),
          parentSpanId: hexId(1, 16),
          name: "SELECT cart",
          startMs: NOW - 59_990,
          durationMs: 40,
        },
        {
          traceId: B,
          spanId: hexId(3, 16),
          name: "POST /pay",
          kind: 2,
          startMs: NOW - 30_000,
          durationMs: 600,
          error: true,
          events: [
            {
              name: "exception",
              timeMs: NOW - 29_800,
              attributes: { "exception.type": "CardDeclined", "exception.message": "declined" },
            },
          ],
        },
      ]),
    );
    const inserts = shim.requests.filter((r) =>
      r.sql.startsWith("INSERT INTO `vigil_e2e`.`traces`"),
    );
    expect(inserts.length).toBeGreaterThanOrEqual(1);

    const list = await get("/v1/traces?time_range=1h");
    expect(list.status).toBe(200);
    const data = list.body.data as { traceId: string; spanCount: number; status: string }[];
    expect(data.map((t) => t.traceId)).toEqual([B, A]);
    expect(data.map((t) => [t.spanCount, t.status])).toEqual([
      [1, "error"],
      [2, "ok"],
    ]);

    const trace = await get(`/v1/traces/${A}`);
    expect(trace.status).toBe(200);
    expect(trace.body).toMatchObject({ traceId: A, spanCount: 2 });

    const errors = await get("/v1/errors?time_range=1h");
    expect(errors.status).toBe(200);
    expect(errors.body.data).toEqual([
      expect.objectContaining({ type: "CardDeclined", message: "declined", occurrences: 1 }),
    ]);

    const tql = await service.fetch("/v1/tql", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        query: "SELECT service_name, count() AS spans FROM traces GROUP BY service_name",
      }),
    });
    expect(tql.status).toBe(200);
    expect(await tql.json()).toMatchObject({
      columns: [
        { name: "service_name", type: "LowCardinality(String)" },
        { name: "spans", type: "UInt64" },
      ],
      rows: [["checkout", 3]],
    });
  });

  it("never writes the server's password to its logs", () => {
    expect(service.logs.join("")).not.toContain(PASSWORD);
  });

  it("answers 503 when the server is away: not ready, ingestion refused for a retry", async () => {
    await shim.close();
    const ready = await service.fetch("/readyz");
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ checks: { telemetry: { ok: false } } });
    const response = await service.fetch("/v1/traces", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(
        tracesBody("checkout", [
          {
            traceId: hexId(0xc3, 32),
            spanId: hexId(4, 16),
            name: "GET /",
            startMs: NOW,
            durationMs: 5,
          },
        ]),
      ),
    });
    expect(response.status).toBe(503);
    await response.text();
    const tql = await service.fetch("/v1/tql", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ query: "SELECT count() FROM traces" }),
    });
    expect(tql.status).toBe(503);
    expect(((await tql.json()) as { detail: string }).detail).toMatch(
      /^The telemetry store at http:\/\/127\.0\.0\.1:\d+ could not be reached/,
    );
  });
});
