import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckResultView, MonitorView } from "../src/contracts/monitors.js";
import type { Page } from "../src/contracts/pagination.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/**
 * Heartbeat pings over HTTP (docs/heartbeats.md) on a fake clock: every ping kind, /start timing,
 * a failure's body, exit codes, pause, the answers for unknown tokens, and no token in the logs.
 */
describe("heartbeat pings", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;
  let nowMs = Date.now();
  const clock = { now: () => new Date(nowMs) };

  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
  const base = () => `/api/projects/${projectId}/monitors`;
  const tokenOf = (monitor: MonitorView) =>
    new URL(monitor.pingUrl ?? "").pathname.split("/")[2] ?? "";
  async function createHeartbeat(overrides: Record<string, unknown> = {}): Promise<MonitorView> {
    const response = await owner.post(base(), {
      name: "Nightly job",
      type: "heartbeat",
      period: "1h",
      grace: "5m",
      ...overrides,
    });
    const body = await json<MonitorView>(response);
    if (response.status !== 201)
      throw new Error(`create ${response.status}: ${JSON.stringify(body)}`);
    return body;
  }
  const results = async (monitorId: string) =>
    (await json<Page<CheckResultView>>(await owner.get(`${base()}/${monitorId}/results`))).data;
  const monitor = async (monitorId: string) =>
    json<MonitorView>(await owner.get(`${base()}/${monitorId}`));
  const ping = (path: string, init?: RequestInit) => service.fetch(`/ping/${path}`, init);

  beforeAll(async () => {
    ({ service, owner, projectId } = await startWithRoles(dir.path, {}, { clock }));
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("creates a heartbeat with its absolute ping URL, target and no frequency", async () => {
    const created = await createHeartbeat();
    expect(created).toMatchObject({
      type: "heartbeat",
      period: "1h",
      grace: "5m",
      frequency: null,
      target: "heartbeat every 1h (+5m)",
      lastPingAt: null,
      health: "pending",
      steps: [],
    });
    expect(created.pingUrl).toMatch(new RegExp(`^${service.url}/ping/[A-Za-z0-9_-]{43}$`));
    // The URL is shown again on every read, and each heartbeat has its own.
    expect((await monitor(created.id)).pingUrl).toBe(created.pingUrl);
    expect((await createHeartbeat()).pingUrl).not.toBe(created.pingUrl);
  });

  it("draws the ping URL from the request's origin when VIGIL_PUBLIC_URL is not set", async () => {
    const created = await createHeartbeat();
    const { port } = new URL(service.url);
    // As a browser reaching the server by another name (a proxy, a LAN name) would ask.
    const body = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path: `${base()}/${created.id}`,
          headers: { host: `vigil.example:${port}`, cookie: owner.cookie },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            text += chunk;
          });
          response.on("end", () => resolve(text));
        },
      );
      request.on("error", reject);
      request.end();
    });
    const seen = JSON.parse(body) as MonitorView;
    expect(seen.pingUrl).toBe(
      created.pingUrl?.replace(service.url, `http://vigil.example:${port}`),
    );
  });

  it("records a success ping for GET, POST and HEAD with a plain OK", async () => {
    const heartbeat = await createHeartbeat();
    const token = tokenOf(heartbeat);
    for (const method of ["GET", "POST", "HEAD"]) {
      const response = await ping(token, { method });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(response.headers.get("cache-control")).toBe("no-store");
      if (method !== "HEAD") expect(await response.text()).toBe("OK");
    }
    const recorded = await results(heartbeat.id);
    expect(recorded).toHaveLength(3);
    expect(recorded[0]).toMatchObject({ trigger: "ping", passed: true });
    expect(recorded[0]?.steps[0]).toMatchObject({
      method: "PING",
      url: "heartbeat every 1h (+5m)",
      statusCode: null,
      assertions: [{ type: "heartbeat", expected: "success", actual: "success", passed: true }],
    });
    const after = await monitor(heartbeat.id);
    expect(after).toMatchObject({ health: "passing", lastPingAt: clock.now().toISOString() });
  });

  it("times a job from /start to its success ping", async () => {
    const heartbeat = await createHeartbeat();
    const token = tokenOf(heartbeat);
    const started = nowMs;
    expect((await ping(`${token}/start`)).status).toBe(200);
    // A start records no check.
    expect(await results(heartbeat.id)).toHaveLength(0);
    nowMs += 4200;
    expect((await ping(token, { method: "POST", body: "done: 12 files" })).status).toBe(200);
    const [result] = await results(heartbeat.id);
    expect(result).toMatchObject({
      passed: true,
      durationMs: 4200,
      startedAt: new Date(started).toISOString(),
    });
    expect(result?.steps[0]?.responseBody).toBe("done: 12 files");
    // The next ping without a start takes no time.
    nowMs += 1000;
    await ping(token);
    expect((await results(heartbeat.id))[0]?.durationMs).toBe(0);
  });

  it("records a failure with its body, opens the outage, and a success ends it", async () => {
    const heartbeat = await createHeartbeat({ alertAfter: 1 });
    const token = tokenOf(heartbeat);
    const body = `backup failed: disk full\n${"x".repeat(20 * 1024)}`;
    const failed = await ping(`${token}/fail`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(failed.status).toBe(200);
    const [result] = await results(heartbeat.id);
    expect(result).toMatchObject({ trigger: "ping", passed: false });
    expect(result?.steps[0]).toMatchObject({
      status: "failed",
      responseBodyTruncated: true,
      assertions: [{ type: "heartbeat", expected: "success", actual: "fail", passed: false }],
    });
    expect(result?.steps[0]?.responseBody?.startsWith("backup failed: disk full")).toBe(true);
    // Over 64 KB the ping is refused and records nothing.
    const huge = await ping(`${token}/fail`, { method: "POST", body: "y".repeat(70 * 1024) });
    expect(huge.status).toBe(413);
    expect(await results(heartbeat.id)).toHaveLength(1);
    expect(Buffer.byteLength(result?.steps[0]?.responseBody ?? "")).toBe(10 * 1024);
    const down = await monitor(heartbeat.id);
    expect(down.health).toBe("outage");
    expect(down.openIncidentId).not.toBeNull();

    expect((await ping(`${token}/0`)).status).toBe(200);
    const up = await monitor(heartbeat.id);
    expect(up).toMatchObject({ health: "passing", openIncidentId: null });
    const incidents = await json<Page<{ status: string }>>(
      await owner.get(`${base()}/${heartbeat.id}/incidents`),
    );
    expect(incidents.data).toMatchObject([{ status: "resolved" }]);
  });

  it("reads exit codes: 0 passes, 1–255 fail, others are refused", async () => {
    const heartbeat = await createHeartbeat({ alertAfter: 5 });
    const token = tokenOf(heartbeat);
    expect((await ping(`${token}/3`)).status).toBe(200);
    expect((await ping(`${token}/255`)).status).toBe(200);
    expect((await ping(`${token}/0`)).status).toBe(200);
    const recorded = (await results(heartbeat.id)).reverse();
    expect(recorded.map((r) => [r.passed, r.steps[0]?.assertions[0]?.actual])).toEqual([
      [false, "exit code 3"],
      [false, "exit code 255"],
      [true, "exit code 0"],
    ]);
    for (const code of ["256", "-1", "abc", "1000"])
      expect((await ping(`${token}/${code}`)).status).toBeGreaterThanOrEqual(400);
    expect(await results(heartbeat.id)).toHaveLength(3);
  });

  it("answers the same plain 404 for unknown and malformed tokens", async () => {
    const unknown = await ping("A".repeat(43));
    const malformed = await ping("not-a-token/fail", { method: "POST", body: "x" });
    for (const response of [unknown, malformed]) {
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await response.text()).toBe("not found");
    }
  });

  it("ignores pings while paused and waits a whole period again after resume", async () => {
    const heartbeat = await createHeartbeat();
    const token = tokenOf(heartbeat);
    await owner.post(`${base()}/${heartbeat.id}/pause`);
    const response = await ping(token);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("OK");
    expect(await results(heartbeat.id)).toHaveLength(0);
    expect((await monitor(heartbeat.id)).lastPingAt).toBeNull();
    await owner.post(`${base()}/${heartbeat.id}/resume`);
    await ping(token);
    expect(await results(heartbeat.id)).toHaveLength(1);
  });

  it("documents the ping routes in the OpenAPI document", async () => {
    const document = await json<{ paths: Record<string, Record<string, unknown>> }>(
      await service.fetch("/openapi.json"),
    );
    for (const path of [
      "/ping/{token}",
      "/ping/{token}/start",
      "/ping/{token}/fail",
      "/ping/{token}/{code}",
    ])
      expect(Object.keys(document.paths[path] ?? {})).toEqual(
        expect.arrayContaining(["get", "post"]),
      );
  });

  it("never writes a token to the log", async () => {
    const heartbeat = await createHeartbeat();
    const token = tokenOf(heartbeat);
    await ping(token);
    await ping(`${token}/fail`);
    expect(service.logs.some((line) => line.includes(token))).toBe(false);
    expect(service.logs.some((line) => line.includes('"route":"/ping/:token/fail"'))).toBe(true);
  });
});
