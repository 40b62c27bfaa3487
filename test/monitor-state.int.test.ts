import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notificationWebhookEvent } from "../src/composition/notifications.js";
import { type DomainDeps, systemCtx } from "../src/context.js";
import { createEventBus } from "../src/events/event-bus.js";
import { AppUrl } from "../src/lib/app-url.js";
import { createOutboundAgent } from "../src/lib/http/outbound-agent.js";
import { createIdGenerator } from "../src/lib/ids.js";
import { LeaseLostError } from "../src/lib/leased-scheduler.js";
import { createSecretBox } from "../src/lib/secret-box.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import type { HttpDefinition } from "../src/monitors/definition.js";
import { createMonitorEngine, type MonitorEngine } from "../src/monitors/engine.js";
import {
  createMonitor,
  getMonitor,
  listIncidents,
  type MonitorCtx,
  type MonitorDeps,
  pauseMonitor,
  resumeMonitor,
} from "../src/monitors/monitors.js";
import { runCheck } from "../src/monitors/runner.js";
import { createChannel } from "../src/notifications/channels.js";
import { initialize } from "../src/setup/initialize.js";
import { createStatusPageEngine } from "../src/status-pages/engine.js";
import type { StatusPageEngine } from "../src/status-pages/signals.js";
import { defaultAuthDeps } from "./helpers/auth-deps.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * The spec's transition table end to end on a fake clock: real runner, real SQLite store, a local
 * target whose answer the test flips. Checks are driven directly (no scheduler timers).
 */
const logger = pino({ level: "silent" });
let target: Server;
let targetUrl: string;
let targetStatus = 200;
const agent = createOutboundAgent({ allowPrivateNetworks: true });

beforeAll(async () => {
  target = createServer((req, res) => {
    const answer = () => {
      res.writeHead(targetStatus, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: targetStatus === 200 }));
    };
    if (req.url?.includes("slow")) setTimeout(answer, 2000);
    else answer();
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
});
afterAll(async () => {
  await new Promise((resolve) => target.close(resolve));
  await agent.close();
});

let dir: ReturnType<typeof makeTempDir>;
let store: MetaStore;
let nowMs: number;
const clock = { now: () => new Date(nowMs) };

function open() {
  store = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
  const domain: DomainDeps & { statusPages: StatusPageEngine } = {
    meta: store,
    clock,
    newId: createIdGenerator(() => nowMs),
    sessionTtlHours: 24,
    appUrl: new AppUrl(undefined),
    ...defaultAuthDeps(),
    statusPages: createStatusPageEngine({ clock }),
  };
  const engine = createMonitorEngine({
    meta: store,
    clock,
    newId: domain.newId,
    logger,
    run: (definition) =>
      runCheck(definition as HttpDefinition, {
        dispatcher: agent,
        clock,
        maxResponseBytes: 1024 * 1024,
        storedBodyBytes: 1024,
      }),
  });
  return { domain, engine, deps: { engine, allowPrivateTargets: true } satisfies MonitorDeps };
}

let domain: DomainDeps & { statusPages: StatusPageEngine };
let engine: MonitorEngine;
let deps: MonitorDeps;
let ctx: MonitorCtx;
let projectId: string;
let channelId: string;

beforeEach(async () => {
  dir = makeTempDir();
  nowMs = Date.UTC(2026, 10, 21, 12, 0, 0);
  targetStatus = 200;
  ({ domain, engine, deps } = open());
  await store.migrate();
  const admin = await initialize({
    ctx: systemCtx(domain),
    input: { email: "a@example.com", password: "a long password" },
  });
  projectId = admin.projectId;
  ctx = { deps: { ...domain, monitors: deps }, actor: { kind: "system" } };
  const channels = {
    secretBox: createSecretBox(randomBytes(32)),
    channelDeps: {
      eventBus: createEventBus(),
      dispatcher: agent,
      mailer: undefined,
      allowPrivateTargets: true,
      webhookEventOf: notificationWebhookEvent,
    },
  };
  channelId = (
    await createChannel({
      ctx: { ...ctx, deps: { ...domain, channels } },
      projectId,
      input: { name: "hooks", type: "webhook", settings: {} },
    })
  ).id;
});
afterEach(async () => {
  await store.close();
  dir.remove();
});

async function newMonitor(alertAfter: number) {
  return createMonitor({
    ctx,
    projectId,
    input: {
      name: "Health",
      type: "api",
      frequency: "1m",
      alertAfter,
      channelIds: [channelId],
      steps: [{ url: targetUrl }],
    },
  });
}

