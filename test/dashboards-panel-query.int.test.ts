import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PanelQueryResult } from "../src/contracts/dashboards.js";
import { fields, ok, refused } from "./helpers/dashboards-api.js";
import { hexId, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addKey } from "./helpers/projects.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

const MINUTE = 60_000;
/** Whole minutes, so absolute windows around the spans are exact. */
const T0 = Math.floor(Date.now() / MINUTE) * MINUTE - 20 * MINUTE;
const SERIES =
  "SELECT $__timeInterval(timestamp) AS t, count() AS n FROM traces WHERE $__timeFilter(timestamp) AND service_name IN {services:Array(String)} GROUP BY t ORDER BY t";
const BY_SERVICE =
  "SELECT count() AS n FROM traces WHERE $__timeFilter(timestamp) AND service_name = {service:String}";

/** POST /v1/dashboards/query on spans ingested over OTLP: variables, windows, sharing, access. */
describe("dashboard panel queries on ingested spans", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;
  let key: string;

  const query = (body: unknown, apiKey = key) =>
    service.fetch("/v1/dashboards/query", {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const total = (result: PanelQueryResult) =>
    result.rows.reduce((sum, row) => sum + Number(row[result.columns.length - 1]), 0);
  const spans = (first: number, count: number, startMs: number) =>
    Array.from({ length: count }, (_, i) => ({
      traceId: hexId(first + i, 32),
      spanId: hexId(first + i, 16),
      name: "GET /cart",
      kind: 2,
      startMs: startMs + i * 1000,
      durationMs: 12,
    }));

  beforeAll(async () => {
    ({ service, owner, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    }));
    key = await addKey(service, projectId, { name: "dashboards", role: "full" });
    await sendOtlp(service, key, "traces", tracesBody("checkout", spans(1, 3, T0)));
    await sendOtlp(service, key, "traces", tracesBody("cart", spans(10, 2, T0 + 5 * MINUTE)));
    // Two hours back: outside a 1h window.
    await sendOtlp(service, key, "traces", tracesBody("checkout", spans(20, 1, T0 - 100 * MINUTE)));
    // Another project's rows in the same table, which no panel of this project may see.
    await service.deps.telemetry.insert("traces", [
      {
        project_id: "prj_someone_else",
        service_name: "checkout",
        operation_name: "secret",
        trace_id: hexId(99, 32),
        span_id: hexId(99, 16),
        timestamp: new Date(T0).toISOString().replace("T", " ").replace("Z", ""),
        duration_ms: 1,
      },
    ]);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("binds variables and a relative window ending at its bucket's end", async () => {
    const before = Date.now();
    const result = await ok<PanelQueryResult>(
      await query({ tql: SERIES, variables: { services: ["checkout"] }, timeRange: "1h" }),
    );
    expect(result.columns.map((c) => c.name)).toEqual(["t", "n"]);
    expect(total(result)).toBe(3);
    const { from, to, bucketSeconds } = result.window;
    expect(bucketSeconds).toBe(15);
    expect(Date.parse(to) % 15_000).toBe(0);
    expect(Date.parse(to)).toBeGreaterThanOrEqual(before - 15_000);
    expect(Date.parse(to) - Date.parse(from)).toBe(3_600_000);
    // One row per 15 s bucket with spans: the three checkout spans are a second apart.
    expect(result.rows.length).toBeLessThanOrEqual(2);

    const both = await ok<PanelQueryResult>(
      await query({ tql: SERIES, variables: { services: ["checkout", "cart"] }, timeRange: "1h" }),
    );
    expect(total(both)).toBe(5);
  });

  it("uses an absolute window as given, with maxDataPoints setting the bucket", async () => {
    const window = {
      from: new Date(T0 - 120 * MINUTE).toISOString(),
      to: new Date(T0 - 60 * MINUTE).toISOString(),
    };
    const old = await ok<PanelQueryResult>(
      await query({
        tql: SERIES,
        variables: { services: ["checkout", "cart"] },
        timeRange: window,
        maxDataPoints: 10,
      }),
    );
    expect(total(old)).toBe(1);
    expect(old.window).toEqual({ ...window, bucketSeconds: 600 });
    expect(old.rows).toHaveLength(1);
    expect(old.rows[0]?.[0]).toBe(
      new Date(Math.floor((T0 - 100 * MINUTE) / 600_000) * 600_000)
        .toISOString()
        .replace("T", " ")
        .replace(".000Z", ""),
    );
  });

  it("takes hostile values as values, confined to the project", async () => {
    for (const service of [
      "checkout' OR 1=1 --",
      "x') UNION ALL SELECT 1 --",
      "\\'; DROP TABLE traces",
    ]) {
      const result = await ok<PanelQueryResult>(
        await query({ tql: BY_SERVICE, variables: { service }, timeRange: "1h" }),
      );
      expect(total(result)).toBe(0);
    }
    // The other project's checkout span is not counted.
    const mine = await ok<PanelQueryResult>(
      await query({ tql: BY_SERVICE, variables: { service: "checkout" }, timeRange: "1h" }),
    );
    expect(total(mine)).toBe(3);
    const problem = await refused(await query({ tql: BY_SERVICE, timeRange: "1h" }), 400);
    expect(fields(problem)).toEqual(["variables.service"]);
  });

  it("runs ten concurrent identical panel queries on the engine once", async () => {
    const spy = vi.spyOn(service.deps.domain.tql, "query");
    const body = { tql: SERIES, variables: { services: ["cart"] }, timeRange: "6h" };
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, async () => ok<PanelQueryResult>(await query(body))),
      );
      expect(spy).toHaveBeenCalledTimes(1);
      expect(results.filter((r) => !r.cached)).toHaveLength(1);
      for (const result of results) expect(total(result)).toBe(2);
      // The session path of the dashboard shares the same result.
      const viaSession = await ok<PanelQueryResult>(
        await owner.post(`/api/projects/${projectId}/v1/dashboards/query`, body),
      );
      expect(viaSession.cached).toBe(true);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("needs tql:query: an ingest-only key is refused (403), no key is 401", async () => {
    const ingestOnly = await addKey(service, projectId, { name: "ingest", role: "ingest" });
    const body = { tql: BY_SERVICE, variables: { service: "checkout" }, timeRange: "1h" };
    await refused(await query(body, ingestOnly), 403);
    await refused(
      await service.fetch("/v1/dashboards/query", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      401,
    );
  });
});
