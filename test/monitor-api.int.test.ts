import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  CheckResultView as CheckResult,
  MonitorView as Monitor,
} from "../src/contracts/monitors.js";
import type { Page, Problem } from "../src/contracts/pagination.js";
import { PRIVATE_URLS } from "./helpers/private-targets.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/** The monitor management API (docs/design.md §4) over HTTP, with the scheduler running for real. */
describe("monitor management API", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let projectId: string;
  let target: Server;
  let targetBase: string;
  let status = 200;
  const seen: IncomingHttpHeaders[] = [];

  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
  const base = () => `/api/projects/${projectId}/monitors`;
  const apiMonitor = (overrides: Record<string, unknown> = {}) => ({
    name: "Health",
    type: "api",
    frequency: "1h",
    steps: [{ url: `${targetBase}/health` }],
    ...overrides,
  });
  /** Creates a monitor and waits for the first check the scheduler runs at once. */
  const create = async (body: Record<string, unknown>): Promise<Monitor> => {
    const response = await owner.post(base(), body);
    const created = await json<Monitor & Pick<Problem, "detail" | "errors">>(response);
    if (response.status !== 201)
      throw new Error(`create ${response.status}: ${JSON.stringify(created)}`);
    let current: Monitor = created;
    for (let i = 0; i < 200 && current.lastResultId === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      current = await json<Monitor>(await owner.get(`${base()}/${created.id}`));
    }
    if (current.lastResultId === null) throw new Error("the first check never ran");
    return created;
  };

  beforeAll(async () => {
    target = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: status === 200 }));
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    targetBase = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    ({ service, owner, viewer, outsider, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    }));
  });
  afterAll(async () => {
    await service?.stop();
    await new Promise((resolve) => target.close(resolve));
    dir.remove();
  });

  it("creates a monitor with the spec's defaults and checks it at once", async () => {
    const monitor = await create(apiMonitor());
    expect(monitor.id).toMatch(/^mon_/);
    expect(monitor).toMatchObject({
      status: "active",
      health: "pending",
      alertAfter: 1,
      timeoutSeconds: 10,
    });
    expect(monitor.steps[0]?.assertions).toEqual([
      { type: "status_code", operator: "equals", value: "200" },
      { type: "response_time", operator: "less_than", value: "3000" },
    ]);
    // The scheduler ran the new monitor's first check right away (create waited for it).
    const current = await json<Monitor>(await owner.get(`${base()}/${monitor.id}`));
    expect(current.health).toBe("passing");
    const results = await json<Page<CheckResult>>(
      await owner.get(`${base()}/${monitor.id}/results`),
    );
    expect(results.data[0]).toMatchObject({ passed: true, trigger: "scheduled" });
    expect(
      seen.some(
        (h) =>
          typeof h.traceparent === "string" &&
          h.traceparent.includes(results.data[0]?.traceId ?? "x"),
      ),
    ).toBe(true);
  });

  it("runs a check on demand, records it and counts it toward the outage logic", async () => {
    const monitor = await create(apiMonitor({ name: "On demand", alertAfter: 2 }));
    status = 503;
    const first = await json<CheckResult>(await owner.post(`${base()}/${monitor.id}/run`));
    expect(first).toMatchObject({ passed: false, trigger: "manual" });
    expect(first.steps[0]).toMatchObject({ status: "failed", statusCode: 503 });
    await owner.post(`${base()}/${monitor.id}/run`);
    const down = await json<Monitor>(await owner.get(`${base()}/${monitor.id}`));
    expect(down.health).toBe("outage");
    expect(down.openIncidentId).toMatch(/^inc_/);
    status = 200;
    const recovered = await json<CheckResult>(await owner.post(`${base()}/${monitor.id}/run`));
    expect(recovered.passed).toBe(true);
    const incidents = await json<Page<{ status: string; durationMs: number; cause: string }>>(
      await owner.get(`${base()}/${monitor.id}/incidents`),
    );
    expect(incidents.data).toHaveLength(1);
    expect(incidents.data[0]?.status).toBe("resolved");
    expect(incidents.data[0]?.cause).toContain("503");
    const failed = await json<Page<CheckResult>>(
      await owner.get(`${base()}/${monitor.id}/results?passed=false`),
    );
    expect(failed.data.map((r) => r.passed)).toEqual([false, false]);
    const all = await json<Page<CheckResult>>(await owner.get(`${base()}/${monitor.id}/results`));
    expect(all.data.map((r) => `${r.trigger}:${r.passed}`)).toEqual([
      "manual:true",
      "manual:false",
      "manual:false",
      "scheduled:true",
    ]);
    const one = await json<CheckResult>(
      await owner.get(`${base()}/${monitor.id}/results/${first.id}`),
    );
    expect(one.id).toBe(first.id);
    const paged = await json<Page<CheckResult>>(
      await owner.get(`${base()}/${monitor.id}/results?limit=1&page=2`),
    );
    expect(paged.data).toHaveLength(1);
    expect(paged.pagination).toMatchObject({ page: 2, limit: 1, hasMore: true });
  });

  it("a transport failure fails the check with the error and no assertions", async () => {
    const monitor = await create(
      apiMonitor({ name: "Refused", steps: [{ url: "http://127.0.0.1:1/" }] }),
    );
    const result = await json<CheckResult>(await owner.post(`${base()}/${monitor.id}/run`));
    expect(result.passed).toBe(false);
    expect(result.steps[0]?.transportError?.code).toBe("refused");
    expect(result.steps[0]?.assertions).toEqual([]);
  });

  it("updates with PATCH keeping omitted fields, pauses and resumes", async () => {
    const monitor = await create(apiMonitor({ name: "Editable", frequency: "5m", alertAfter: 3 }));
    const renamed = await json<Monitor>(
      await owner.patch(`${base()}/${monitor.id}`, { name: "Renamed" }),
    );
    expect(renamed).toMatchObject({ name: "Renamed", frequency: "5m", alertAfter: 3 });
    const paused = await json<Monitor>(await owner.post(`${base()}/${monitor.id}/pause`));
    expect(paused.status).toBe("paused");
    const resumed = await json<Monitor>(await owner.post(`${base()}/${monitor.id}/resume`));
    expect(resumed).toMatchObject({ status: "active", failureStreak: 0 });
    const bad = await owner.patch(`${base()}/${monitor.id}`, { type: "flow", steps: [] });
    expect(bad.status).toBe(400);
  });

  it("refuses invalid monitors with 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string, string?][] = [
      [apiMonitor({ type: "browser" }), "type", "coming soon"],
      [apiMonitor({ type: "e2e" }), "type", "coming soon"],
      [apiMonitor({ frequency: "2m" }), "frequency"],
      [apiMonitor({ timeoutSeconds: 61 }), "timeoutSeconds"],
      [apiMonitor({ timeoutSeconds: 0 }), "timeoutSeconds"],
      [apiMonitor({ locations: ["eu-west"] }), "locations.0"],
      [apiMonitor({ steps: [{ url: targetBase }, { url: targetBase }] }), "steps"],
      [
        apiMonitor({
          type: "flow",
          steps: Array.from({ length: 21 }, () => ({ url: targetBase })),
        }),
        "steps",
      ],
      [apiMonitor({ steps: [{ url: targetBase, method: "GET", body: "x" }] }), "steps.0.body"],
      [
        apiMonitor({
          steps: [
            {
              url: targetBase,
              assertions: [{ type: "response_time", operator: "equals", value: "1" }],
            },
          ],
        }),
        "steps.0.assertions.0.operator",
      ],
      [
        apiMonitor({
          steps: [
            {
              url: targetBase,
              assertions: [{ type: "body_not_contains", operator: "not_contains", value: "x" }],
            },
          ],
        }),
        "steps.0.assertions.0.operator",
      ],
      [
        apiMonitor({
          steps: [
            {
              url: targetBase,
              assertions: [{ type: "json_path", path: "$..id", operator: "equals", value: "1" }],
            },
          ],
        }),
        "steps.0.assertions.0.path",
        "recursive descent",
      ],
      [
        apiMonitor({
          steps: [
            {
              url: targetBase,
              assertions: Array.from({ length: 51 }, () => ({
                type: "status_code",
                operator: "equals",
                value: "200",
              })),
            },
          ],
        }),
        "steps.0.assertions",
      ],
      [apiMonitor({ channelIds: ["chn_doesnotexist"] }), "channelIds.0", "no notification channel"],
      [apiMonitor({ surprise: true }), "surprise"],
    ];
    for (const [body, field, text] of cases) {
      const response = await owner.post(base(), body);
      const problem = await json<Problem>(response);
      expect(response.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(
        problem.errors?.map((e) => e.field),
        JSON.stringify(problem),
      ).toContain(field);
      if (text) expect(JSON.stringify(problem)).toContain(text);
    }
  });

  it("a viewer reads but cannot change; another organization sees nothing", async () => {
    const monitor = await create(apiMonitor({ name: "Guarded" }));
    expect((await viewer.get(`${base()}/${monitor.id}`)).status).toBe(200);
    expect((await viewer.get(`${base()}/${monitor.id}/results`)).status).toBe(200);
    expect((await viewer.post(base(), apiMonitor())).status).toBe(403);
    expect((await viewer.post(`${base()}/${monitor.id}/run`)).status).toBe(403);
    expect((await viewer.post(`${base()}/${monitor.id}/pause`)).status).toBe(403);
    expect((await viewer.patch(`${base()}/${monitor.id}`, { name: "x" })).status).toBe(403);
    expect((await viewer.delete(`${base()}/${monitor.id}`)).status).toBe(403);
    for (const path of [
      base(),
      `${base()}/${monitor.id}`,
      `${base()}/${monitor.id}/results`,
      `${base()}/${monitor.id}/incidents`,
    ])
      expect((await outsider.get(path)).status).toBe(404);
    expect((await outsider.post(`${base()}/${monitor.id}/run`)).status).toBe(404);
  });

  it("needs a session and a same-origin Origin on writes", async () => {
    expect((await service.fetch(base())).status).toBe(401);
    const crossSite = await service.fetch(base(), {
      method: "POST",
      headers: {
        cookie: owner.cookie,
        origin: "https://evil.example",
        "content-type": "application/json",
      },
      body: JSON.stringify(apiMonitor()),
    });
    expect(crossSite.status).toBe(403);
  });

  it("uses only the project's own channels and lists a monitor's notifications on its incidents", async () => {
    const channel = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/channels`, {
        name: "events",
        type: "webhook",
        settings: {},
      }),
    );
    const monitor = await create(apiMonitor({ name: "Notifying", channelIds: [channel.id] }));
    expect(monitor.channelIds).toEqual([channel.id]);
    status = 500;
    await owner.post(`${base()}/${monitor.id}/run`);
    status = 200;
    await owner.post(`${base()}/${monitor.id}/run`);
    const events = async () =>
      (
        await json<Page<{ notifications: { event: string; status: string }[] }>>(
          await owner.get(`${base()}/${monitor.id}/incidents`),
        )
      ).data[0]?.notifications ?? [];
    let notifications = await events();
    for (let i = 0; i < 100 && notifications.some((n) => n.status !== "sent"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      notifications = await events();
    }
    expect(notifications.map((n) => `${n.event}:${n.status}`).sort()).toEqual([
      "monitor.down:sent",
      "monitor.recovered:sent",
    ]);
    const metrics = await (await service.fetch("/metrics")).text();
    expect(metrics).toMatch(
      /vigil_monitor_checks_total\{trigger="manual",outcome="failed"\} [1-9]/,
    );
    expect(metrics).toMatch(/vigil_monitor_transitions_total\{kind="recovered"\} [1-9]/);
    expect(metrics).toMatch(/vigil_notification_deliveries_total\{outcome="sent"\} [1-9]/);
    expect(metrics).toContain("vigil_monitor_schedule_lag_seconds_count");
    // The channel cannot go while a monitor uses it.
    expect((await owner.delete(`/api/projects/${projectId}/channels/${channel.id}`)).status).toBe(
      409,
    );
  });

  it("shows each monitor's last check without its steps, in the list and on each verb", async () => {
    const monitor = await create(apiMonitor({ name: "Last result" }));
    status = 500;
    const failed = await json<CheckResult>(await owner.post(`${base()}/${monitor.id}/run`));
    status = 200;
    const list = await json<Page<Monitor>>(await owner.get(`${base()}?limit=1000`));
    const listed = list.data.find((m) => m.id === monitor.id);
    expect(listed?.lastResult).toEqual({
      id: failed.id,
      startedAt: expect.any(String),
      durationMs: failed.durationMs,
      passed: false,
    });
    const paused = await json<Monitor>(await owner.post(`${base()}/${monitor.id}/pause`));
    expect(paused.lastResult?.id).toBe(failed.id);
    const passed = await json<CheckResult>(await owner.post(`${base()}/${monitor.id}/run`));
    const one = await json<Monitor>(await owner.get(`${base()}/${monitor.id}`));
    expect(one.lastResult).toMatchObject({ id: passed.id, passed: true });
    const created = await json<Monitor>(await owner.post(base(), apiMonitor({ name: "Fresh" })));
    expect(created.lastResult).toBeNull();
  });

  it("lists monitors with the envelope and deletes one with its history", async () => {
    const monitor = await create(apiMonitor({ name: "Doomed" }));
    await owner.post(`${base()}/${monitor.id}/run`);
    const list = await json<Page<Monitor>>(await owner.get(`${base()}?limit=1000`));
    expect(list.data.some((m) => m.id === monitor.id)).toBe(true);
    expect(list.pagination.total).toBe(list.data.length);
    expect((await owner.delete(`${base()}/${monitor.id}`)).status).toBe(204);
    expect((await owner.get(`${base()}/${monitor.id}`)).status).toBe(404);
    expect((await owner.get(`${base()}/${monitor.id}/results`)).status).toBe(404);
    expect(await service.deps.meta.repos.monitorResults.count({ monitorId: monitor.id })).toBe(0);
  });

  it("saves private targets when VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS is on", async () => {
    for (const url of PRIVATE_URLS) {
      const response = await owner.post(
        base(),
        apiMonitor({ name: `Private ${url}`, timeoutSeconds: 1, steps: [{ url }] }),
      );
      const created = await json<Monitor & Pick<Problem, "detail" | "errors">>(response);
      expect(response.status, created.detail).toBe(201);
      expect((await owner.delete(`${base()}/${created.id}`)).status).toBe(204);
    }
  });

  it("appears in the OpenAPI document", async () => {
    const doc = await json<{ paths: Record<string, unknown> }>(
      await service.fetch("/openapi.json"),
    );
    for (const path of [
      "/api/projects/{projectId}/monitors",
      "/api/projects/{projectId}/monitors/{monitorId}",
      "/api/projects/{projectId}/monitors/{monitorId}/run",
      "/api/projects/{projectId}/monitors/{monitorId}/results",
      "/api/projects/{projectId}/monitors/{monitorId}/incidents",
    ])
      expect(doc.paths[path], path).toBeDefined();
  });
});

// A second service, started after the first one stopped (chDB allows one data directory per
// process), with the SSRF guard on as it is by default; nothing is scheduled.
