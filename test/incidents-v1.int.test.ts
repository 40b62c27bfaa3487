import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncidentDetailView } from "../src/contracts/incidents.js";
import { addKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";
import {
  addReceiverEndpoint,
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

const OWNER = { email: "v1-inc-owner@example.com", password: "correct horse battery" };

type Incident = IncidentDetailView;
interface MonitorIncident {
  id: string;
  monitorId: string;
  status: string;
  startedAt: string;
  resolvedAt: string | null;
  durationMs: number | null;
  cause: string;
  openedByResultId: string;
  closedByResultId: string | null;
  notifications: { event: string }[];
}
interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; hasMore: boolean };
}
interface Dashboard {
  from: string;
  to: string;
  bucketSeconds: number;
  opened: number;
  resolved: number;
  open: number;
  meanTimeToResolveMs: number | null;
  bySeverity: Record<string, number>;
  bySource: Record<string, number>;
  series: { time: string; opened: number; resolved: number }[];
}

const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

/** /v1/incidents* with an API key, and monitor outages as incidents (history, /v1, webhooks). */
describe("/v1 incidents and monitor outages as incidents", () => {
  const dir = makeTempDir();
  let service: TestService;
  let receiver: WebhookReceiver;
  let target: Server;
  let targetUrl: string;
  let status = 503;
  let owner: Awaited<ReturnType<typeof signIn>>;
  let projectId: string;
  let key: string;
  let webhook: Webhook;
  const endpointId = "whe_v1_incidents";

  const v1 = (path: string) => service.fetch(path, { headers: { "x-api-key": key } });
  const monitors = () => `/api/projects/${projectId}/monitors`;
  const run = async (monitorId: string) => {
    const response = await owner.post(`${monitors()}/${monitorId}/run`);
    expect(response.status).toBe(200);
    return json<{ id: string; passed: boolean; startedAt: string }>(response);
  };
  const history = async (monitorId: string) =>
    json<Page<MonitorIncident>>(await owner.get(`${monitors()}/${monitorId}/incidents`));

  beforeAll(async () => {
    target = createServer((_req, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
    receiver = await startWebhookReceiver();
    service = await startTestService(dir.path, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
      // Checks run only on request, so each transition is the test's doing.
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_CA_FILE: TEST_CA_FILE,
    });
    owner = await signIn(service, OWNER.email, OWNER.password);
    projectId =
      (await json<Page<{ id: string }>>(await owner.get("/api/projects"))).data[0]?.id ?? "";
    key = await addKey(service, projectId, { name: "reader", role: "read_only" });
    webhook = await addReceiverEndpoint(service, {
      id: endpointId,
      projectId,
      url: `${receiver.url}/incidents`,
      events: ["incident.created", "incident.resolved"],
    });
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await new Promise((resolve) => target.close(resolve));
    dir.remove();
  });

  it("a monitor outage is an incident with source monitor: in /v1, in the monitor's history, and as signed webhooks", async () => {
    const channel = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/channels`, {
        name: "events",
        type: "webhook",
        settings: {},
      }),
    );
    const monitor = await json<{ id: string }>(
      await owner.post(monitors(), {
        name: "Checkout",
        type: "api",
        frequency: "1h",
        channelIds: [channel.id],
        steps: [{ url: targetUrl }],
      }),
    );
    status = 503;
    const down = await run(monitor.id);
    const list = await json<Page<Incident>>(await v1("/v1/incidents?source=monitor"));
    expect(list.data).toHaveLength(1);
    const [incident] = list.data;
    expect(incident).toMatchObject({
      projectId,
      title: "Checkout is down",
      status: "active",
      severity: "high",
      source: "monitor",
      sourceId: monitor.id,
      startedAt: down.startedAt,
    });
    expect(incident?.cause).toContain("503");
    const current = await json<{ openIncidentId: string }>(
      await owner.get(`${monitors()}/${monitor.id}`),
    );
    expect(current.openIncidentId).toBe(incident?.id);

    status = 200;
    const up = await run(monitor.id);
    const detail = await json<Incident>(await v1(`/v1/incidents/${incident?.id}`));
    expect(detail).toMatchObject({ status: "resolved", resolvedAt: up.startedAt });
    expect(detail.durationMs).toBe(Date.parse(up.startedAt) - Date.parse(down.startedAt));
    expect(detail.timeline.map((e) => e.type)).toEqual([
      "opened",
      "monitor_down",
      "notified",
      "monitor_recovered",
      "resolved",
      "notified",
    ]);
    expect(
      detail.timeline.every((e) => e.actor.kind === "monitor" && e.actor.id === monitor.id),
    ).toBe(true);
    expect(detail.timeline[1]?.data).toEqual({ resultId: down.id });
    expect(detail.updates).toEqual([]);

    // The monitor's history keeps its shape, built from the same incident.
    const outages = await history(monitor.id);
    expect(outages.data).toEqual([
      expect.objectContaining({
        id: incident?.id,
        monitorId: monitor.id,
        status: "resolved",
        startedAt: down.startedAt,
        resolvedAt: up.startedAt,
        durationMs: detail.durationMs,
        openedByResultId: down.id,
        closedByResultId: up.id,
      }),
    ]);
    // One name for the end of an incident: /v1/incidents' resolvedAt, never endedAt.
    expect(outages.data[0]).not.toHaveProperty("endedAt");
    expect(outages.data[0]?.resolvedAt).toBe(detail.resolvedAt);
    expect(outages.data[0]?.notifications.map((n) => n.event).sort()).toEqual([
      "monitor.down",
      "monitor.recovered",
    ]);

    // incident.created and incident.resolved, with their stable ids, signed.
    await receiver.waitFor(2);
    const { webhookDeliveries } = service.deps.meta.repos;
    // The receiver has answered; the attempts are recorded just after (the recorder batches).
    let attempts = await webhookDeliveries.listAttempts(endpointId, 50);
    for (let i = 0; attempts.length < 2 && i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      attempts = await webhookDeliveries.listAttempts(endpointId, 50);
    }
    const eventIds = await Promise.all(
      attempts.map(async (a) => (await webhookDeliveries.findById(a.deliveryId))?.eventId),
    );
    expect(eventIds.sort()).toEqual([
      `incident.created:${incident?.id}`,
      `incident.resolved:${incident?.id}:${Date.parse(up.startedAt)}`,
    ]);
    const bodies = receiver.requests.map(
      (r) =>
        webhook.verify(r.body, r.headers as Record<string, string>) as {
          event: string;
          data: Record<string, unknown>;
        },
    );
    expect(bodies.map((b) => b.event).sort()).toEqual(["incident.created", "incident.resolved"]);
    for (const body of bodies)
      expect(body.data).toMatchObject({
        incidentId: incident?.id,
        projectId,
        source: "monitor",
        sourceId: monitor.id,
        ruleId: null,
      });
  });

  it("a monitor incident resolved by hand still ends with the recovery; reopening is only for its latest incident while it is down", async () => {
    const monitor = await json<{ id: string }>(
      await owner.post(monitors(), {
        name: "Search",
        type: "api",
        frequency: "1h",
        steps: [{ url: targetUrl }],
      }),
    );
    status = 503;
    await run(monitor.id);
    const [first] = (await history(monitor.id)).data;
    const incidents = `/api/projects/${projectId}/incidents`;
    const resolved = await json<Incident>(
      await owner.post(`${incidents}/${first?.id}/resolve`, {}),
    );
    expect(resolved.status).toBe("resolved");
    expect(resolved.timeline.at(-1)).toMatchObject({ type: "resolved", actor: { kind: "user" } });

    status = 200;
    const up = await run(monitor.id);
    const after = await json<Incident>(await v1(`/v1/incidents/${first?.id}`));
    expect(after.timeline.at(-1)).toMatchObject({
      type: "monitor_recovered",
      data: { resultId: up.id },
    });
    expect((await history(monitor.id)).data[0]?.closedByResultId).toBe(up.id);

    status = 503;
    await run(monitor.id);
    const outages = (await history(monitor.id)).data;
    expect(outages.map((o) => o.status)).toEqual(["active", "resolved"]);
    const conflict = await owner.post(`${incidents}/${first?.id}/reopen`, {});
    expect(conflict.status).toBe(409);
    expect(await conflict.text()).toContain(outages[0]?.id ?? "?");
    status = 200;
    await run(monitor.id);
    // Recovered: neither its older nor its latest incident can be reopened (nothing would
    // resolve them, and the next outage would adopt them).
    const older = await owner.post(`${incidents}/${first?.id}/reopen`, {});
    expect(older.status).toBe(409);
    expect(await older.text()).toContain("later incident");
    const latest = await owner.post(`${incidents}/${outages[0]?.id}/reopen`, {});
    expect(latest.status).toBe(409);
    expect(await latest.text()).toContain("not in an outage");

    // While down, its latest incident resolved by hand can be reopened; the recovery ends it.
    status = 503;
    await run(monitor.id);
    const [current] = (await history(monitor.id)).data;
    await owner.post(`${incidents}/${current?.id}/resolve`, {});
    const reopened = await owner.post(`${incidents}/${current?.id}/reopen`, {});
    expect(reopened.status).toBe(200);
    status = 200;
    await run(monitor.id);
    const ended = await json<Incident>(await v1(`/v1/incidents/${current?.id}`));
    expect(ended.status).toBe("resolved");
    expect(ended.timeline.slice(-2).map((e) => e.type)).toEqual(["monitor_recovered", "resolved"]);
  });

  it("lists with filters, sorting and the shared envelope; rejects unknown parameters naming them", async () => {
    const incidents = `/api/projects/${projectId}/incidents`;
    await owner.post(incidents, { title: "Manual low", severity: "low", message: "Looking" });
    await owner.post(incidents, { title: "Manual critical", severity: "critical" });
    const all = await json<Page<Incident>>(await v1("/v1/incidents?limit=1000"));
    const starts = all.data.map((i) => i.startedAt);
    expect([...starts].sort().reverse()).toEqual(starts);
    const critical = await json<Page<Incident>>(await v1("/v1/incidents?severity=critical"));
    expect(critical.data.map((i) => i.title)).toEqual(["Manual critical"]);
    const active = await json<Page<Incident>>(
      await v1("/v1/incidents?status=active&source=manual"),
    );
    expect(active.data.every((i) => i.status === "active" && i.source === "manual")).toBe(true);
    const bySeverity = await json<Page<Incident>>(
      await v1("/v1/incidents?sort_by=severity&sort_order=desc&limit=1"),
    );
    expect(bySeverity.data[0]?.severity).toBe("critical");
    expect(bySeverity.pagination).toMatchObject({
      page: 1,
      limit: 1,
      total: all.pagination.total,
      hasMore: true,
    });
    const window = await json<Page<Incident>>(
      await v1(
        `/v1/incidents?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&to=${Date.now() + 120_000}`,
      ),
    );
    // Only still-open incidents were open during a window in the future.
    expect(window.data.every((i) => i.status === "active")).toBe(true);
    for (const [query, field] of [
      ["status=open", "status"],
      ["severity=huge", "severity"],
      ["source=pager", "source"],
      ["sort_by=title", "sort_by"],
      ["colour=red", "colour"],
    ]) {
      const response = await v1(`/v1/incidents?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.text()).toContain(field);
    }
    expect((await v1("/v1/incidents/inc_nope")).status).toBe(404);

    const detail = await json<Incident>(
      await v1(`/v1/incidents/${all.data.find((i) => i.title === "Manual low")?.id}`),
    );
    expect(detail.updates).toEqual([
      expect.objectContaining({
        type: "update",
        message: "Looking",
        phase: "investigating",
        public: true,
      }),
    ]);
  });

  it("the dashboard: opened and resolved over time (every bucket), by severity and source, MTTR, open now", async () => {
    const dashboard = await json<Dashboard>(await v1("/v1/incidents/dashboard?time_range=24h"));
    const all = await json<Page<Incident>>(await v1("/v1/incidents?limit=1000"));
    const resolved = all.data.filter((i) => i.status === "resolved");
    expect(dashboard.opened).toBe(all.data.length);
    expect(dashboard.resolved).toBe(resolved.length);
    expect(dashboard.open).toBe(all.data.length - resolved.length);
    const mean = resolved.reduce((s, i) => s + (i.durationMs ?? 0), 0) / resolved.length;
    expect(dashboard.meanTimeToResolveMs).toBe(Math.round(mean));
    expect(dashboard.bySource).toEqual({
      manual: all.data.filter((i) => i.source === "manual").length,
      monitor: all.data.filter((i) => i.source === "monitor").length,
      alert: 0,
    });
    expect(dashboard.bySeverity.critical).toBe(1);
    expect(dashboard.bySeverity.low).toBe(1);
    expect(dashboard.bucketSeconds).toBe(900);
    expect(dashboard.series).toHaveLength(24 * 4 + 1);
    expect(dashboard.series.reduce((s, b) => s + b.opened, 0)).toBe(dashboard.opened);
    expect(dashboard.series.reduce((s, b) => s + b.resolved, 0)).toBe(dashboard.resolved);
    expect(dashboard.series.filter((b) => b.opened === 0).length).toBeGreaterThan(90);

    const empty = await json<Dashboard>(
      await v1(`/v1/incidents/dashboard?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z`),
    );
    expect(empty).toMatchObject({
      opened: 0,
      resolved: 0,
      meanTimeToResolveMs: null,
      open: dashboard.open,
    });
    expect((await v1("/v1/incidents/dashboard?time_range=forever")).status).toBe(400);
  });
});