/** One scheduled check, one minute after the previous one. */
async function tick(monitorId: string, status: number) {
  nowMs += 60_000;
  targetStatus = status;
  const recorded = await engine.check(monitorId, "scheduled");
  if (!recorded) throw new Error("monitor vanished");
  return recorded;
}

async function deliveries(monitorId: string) {
  const incidents = await listIncidents({
    ctx,
    projectId,
    monitorId,
    query: { page: 1, limit: 100 },
  });
  return incidents.data.flatMap((i) => i.notifications.map((n) => n.event));
}

describe("monitor state machine", () => {
  it("alertAfter 1: the first failure opens an outage, alerts once and opens an incident", async () => {
    const m = await newMonitor(1);
    const check = await tick(m.id, 500);
    expect(check.transition).toBe("outage_started");
    const monitor = await getMonitor({ ctx, projectId, monitorId: m.id });
    expect(monitor.health).toBe("outage");
    expect(monitor.openIncidentId).not.toBeNull();
    expect(await deliveries(m.id)).toEqual(["monitor.down"]);
  });

  it("alertAfter 3: two failures stay quiet, the third alerts", async () => {
    const m = await newMonitor(3);
    expect((await tick(m.id, 500)).transition).toBe("none");
    expect((await tick(m.id, 500)).transition).toBe("none");
    expect(await deliveries(m.id)).toEqual([]);
    expect((await getMonitor({ ctx, projectId, monitorId: m.id })).failureStreak).toBe(2);
    expect((await tick(m.id, 500)).transition).toBe("outage_started");
    expect(await deliveries(m.id)).toEqual(["monitor.down"]);
  });

  it("alertAfter 2 rides out a single failure", async () => {
    const m = await newMonitor(2);
    await tick(m.id, 200);
    await tick(m.id, 503);
    await tick(m.id, 200);
    const monitor = await getMonitor({ ctx, projectId, monitorId: m.id });
    expect(monitor.health).toBe("passing");
    expect(monitor.failureStreak).toBe(0);
    expect(await deliveries(m.id)).toEqual([]);
  });

  it("ten consecutive failures give exactly one alert; one pass gives one recovery and ends the incident", async () => {
    const m = await newMonitor(2);
    const start = nowMs;
    for (let i = 0; i < 10; i++) await tick(m.id, 500);
    expect(await deliveries(m.id)).toEqual(["monitor.down"]);
    await tick(m.id, 200);
    await tick(m.id, 200);
    const incidents = await listIncidents({
      ctx,
      projectId,
      monitorId: m.id,
      query: { page: 1, limit: 10 },
    });
    expect(incidents.data).toHaveLength(1);
    const [incident] = incidents.data;
    expect(incident?.status).toBe("resolved");
    // Opened by the 2nd failing check, ended by the first pass (check 11).
    expect(incident?.startedAt).toBe(new Date(start + 2 * 60_000).toISOString());
    expect(incident?.resolvedAt).toBe(new Date(start + 11 * 60_000).toISOString());
    expect(incident?.durationMs).toBe(9 * 60_000);
    expect(incident?.notifications.map((n) => n.event).sort()).toEqual([
      "monitor.down",
      "monitor.recovered",
    ]);
    expect((await getMonitor({ ctx, projectId, monitorId: m.id })).openIncidentId).toBeNull();
  });

  it("a second outage opens a second incident; never two open at once", async () => {
    const m = await newMonitor(1);
    await tick(m.id, 500);
    await tick(m.id, 200);
    await tick(m.id, 500);
    const incidents = await listIncidents({
      ctx,
      projectId,
      monitorId: m.id,
      query: { page: 1, limit: 10 },
    });
    expect(incidents.data.map((i) => i.status)).toEqual(["active", "resolved"]);
  });

  it("pause and resume clear the streak: an outage slept through does not alert at once", async () => {
    const m = await newMonitor(2);
    await tick(m.id, 500);
    expect((await getMonitor({ ctx, projectId, monitorId: m.id })).failureStreak).toBe(1);
    const paused = await pauseMonitor({ ctx, projectId, monitorId: m.id });
    expect(paused.status).toBe("paused");
    const resumed = await resumeMonitor({ ctx, projectId, monitorId: m.id });
    expect(resumed.status).toBe("active");
    expect(resumed.failureStreak).toBe(0);
    expect((await tick(m.id, 500)).transition).toBe("none");
    expect(await deliveries(m.id)).toEqual([]);
    expect((await tick(m.id, 500)).transition).toBe("outage_started");
  });

  it("a restart in the middle of an outage neither re-alerts nor loses the open incident", async () => {
    const m = await newMonitor(1);
    await tick(m.id, 500);
    const before = await getMonitor({ ctx, projectId, monitorId: m.id });
    await store.close();
    ({ domain, engine, deps } = open());
    ctx = { deps: { ...domain, monitors: deps }, actor: { kind: "system" } };
    expect((await tick(m.id, 500)).transition).toBe("none");
    const after = await getMonitor({ ctx, projectId, monitorId: m.id });
    expect(after.openIncidentId).toBe(before.openIncidentId);
    expect(after.health).toBe("outage");
    expect(await deliveries(m.id)).toEqual(["monitor.down"]);
    expect((await tick(m.id, 200)).transition).toBe("recovered");
    expect((await deliveries(m.id)).sort()).toEqual(["monitor.down", "monitor.recovered"]);
  });

  it("a monitor without channels still opens and ends incidents, with no deliveries", async () => {
    const m = await createMonitor({
      ctx,
      projectId,
      input: { name: "Quiet", type: "api", alertAfter: 1, steps: [{ url: targetUrl }] },
    });
    await tick(m.id, 500);
    await tick(m.id, 200);
    const incidents = await listIncidents({
      ctx,
      projectId,
      monitorId: m.id,
      query: { page: 1, limit: 10 },
    });
    expect(incidents.data).toHaveLength(1);
    expect(incidents.data[0]?.notifications).toEqual([]);
  });

  it("a scheduled check of a paused monitor does nothing; a manual run still checks it", async () => {
    const m = await newMonitor(1);
    await pauseMonitor({ ctx, projectId, monitorId: m.id });
    expect(await engine.check(m.id, "scheduled")).toBeUndefined();
    expect((await engine.check(m.id, "manual"))?.trigger).toBe("manual");
    // Resuming an active monitor leaves its streak alone.
    await resumeMonitor({ ctx, projectId, monitorId: m.id });
    await tick(m.id, 500);
    await tick(m.id, 500);
    const again = await resumeMonitor({ ctx, projectId, monitorId: m.id });
    expect(again.failureStreak).toBe(2);
  });

  it("shutdown cancels a check in flight and records nothing", async () => {
    const m = await createMonitor({
      ctx,
      projectId,
      input: { name: "Slow", type: "api", steps: [{ url: `${targetUrl}?slow` }] },
    });
    const pending = engine.check(m.id, "scheduled");
    await new Promise((resolve) => setTimeout(resolve, 100));
    engine.abort();
    expect(await pending).toBeUndefined();
    expect(await store.repos.monitorResults.count({ monitorId: m.id })).toBe(0);
  });

  it("masks credentials of the URL in results and notifications", async () => {
    const m = await createMonitor({
      ctx,
      projectId,
      input: {
        name: "Basic auth",
        type: "api",
        alertAfter: 1,
        channelIds: [channelId],
        steps: [{ url: targetUrl.replace("http://", "http://probe:hunter2@") }],
      },
    });
    const check = await tick(m.id, 500);
    expect(check.result.steps[0]?.url).toBe(targetUrl.replace("http://", "http://***@"));
    const incidents = await listIncidents({
      ctx,
      projectId,
      monitorId: m.id,
      query: { page: 1, limit: 1 },
    });
    const [delivery] = await store.repos.notificationDeliveries.listByIncidents([
      incidents.data[0]?.id ?? "",
    ]);
    expect(JSON.stringify(delivery?.payload)).not.toContain("hunter2");
  });

  it("records a scheduled check only under its worker's lease, once per slot", async () => {
    const m = await newMonitor(1);
    const leases = store.repos.workLeases;
    await leases.reconcile("monitor", [m.id]);
    await leases.heartbeat("monitor", "w1", clock.now().toISOString(), "9999");
    const [held] = await leases.claim("monitor", "w1", clock.now().toISOString(), 1);
    if (!held) throw new Error("no lease claimed");
    const fence = {
      kind: "monitor" as const,
      entityId: m.id,
      owner: "w1",
      token: held.token,
      slot: 60_000,
    };
    targetStatus = 500;
    // A stale token (the lease was taken over) records nothing: no result, no state, no outage.
    await expect(
      engine.check(m.id, "scheduled", { ...fence, token: held.token - 1 }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await store.repos.monitorResults.count({ monitorId: m.id })).toBe(0);
    const untouched = await getMonitor({ ctx, projectId, monitorId: m.id });
    expect([untouched.failureStreak, untouched.openIncidentId]).toEqual([0, null]);
    // Under the lease it is recorded, and the same slot again is refused.
    expect((await engine.check(m.id, "scheduled", fence))?.transition).toBe("outage_started");
    await expect(engine.check(m.id, "scheduled", fence)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await store.repos.monitorResults.count({ monitorId: m.id })).toBe(1);
    expect((await store.repos.notificationDeliveries.listByChannel(channelId, 10)).length).toBe(1);
  });
});
