import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  DashboardTemplateView,
  DashboardView,
  PanelQueryResult,
} from "../src/contracts/dashboards.js";
import type { MonitorView } from "../src/contracts/monitors.js";
import type { Problem } from "../src/contracts/pagination.js";
import { DASHBOARD_TEMPLATES, type ParsedTemplate } from "../src/dashboards/templates/index.js";
import { demoRequests } from "../src/demo/generator.js";
import { sendAll } from "../src/demo/sender.js";
import { addKey } from "./helpers/projects.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/**
 * The templates on the demo dataset (and a monitor's checks): every panel and variable query runs
 * on the engine with the dashboard's window and variables bound, the service overview's and
 * host metrics' panels all have rows, and the gallery's API lists and installs them.
 */
describe("dashboard templates on demo data", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let projectId: string;
  let target: Server;
  const nowMs = Date.now();
  const window = {
    from: new Date(nowMs - 2 * 3600_000).toISOString(),
    to: new Date(nowMs + 60_000).toISOString(),
    bucket_seconds: 24,
  };

  const run = (text: string, parameters: Record<string, unknown>) =>
    service.deps.tql.query(projectId, text, { parameters, waitForTurn: true });

  /** The window and every variable at "All": each query variable's values from its own query. */
  async function parametersOf(template: ParsedTemplate) {
    const parameters: Record<string, unknown> = { ...window };
    for (const variable of template.dashboard.variables) {
      if (variable.type !== "query") continue;
      const result = await run(variable.tql, parameters);
      parameters[variable.name] = result.rows.map((row) => String(row[0]));
    }
    return parameters;
  }

  /** Rows per panel (summed over its queries) of one template on the project's data. */
  async function rowsByPanel(template: ParsedTemplate) {
    const parameters = await parametersOf(template);
    const counts: Record<string, number> = {};
    for (const panel of template.dashboard.panels) {
      let rows = 0;
      for (const query of panel.queries) {
        const result = await run(query.tql, parameters).catch((error: Error) => {
          throw new Error(`${template.id}/${panel.id}: ${error.message}`);
        });
        rows += result.rows.length;
      }
      counts[panel.id ?? panel.title] = rows;
    }
    return { parameters, counts };
  }

  const template = (id: string) => {
    const found = DASHBOARD_TEMPLATES.find((t) => t.id === id);
    if (!found) throw new Error(`no template ${id}`);
    return found;
  };

  beforeAll(async () => {
    target = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    ({ service, owner, viewer, outsider, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_RATE_LIMIT_PER_MINUTE: "10000",
    }));
    const key = await addKey(service, projectId, { name: "demo", role: "ingest" });
    const requests = demoRequests({ spans: 3000, batchSpans: 1000, windowMs: 3600_000, nowMs });
    await sendAll(requests, { url: service.url, key, concurrency: 2 });
    const response = await owner.post(`/api/projects/${projectId}/monitors`, {
      name: "Homepage",
      type: "api",
      frequency: "1h",
      steps: [{ url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` }],
    });
    const monitor = (await response.json()) as MonitorView;
    await owner.post(`/api/projects/${projectId}/monitors/${monitor.id}/run`);
    await service.deps.monitors.engine.idle();
    await service.deps.monitors.checkMetrics.flush();
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await new Promise((resolve) => target.close(resolve));
    dir.remove();
  });

  it("runs every panel of every template without an error", async () => {
    for (const t of DASHBOARD_TEMPLATES) {
      const { counts } = await rowsByPanel(t);
      expect(Object.keys(counts).length, t.id).toBe(t.dashboard.panels.length);
    }
  }, 120_000);

  it("fills every panel of the service overview and host metrics with the demo's data", async () => {
    for (const id of ["service-overview", "host-metrics"]) {
      const { parameters, counts } = await rowsByPanel(template(id));
      const variable = id === "service-overview" ? "service" : "host";
      expect((parameters[variable] as string[]).length, id).toBeGreaterThanOrEqual(2);
      for (const [panel, rows] of Object.entries(counts))
        expect(rows, `${id}/${panel}`).toBeGreaterThan(0);
    }
  }, 60_000);

  it("narrows the service overview to the services chosen", async () => {
    const overview = template("service-overview");
    const rates = overview.dashboard.panels.find((p) => p.id === "rate-by-service");
    const all = await run(rates?.queries[0]?.tql ?? "", await parametersOf(overview));
    const one = await run(rates?.queries[0]?.tql ?? "", { ...window, service: ["api-gateway"] });
    const services = (rows: unknown[][]) => [...new Set(rows.map((r) => r[1]))];
    expect(services(all.rows).length).toBeGreaterThan(1);
    expect(services(one.rows)).toEqual(["api-gateway"]);
  });

  it("charts the demo's hosts as the hostmetrics receiver reports them", async () => {
    const hosts = template("host-metrics");
    const table = hosts.dashboard.panels.find((p) => p.id === "hosts");
    const result = await run(table?.queries[0]?.tql ?? "", await parametersOf(hosts));
    const byHost = new Map(result.rows.map((row) => [String(row[0]), row.slice(1).map(Number)]));
    expect([...byHost.keys()].sort()).toEqual([
      "api-gateway-1",
      "assistant-1",
      "db-1",
      "orders-service-1",
    ]);
    const [cpu = 0, memory = 0, disk = 0, load = 0] = byHost.get("db-1") ?? [];
    expect(cpu).toBeGreaterThan(0.5);
    expect(cpu).toBeLessThan(1);
    expect(memory).toBeGreaterThan(0.7);
    expect(disk).toBeCloseTo(0.91, 2);
    expect(load).toBeGreaterThan(1);
  });

  it("charts the monitor's checks and the assistant's LLM calls", async () => {
    for (const id of ["monitors-uptime", "ai-usage"]) {
      const { counts } = await rowsByPanel(template(id));
      const empty = Object.entries(counts).filter(
        ([panel, rows]) => rows === 0 && !/fail/.test(panel),
      );
      expect(empty, id).toEqual([]);
    }
  }, 60_000);

  it("lists the templates with whether the project has their data", async () => {
    const response = await viewer.get(`/api/projects/${projectId}/dashboard-templates`);
    expect(response.status).toBe(200);
    const views = (await response.json()) as DashboardTemplateView[];
    expect(views.map((v) => [v.id, v.hasData])).toEqual([
      ["service-overview", true],
      ["host-metrics", true],
      ["runtime", false],
      ["ai-usage", true],
      ["monitors-uptime", true],
    ]);
    expect(views[0]?.panelCount).toBe(template("service-overview").dashboard.panels.length);
    expect(views[2]?.howToSend).toContain("nodejs.eventloop");
    expect((await outsider.get(`/api/projects/${projectId}/dashboard-templates`)).status).toBe(404);
  });

  it("installs a template as an ordinary dashboard of the project", async () => {
    const base = `/api/projects/${projectId}/dashboard-templates`;
    const response = await owner.post(`${base}/service-overview/install`, {});
    expect(response.status).toBe(201);
    const installed = (await response.json()) as DashboardView;
    const source = template("service-overview").dashboard;
    expect(installed).toMatchObject({
      id: expect.stringMatching(/^dsh_/),
      projectId,
      title: "Service overview",
      templateId: "service-overview",
      version: 1,
      variables: source.variables,
    });
    expect(installed.panels.map((p) => p.id)).toEqual(source.panels.map((p) => p.id));
    // Each panel of the installed dashboard answers rows through the dashboards' query endpoint.
    const services = (await parametersOf(template("service-overview"))).service;
    for (const panel of installed.panels) {
      const answer = await owner.post(`/api/projects/${projectId}/v1/dashboards/query`, {
        tql: panel.queries[0]?.tql,
        variables: { service: services },
        timeRange: "3h",
      });
      expect(answer.status, panel.id).toBe(200);
      expect(((await answer.json()) as PanelQueryResult).rows.length, panel.id).toBeGreaterThan(0);
    }
    const named = await owner.post(`${base}/host-metrics/install`, { title: "Hosts (prod)" });
    expect(((await named.json()) as DashboardView).title).toBe("Hosts (prod)");
    const fetched = await owner.get(`/api/projects/${projectId}/dashboards/${installed.id}`);
    expect(((await fetched.json()) as DashboardView).templateId).toBe("service-overview");

    const unknown = await owner.post(`${base}/no-such-template/install`, {});
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Problem).detail).toContain("no-such-template");
    const bad = await owner.post(`${base}/runtime/install`, { title: "" });
    expect(bad.status).toBe(400);
    expect((await viewer.post(`${base}/runtime/install`, {})).status).toBe(403);
    expect((await outsider.post(`${base}/runtime/install`, {})).status).toBe(404);
  });
});
