import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkMetricsFor, createOutbound, monitorEngineFor } from "../src/composition/monitors.js";
import type { MonitorView as Monitor } from "../src/contracts/monitors.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/**
 * Monitor checks become vigil.monitor.* points in the project's metrics table, through
 * ingestion, for api and flow monitors alike; a failed write never fails the check.
 */
describe("monitor checks as metrics", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;
  let target: Server;
  let targetBase: string;

  const base = () => `/api/projects/${projectId}/monitors`;
  const rows = async (text: string) => (await service.deps.tql.query(projectId, text)).rows;
  /** Creates a monitor and waits for the first check the scheduler runs at once. */
  const create = async (body: Record<string, unknown>): Promise<Monitor> => {
    const response = await owner.post(base(), { frequency: "1h", ...body });
    const created = (await response.json()) as Monitor;
    expect(response.status, JSON.stringify(created)).toBe(201);
    for (let i = 0; i < 200; i++) {
      const current = (await (await owner.get(`${base()}/${created.id}`)).json()) as Monitor;
      if (current.lastResultId !== null) return current;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("the first check never ran");
  };

  beforeAll(async () => {
    target = createServer((req, res) => {
      const ok = !req.url?.includes("broken");
      res.writeHead(ok ? 200 : 503, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok }));
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    targetBase = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    ({ service, owner, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    }));
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await new Promise((resolve) => target.close(resolve));
    dir.remove();
  });

  it("writes up, duration and step points for api and flow checks", async () => {
    const api = await create({ name: "Health", type: "api", steps: [{ url: `${targetBase}/ok` }] });
    const flow = await create({
      name: "Checkout flow",
      type: "flow",
      steps: [
        { name: "Home", url: `${targetBase}/home` },
        { name: "Pay", url: `${targetBase}/broken` },
      ],
    });
    expect((await owner.post(`${base()}/${api.id}/run`)).status).toBe(200);
    await service.deps.monitors.checkMetrics.flush();

    const up = await rows(
      `SELECT attributes['monitor.id'] AS id, attributes['monitor.name'] AS name,
         attributes['monitor.type'] AS type, attributes['location'] AS location,
         attributes['check.trigger'] AS trigger, value, unit, service_name
       FROM metrics WHERE metric_name = 'vigil.monitor.up' ORDER BY timestamp, trigger`,
    );
    expect(up).toEqual([
      [api.id, "Health", "api", "default", "scheduled", 1, "1", "vigil-monitors"],
      [flow.id, "Checkout flow", "flow", "default", "scheduled", 0, "1", "vigil-monitors"],
      [api.id, "Health", "api", "default", "manual", 1, "1", "vigil-monitors"],
    ]);
    const [failure] = await rows(
      `SELECT attributes['check.failure'] FROM metrics
       WHERE metric_name = 'vigil.monitor.up' AND value = 0`,
    );
    expect(String(failure?.[0])).toMatch(/status_code/);
    const durations = await rows(
      `SELECT attributes['monitor.id'], unit, value >= 0 FROM metrics
       WHERE metric_name = 'vigil.monitor.duration' ORDER BY timestamp`,
    );
    expect(durations).toEqual([
      [api.id, "ms", 1],
      [flow.id, "ms", 1],
      [api.id, "ms", 1],
    ]);
    const steps = await rows(
      `SELECT attributes['step.name'], attributes['step.status'],
         attributes['http.response.status_code']
       FROM metrics WHERE metric_name = 'vigil.monitor.step.duration'
         AND attributes['monitor.id'] = '${flow.id}' ORDER BY attributes['step.index']`,
    );
    expect(steps).toEqual([
      ["Home", "passed", "200"],
      ["Pay", "failed", "503"],
    ]);
    // What the monitors-uptime template charts: uptime per monitor.
    const uptime = await rows(
      `SELECT attributes['monitor.name'] AS monitor, round(100 * avg(value), 1) AS uptime
       FROM metrics WHERE metric_name = 'vigil.monitor.up' GROUP BY monitor ORDER BY monitor`,
    );
    expect(uptime).toEqual([
      ["Checkout flow", 0],
      ["Health", 100],
    ]);
  });

  it("records the check when its points cannot be written, and logs why", async () => {
    const monitor = await create({
      name: "Unwritten",
      type: "api",
      steps: [{ url: `${targetBase}/ok` }],
    });
    const failing = checkMetricsFor({
      ingest: { export: () => Promise.reject(new Error("The ingestion queue is full")) },
      logger: service.deps.logger,
    });
    const outbound = createOutbound(service.deps.config);
    const engine = monitorEngineFor(service.deps.config, {
      ...service.deps.domain,
      logger: service.deps.logger,
      outbound,
      checkMetrics: failing,
    });
    const recorded = await engine.check(monitor.id, "manual");
    await outbound.close();
    expect(recorded?.result.passed).toBe(true);
    await expect(failing.close()).resolves.toBeUndefined();
    expect(service.logs.join("")).toContain("monitor check metrics were not written");
    const results = (await (await owner.get(`${base()}/${monitor.id}/results`)).json()) as {
      data: unknown[];
    };
    expect(results.data).toHaveLength(2);
  });
});
