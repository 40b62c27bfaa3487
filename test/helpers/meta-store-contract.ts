import { expect, it } from "vitest";
import {
  authenticateApiKey,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from "../../src/auth/api-keys.js";
import { authenticateSession, login, logout } from "../../src/auth/sign-in-sessions.js";
import { createUser } from "../../src/auth/users.js";
import { anonymousCtx, type DomainDeps, systemCtx } from "../../src/context.js";
import { markResolved } from "../../src/incidents/incident-lifecycle.js";
import { ConflictError, UnauthorizedError } from "../../src/lib/domain-errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type {
  AttemptOutcome,
  NewWebhookDelivery,
} from "../../src/meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../../src/meta/repositories/webhook-endpoints.js";
import type { MonitorNotification } from "../../src/notifications/notification-payloads.js";
import { createProject, listProjects } from "../../src/projects/projects.js";
import { initialize } from "../../src/setup/initialize.js";
import { createStatusPageEngine } from "../../src/status-pages/engine.js";
import { alertStoreContract } from "./alert-store-contract.js";
import { defaultAuthDeps } from "./auth-deps.js";
import { savedQueryStoreContract } from "./saved-query-store-contract.js";
import { workLeaseContract } from "./work-lease-contract.js";

/**
 * The behaviour every metadata engine must show: migrations, the auth repositories through the
 * domain verbs, unique constraints and transactions. Run once per engine.
 */
export function metaStoreContract(getStore: () => MetaStore): void {
  const clock = { now: () => new Date() };
  const deps = (): DomainDeps => ({
    meta: getStore(),
    clock,
    newId: (prefix) => `${prefix}_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`,
    sessionTtlHours: 1,
    ...defaultAuthDeps(),
    statusPages: createStatusPageEngine({ clock }),
  });
  const system = () => systemCtx(deps());
  const anon = () => anonymousCtx(deps());

  it("runs the migrations once; a second run has nothing to do", async () => {
    expect(await getStore().migrate()).toEqual([]);
    await getStore().ping();
  });

  it("initializes an installation atomically and refuses to do it twice", async () => {
    const result = await initialize({
      ctx: systemCtx(deps()),
      input: {
        email: "Admin@Example.com",
        password: "password-1",
        org: "Acme",
      },
    });
    expect(result.apiKey).toMatch(/^vgl_/);
    await expect(
      initialize({
        ctx: systemCtx(deps()),
        input: { email: "second@example.com", password: "password-2" },
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await getStore().repos.users.count()).toBe(1);
    expect(await getStore().repos.organizations.count()).toBe(1);
    const actor = await authenticateApiKey({ ctx: anon(), presented: result.apiKey });
    expect(actor.projectId).toBe(result.projectId);
    const [key] = await getStore().repos.apiKeys.listByProject(result.projectId);
    expect(key).toMatchObject({ role: "full", createdBy: result.userId });
  });

  it("lets a verb join the caller's transaction, so a later failure undoes its writes", async () => {
    const abort = new Error("abort after createUser");
    await expect(
      getStore().transaction(async (meta) => {
        await createUser({
          ctx: { deps: { ...deps(), meta }, actor: { kind: "system" } },
          input: { email: "rolled-back@example.com", password: "password-9", newOrg: "Gone" },
        });
        expect(await meta.repos.users.findByEmail("rolled-back@example.com")).toBeDefined();
        throw abort;
      }),
    ).rejects.toBe(abort);
    expect(await getStore().repos.users.findByEmail("rolled-back@example.com")).toBeUndefined();
    expect((await getStore().repos.organizations.list()).map((o) => o.name)).not.toContain("Gone");
  });

  it("logs in by case-insensitive email, resolves and ends the session", async () => {
    const session = await login({
      ctx: anon(),
      input: { email: "ADMIN@example.com", password: "password-1" },
      address: "192.0.2.1",
    });
    expect(session.user.email).toBe("admin@example.com");
    expect(session.memberships).toEqual([
      expect.objectContaining({ orgName: "Acme", role: "owner" }),
    ]);
    const resolved = await authenticateSession({ ctx: anon(), token: session.token });
    expect(resolved.user.id).toBe(session.user.id);
    await logout({ ctx: anon(), token: session.token });
    await expect(authenticateSession({ ctx: anon(), token: session.token })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(
      login({
        ctx: anon(),
        input: { email: "admin@example.com", password: "wrong-password" },
        address: "192.0.2.1",
      }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("expires sessions after their time to live", async () => {
    const session = await login({
      ctx: anon(),
      input: { email: "admin@example.com", password: "password-1" },
      address: "192.0.2.1",
    });
    const later: DomainDeps = {
      ...deps(),
      clock: { now: () => new Date(Date.now() + 2 * 3_600_000) },
    };
    await expect(
      authenticateSession({ ctx: anonymousCtx(later), token: session.token }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("rejects a duplicate email with a ConflictError", async () => {
    await expect(
      createUser({ ctx: system(), input: { email: "admin@example.com", password: "password-3" } }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it("keeps organizations apart and manages API keys per project", async () => {
    const other = await createUser({
      ctx: system(),
      input: { email: "other@example.com", password: "password-4", newOrg: "Other" },
    });
    const otherSession = await login({
      ctx: anon(),
      input: { email: "other@example.com", password: "password-4" },
      address: "192.0.2.1",
    });
    const ctx = {
      deps: deps(),
      actor: {
        kind: "user" as const,
        userId: other.user.id,
        memberships: otherSession.memberships,
      },
    };
    const project = await createProject({ ctx, input: { name: "shop" } });
    expect((await listProjects({ ctx })).map((p) => p.id)).toEqual([project.id]);

    const key = await createApiKey({
      ctx,
      projectId: project.id,
      input: { name: "k", role: "ingest" },
    });
    expect((await listApiKeys({ ctx, projectId: project.id })).map((k) => k.id)).toContain(key.id);
    expect((await authenticateApiKey({ ctx: anon(), presented: key.key })).permissions).toEqual([
      "ingest",
    ]);
    await revokeApiKey({ ctx, projectId: project.id, keyId: key.id });
    await expect(authenticateApiKey({ ctx: anon(), presented: key.key })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });

  notificationContract(getStore);
  monitorContract(getStore);
  webhookContract(getStore);
  alertStoreContract(getStore);
  savedQueryStoreContract(getStore);
  workLeaseContract(getStore);
}

/** Notification channels and the delivery outbox: storage, claiming, retries and cascades. */
function notificationContract(getStore: () => MetaStore): void {
  const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  let projectId: string;
  let channelId: string;
  const payload: MonitorNotification = {
    event: "monitor.down",
    projectId: "",
    monitor: { id: "mon_x", name: "Checkout", type: "api", url: "https://example.com" },
    incident: { id: "inc_1", startedAt: at(0), resolvedAt: null, durationMs: null },
    check: {
      resultId: "run_1",
      startedAt: at(0),
      failedStep: "pay",
      reason: "status 500",
      statusCode: 500,
    },
  };
  const delivery = (id: string, createdAt: string, incidentId = "inc_1") => ({
    id,
    projectId,
    channelId,
    monitorId: null,
    incidentId,
    event: "monitor.down",
    payload: { ...payload, projectId },
    createdAt,
  });

  it("stores notification channels with their settings and sealed secret", async () => {
    const { repos } = getStore();
    const org = await repos.organizations.insert({
      id: "org_notify",
      name: "Notify",
      createdAt: at(0),
    });
    projectId = (
      await repos.projects.insert({ id: "prj_notify", orgId: org.id, name: "n", createdAt: at(0) })
    ).id;
    const channel = await repos.notificationChannels.insert({
      id: "chn_1",
      projectId,
      name: "ops mail",
      type: "email",
      config: { to: ["ops@example.com"] },
      secret: null,
      createdAt: at(0),
      updatedAt: at(0),
    });
    channelId = channel.id;
    await repos.notificationChannels.insert({
      ...channel,
      id: "chn_2",
      name: "slack",
      type: "slack",
      config: {},
      secret: "v1.sealed",
      createdAt: at(1),
    });
    expect(await repos.notificationChannels.findById("chn_1")).toEqual(channel);
    expect((await repos.notificationChannels.findByName(projectId, "slack"))?.secret).toBe(
      "v1.sealed",
    );
    expect((await repos.notificationChannels.listByProject(projectId)).map((c) => c.id)).toEqual([
      "chn_1",
      "chn_2",
    ]);
    await expect(
      getStore().run((r) => r.notificationChannels.insert({ ...channel, id: "chn_3" })),
    ).rejects.toBeInstanceOf(ConflictError);
    await repos.notificationChannels.update("chn_2", {
      name: "slack alerts",
      config: {},
      secret: "v1.other",
      updatedAt: at(5),
    });
    expect(await repos.notificationChannels.findById("chn_2")).toMatchObject({
      name: "slack alerts",
      type: "slack",
      secret: "v1.other",
      updatedAt: at(5),
    });
    expect(await repos.notificationChannels.listMonitorsUsing("chn_2")).toEqual([]);
  });

  it("enqueues deliveries and claims the due ones once, oldest first", async () => {
    const { notificationDeliveries: outbox } = getStore().repos;
    await getStore().transaction(async ({ repos }) => {
      await repos.notificationDeliveries.insertMany([
        delivery("ntf_b", at(10)),
        delivery("ntf_a", at(5)),
        { ...delivery("ntf_later", at(10)), nextAttemptAt: at(100) },
      ]);
      await repos.notificationDeliveries.insertMany([]);
    });
    expect(await outbox.findById("ntf_a")).toMatchObject({
      status: "pending",
      attempts: 0,
      lastError: null,
      nextAttemptAt: at(5),
      sentAt: null,
      payload: { ...payload, projectId },
    });
    expect(await outbox.claimDue(at(4), 10)).toEqual([]);
    const claimed = await outbox.claimDue(at(20), 10, at(80));
    expect(claimed.map((d) => d.id)).toEqual(["ntf_a", "ntf_b"]);
    expect(claimed[0]?.nextAttemptAt).toBe(at(80));
    // Leased: a second claimer gets nothing until the lease ends.
    expect(await outbox.claimDue(at(20), 10)).toEqual([]);
    const [first, second] = await Promise.all([
      outbox.claimDue(at(90), 10),
      outbox.claimDue(at(90), 10),
    ]);
    expect([...(first ?? []), ...(second ?? [])].map((d) => d.id).sort()).toEqual([
      "ntf_a",
      "ntf_b",
    ]);
    expect((await outbox.claimDue(at(200), 1)).map((d) => d.id)).toEqual(["ntf_later"]);
  });

  it("records retries, final failures and sends, each under the lease it was claimed with", async () => {
    const { notificationDeliveries: outbox } = getStore().repos;
    const held = async (id: string) => (await outbox.findById(id))?.nextAttemptAt ?? "";
    const leaseOfA = await held("ntf_a");
    // An outcome under a lease that ran out (claimed again since) writes nothing.
    expect(
      await outbox.markFailed("ntf_a", {
        error: "stale",
        attempts: 1,
        nextAttemptAt: at(300),
        heldUntil: at(80),
      }),
    ).toBe(false);
    expect(await outbox.markSent("ntf_a", at(300), at(80))).toBe(false);
    expect(await outbox.findById("ntf_a")).toMatchObject({ status: "pending", attempts: 0 });
    await outbox.markFailed("ntf_a", {
      error: "Slack answered 500",
      attempts: 1,
      nextAttemptAt: at(300),
      heldUntil: leaseOfA,
    });
    expect(await outbox.findById("ntf_a")).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "Slack answered 500",
      nextAttemptAt: at(300),
    });
    await outbox.markFailed("ntf_a", {
      error: "Slack answered 502",
      attempts: 3,
      nextAttemptAt: null,
      heldUntil: at(300),
    });
    expect(await outbox.findById("ntf_a")).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "Slack answered 502",
      nextAttemptAt: null,
    });
    await outbox.markSent("ntf_b", at(400), await held("ntf_b"));
    expect(await outbox.findById("ntf_b")).toMatchObject({
      status: "sent",
      attempts: 1,
      sentAt: at(400),
      nextAttemptAt: null,
    });
    // Final deliveries are never claimed again.
    expect((await outbox.claimDue(at(10_000), 10)).map((d) => d.id)).toEqual(["ntf_later"]);
  });

  it("lists a channel's deliveries newest first and an incident's oldest first", async () => {
    const { notificationDeliveries: outbox } = getStore().repos;
    await outbox.insert({
      ...delivery("ntf_test", at(50), "inc_other"),
      incidentId: null,
      event: "channel.test",
      status: "sent",
      attempts: 1,
      lastError: null,
      nextAttemptAt: null,
      sentAt: at(50),
    });
    expect((await outbox.listByChannel(channelId, 10)).map((d) => d.id)).toEqual([
      "ntf_test",
      "ntf_later",
      "ntf_b",
      "ntf_a",
    ]);
    expect((await outbox.listByChannel(channelId, 2)).map((d) => d.id)).toEqual([
      "ntf_test",
      "ntf_later",
    ]);
    expect((await outbox.listByIncidents(["inc_1"])).map((d) => d.id)).toEqual([
      "ntf_a",
      "ntf_b",
      "ntf_later",
    ]);
    expect(await outbox.listByChannel("chn_2", 10)).toEqual([]);
  });

  it("deletes a channel with its deliveries", async () => {
    const { repos } = getStore();
    expect(await repos.notificationChannels.delete(channelId)).toBe(true);
    expect(await repos.notificationChannels.delete(channelId)).toBe(false);
    expect(await repos.notificationChannels.findById(channelId)).toBeUndefined();
    expect(await repos.notificationDeliveries.findById("ntf_a")).toBeUndefined();
    expect(await repos.notificationDeliveries.listByIncidents(["inc_1"])).toEqual([]);
  });
}

/** Monitors, results and incidents: state columns, paging, retention and one open incident. */
function monitorContract(getStore: () => MetaStore): void {
  const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  const monitorId = "mon_contract";

  it("stores a monitor with its channels and moves only its state columns on a check", async () => {
    const { repos } = getStore();
    await repos.organizations.insert({ id: "org_mon", name: "Mon", createdAt: at(0) });
    await repos.projects.insert({ id: "prj_mon", orgId: "org_mon", name: "m", createdAt: at(0) });
    await repos.notificationChannels.insert({
      id: "chn_mon",
      projectId: "prj_mon",
      name: "hook",
      type: "webhook",
      config: {},
      secret: null,
      createdAt: at(0),
      updatedAt: at(0),
    });
    const monitor = {
      id: monitorId,
      projectId: "prj_mon",
      name: "Checkout",
      status: "active" as const,
      definition: { frequency: "1m", steps: [{ url: "https://example.com" }] },
      channelIds: ["chn_mon"],
      health: "pending" as const,
      failureStreak: 0,
      lastCheckedAt: null,
      lastResultId: null,
      openIncidentId: null,
      createdBy: null,
      createdAt: at(0),
      updatedAt: at(0),
    };
    await repos.monitors.insert(monitor);
    expect(await repos.monitors.findById(monitorId)).toEqual(monitor);
    await repos.monitors.updateState(monitorId, {
      health: "outage",
      failureStreak: 3,
      lastCheckedAt: at(60),
      lastResultId: "run_3",
      openIncidentId: "inc_a",
    });
    await repos.monitors.updateDefinition(monitorId, {
      name: "Checkout v2",
      definition: { frequency: "5m" },
      channelIds: [],
      updatedAt: at(61),
    });
    const updated = await repos.monitors.findById(monitorId);
    expect(updated).toMatchObject({
      name: "Checkout v2",
      health: "outage",
      failureStreak: 3,
      openIncidentId: "inc_a",
      channelIds: [],
      definition: { frequency: "5m" },
    });
    await repos.monitors.setStatus(monitorId, "paused", at(62));
    expect((await repos.monitors.listActive()).some((m) => m.id === monitorId)).toBe(false);
    await repos.monitors.setStatus(monitorId, "active", at(63), { clearStreak: true });
    expect((await repos.monitors.findById(monitorId))?.failureStreak).toBe(0);
    expect((await repos.monitors.listActive()).map((m) => m.id)).toContain(monitorId);
  });

  it("pages results newest first, filters them and deletes expired ones in batches", async () => {
    const { repos } = getStore();
    for (let i = 0; i < 12; i++)
      await repos.monitorResults.insert({
        id: `run_${String(i).padStart(2, "0")}`,
        monitorId,
        startedAt: at(i * 60),
        durationMs: i,
        passed: i % 3 !== 0,
        trigger: "scheduled",
        detail: { traceId: "t", steps: [] },
      });
    const page = await repos.monitorResults.list({ monitorId }, { limit: 5, offset: 5 });
    expect(page.map((r) => r.id)).toEqual(["run_06", "run_05", "run_04", "run_03", "run_02"]);
    expect(await repos.monitorResults.count({ monitorId, passed: false })).toBe(4);
    expect(await repos.monitorResults.count({ monitorId, from: at(300), to: at(600) })).toBe(5);
    expect((await repos.monitorResults.findById(monitorId, "run_03"))?.passed).toBe(false);
    expect(await repos.monitorResults.deleteOlderThan(at(300), 3)).toBe(3);
    expect(await repos.monitorResults.deleteOlderThan(at(300), 3)).toBe(2);
    expect(await repos.monitorResults.count({ monitorId })).toBe(7);
  });

  it("allows one open incident per source, resolves it, then allows the next", async () => {
    const store = getStore();
    const incident = {
      id: "inc_a",
      projectId: "prj_mon",
      title: "Checkout is down",
      status: "active" as const,
      severity: "high" as const,
      source: "monitor" as const,
      sourceId: monitorId,
      sourceKey: null,
      startedAt: at(0),
      resolvedAt: null,
      durationMs: null,
      cause: "status 500",
      createdBy: null,
      createdAt: at(0),
      updatedAt: at(0),
    };
    await store.repos.incidents.insert(incident);
    await expect(
      store.run((repos) => repos.incidents.insert({ ...incident, id: "inc_b" })),
    ).rejects.toBeInstanceOf(ConflictError);
    // Manual incidents have no source id: any number of them may be open.
    for (const id of ["inc_m1", "inc_m2"])
      await store.repos.incidents.insert({ ...incident, id, source: "manual", sourceId: null });
    expect(await store.repos.incidents.findOpenBySource("monitor", monitorId)).toEqual(incident);
    await store.repos.incidents.update("inc_a", {
      status: "resolved",
      resolvedAt: at(120),
      durationMs: 120_000,
      updatedAt: at(120),
    });
    expect(await store.repos.incidents.findOpenBySource("monitor", monitorId)).toBeUndefined();
    await store.repos.incidents.insert({ ...incident, id: "inc_b", startedAt: at(300) });
    const filter = { projectId: "prj_mon", source: "monitor" as const, sourceId: monitorId };
    const order = { sortBy: "started_at" as const, direction: "desc" as const };
    expect(
      (await store.repos.incidents.list(filter, order, { limit: 10, offset: 0 })).map((i) => i.id),
    ).toEqual(["inc_b", "inc_a"]);
    expect(await store.repos.incidents.count(filter)).toBe(2);
    expect(await store.repos.incidents.count({ projectId: "prj_mon", status: "active" })).toBe(3);
    // Sorted by severity rank and by duration (active ones count as longest), same on both
    // engines; a window keeps what was open during it (inc_a ended before), ties newest first.
    await store.repos.incidents.update("inc_m1", { severity: "critical" });
    await store.repos.incidents.update("inc_m2", { severity: "low" });
    const sorted = async (sortBy: "severity" | "duration", direction: "asc" | "desc") =>
      (
        await store.repos.incidents.list(
          { projectId: "prj_mon" },
          { sortBy, direction },
          {
            limit: 10,
            offset: 0,
          },
        )
      ).map((i) => i.id);
    expect(await sorted("severity", "desc")).toEqual(["inc_m1", "inc_b", "inc_a", "inc_m2"]);
    expect((await sorted("duration", "asc"))[0]).toBe("inc_a");
    expect(
      (
        await store.repos.incidents.list(
          { projectId: "prj_mon", from: at(200), to: at(400) },
          { sortBy: "started_at", direction: "asc" },
          { limit: 10, offset: 0 },
        )
      ).map((i) => i.id),
    ).toEqual(["inc_m2", "inc_m1", "inc_b"]);
    await store.repos.incidents.insertEvents([
      {
        id: "ine_2",
        incidentId: "inc_a",
        type: "resolved",
        at: at(120),
        actorKind: "monitor",
        actorId: monitorId,
        message: null,
        phase: null,
        public: false,
        data: {},
      },
      {
        id: "ine_1",
        incidentId: "inc_a",
        type: "update",
        at: at(60),
        actorKind: "user",
        actorId: null,
        message: "Looking into it",
        phase: "investigating",
        public: true,
        data: { n: 1 },
      },
    ]);
    const timeline = await store.repos.incidents.listEvents(["inc_a"]);
    expect(timeline.map((e) => [e.id, e.public, e.data])).toEqual([
      ["ine_1", true, { n: 1 }],
      ["ine_2", false, {}],
    ]);
    expect((await store.repos.incidents.listEvents(["inc_a"], ["resolved"])).length).toBe(1);
  });

  it("resolves an incident open for 30 days (durations past 2^31 ms)", async () => {
    const store = getStore();
    const day = 86_400_000;
    const incident = {
      id: "inc_long",
      projectId: "prj_mon",
      title: "A long outage",
      status: "active" as const,
      severity: "medium" as const,
      source: "manual" as const,
      sourceId: null,
      sourceKey: null,
      startedAt: at(0),
      resolvedAt: null,
      durationMs: null,
      cause: null,
      createdBy: null,
      createdAt: at(0),
      updatedAt: at(0),
    };
    await store.repos.incidents.insert(incident);
    const resolvedAt = new Date(Date.parse(at(0)) + 30 * day).toISOString();
    const incidentDeps = { clock: { now: () => new Date() }, newId: (p: string) => `${p}_long` };
    const resolved = await markResolved(store, incidentDeps, incident, resolvedAt);
    expect(resolved?.durationMs).toBe(30 * day);
    expect((await store.repos.incidents.findById("inc_long"))?.durationMs).toBe(30 * day);
    // The dashboard's SQL aggregates read the same on both engines (avg of a bigint included).
    const to = new Date(Date.parse(resolvedAt) + 1000).toISOString();
    const byDay = await store.repos.incidents.aggregate("prj_mon", {
      from: at(0),
      to,
      truncate: "day",
    });
    expect(byDay.resolved).toContainEqual({ time: resolvedAt.slice(0, 10), count: 1 });
    expect(byDay.opened).toContainEqual({
      time: at(0).slice(0, 10),
      severity: "medium",
      source: "manual",
      count: 1,
    });
    // From after the other incidents of the project were resolved: only this one.
    const byMinute = await store.repos.incidents.aggregate("prj_mon", {
      from: at(3600),
      to,
      truncate: "minute",
    });
    expect(byMinute.resolved).toEqual([{ time: resolvedAt.slice(0, 16), count: 1 }]);
    expect(byMinute.meanDurationMs).toBe(30 * day);
    expect(byMinute.open).toBe(
      await store.repos.incidents.count({ projectId: "prj_mon", status: "active" }),
    );
  });

  it("deletes a monitor with its results; its incidents go by source", async () => {
    const { repos } = getStore();
    await repos.monitors.delete(monitorId);
    expect(await repos.monitors.findById(monitorId)).toBeUndefined();
    expect(await repos.monitorResults.count({ monitorId })).toBe(0);
    await repos.incidents.deleteBySource("monitor", monitorId);
    expect(await repos.incidents.count({ projectId: "prj_mon", sourceId: monitorId })).toBe(0);
    expect(await repos.incidents.listEvents(["inc_a"])).toEqual([]);
  });
}

/**
 * Webhook endpoints, the durable delivery queue and its attempt log: duplicates, leases,
 * outcomes, hand-backs, retention and cascades.
 */
function webhookContract(getStore: () => MetaStore): void {
  const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  const projectId = "prj_hook";
  const endpoint = (
    id: string,
    events: string[],
    extra: Partial<WebhookEndpointRecord> = {},
  ): WebhookEndpointRecord => ({
    id,
    projectId,
    url: `https://hooks.example.com/${id}`,
    events,
    isActive: true,
    secret: `v1.sealed-${id}`,
    createdBy: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...extra,
  });
  const delivery = (
    id: string,
    endpointId: string,
    eventId: string,
    createdAt: string,
    nextAttemptAt = createdAt,
  ): NewWebhookDelivery => ({
    id,
    projectId,
    endpointId,
    messageId: `msg_${eventId}`,
    eventId,
    event: "monitor.down",
    payload: JSON.stringify({ eventId, nested: { n: 1 } }),
    createdAt,
    nextAttemptAt,
  });
  const outcome = (
    attemptId: string,
    deliveryId: string,
    endpointId: string,
    number: number,
    statusCode: number,
    createdAt: string,
    next: Pick<AttemptOutcome, "status" | "nextAttemptAt" | "finishedAt">,
  ): Omit<AttemptOutcome, "leaseUntil"> => ({
    attempt: {
      id: attemptId,
      deliveryId,
      endpointId,
      messageId: `msg_of_${deliveryId}`,
      event: "monitor.down",
      attempt: number,
      statusCode,
      durationMs: 12,
      success: statusCode >= 200 && statusCode < 300,
      body: statusCode === 0 ? "timed out after 10s" : `answered ${statusCode}`,
      createdAt,
    },
    ...next,
  });
  /** The outcomes as made under each delivery's current lease (its next_attempt_at now). */
  const underLease = (outcomes: Omit<AttemptOutcome, "leaseUntil">[]) =>
    Promise.all(
      outcomes.map(async (o) => ({
        ...o,
        leaseUntil:
          (await getStore().repos.webhookDeliveries.findById(o.attempt.deliveryId))
            ?.nextAttemptAt ?? "",
      })),
    );

  it("stores webhook endpoints, lists subscribers, updates, counts and deletes them", async () => {
    const { repos } = getStore();
    await repos.organizations.insert({ id: "org_hook", name: "Hook", createdAt: at(0) });
    await repos.projects.insert({ id: projectId, orgId: "org_hook", name: "h", createdAt: at(0) });
    await repos.projects.insert({
      id: "prj_hook2",
      orgId: "org_hook",
      name: "h2",
      createdAt: at(0),
    });
    const first = await repos.webhookEndpoints.insert(
      endpoint("whe_1", ["monitor.down", "error.created"]),
    );
    await repos.webhookEndpoints.insert(
      endpoint("whe_2", ["monitor.down"], { isActive: false, createdAt: at(1), updatedAt: at(1) }),
    );
    await repos.webhookEndpoints.insert(
      endpoint("whe_3", ["error.created"], { createdAt: at(2), updatedAt: at(2) }),
    );
    await repos.webhookEndpoints.insert(
      endpoint("whe_other", ["monitor.down"], { projectId: "prj_hook2" }),
    );
    await repos.webhookEndpoints.insert(
      endpoint("whe_gone", ["monitor.down"], { createdAt: at(3) }),
    );

    expect(await repos.webhookEndpoints.findById("whe_1")).toEqual(first);
    expect(await repos.webhookEndpoints.findById("whe_missing")).toBeUndefined();
    expect(
      (await repos.webhookEndpoints.findByIds(["whe_3", "whe_1", "whe_missing"]))
        .map((e) => e.id)
        .sort(),
    ).toEqual(["whe_1", "whe_3"]);
    expect(await repos.webhookEndpoints.findByIds([])).toEqual([]);
    expect((await repos.webhookEndpoints.listByProject(projectId)).map((e) => e.id)).toEqual([
      "whe_1",
      "whe_2",
      "whe_3",
      "whe_gone",
    ]);
    expect(await repos.webhookEndpoints.countByProject(projectId)).toBe(4);
    expect(await repos.webhookEndpoints.countByProject("prj_hook2")).toBe(1);
    // Enabled and subscribed to the type, in this project only.
    const subscribers = async (event: string) =>
      (await repos.webhookEndpoints.listSubscribers(projectId, event)).map((e) => e.id).sort();
    expect(await subscribers("monitor.down")).toEqual(["whe_1", "whe_gone"]);
    expect(await subscribers("error.created")).toEqual(["whe_1", "whe_3"]);
    expect(await subscribers("monitor")).toEqual([]);
    // Whole records, as the deliverer sends with them.
    expect(await repos.webhookEndpoints.listSubscribers(projectId, "error.created")).toContainEqual(
      first,
    );

    await repos.webhookEndpoints.update("whe_2", {
      url: "https://hooks.example.com/moved",
      events: ["monitor.down", "monitor.recovered"],
      isActive: true,
      updatedAt: at(9),
    });
    expect(await repos.webhookEndpoints.findById("whe_2")).toEqual(
      endpoint("whe_2", ["monitor.down", "monitor.recovered"], {
        url: "https://hooks.example.com/moved",
        createdAt: at(1),
        updatedAt: at(9),
      }),
    );
    expect(await subscribers("monitor.recovered")).toEqual(["whe_2"]);
    await repos.webhookEndpoints.update("whe_2", {
      url: "https://hooks.example.com/moved",
      events: ["monitor.down", "monitor.recovered"],
      isActive: false,
      updatedAt: at(10),
    });
    expect(await subscribers("monitor.recovered")).toEqual([]);

    expect(await repos.webhookEndpoints.delete("whe_gone")).toBe(true);
    expect(await repos.webhookEndpoints.delete("whe_gone")).toBe(false);
    expect(await repos.webhookEndpoints.countByProject(projectId)).toBe(3);
  });

  it("enqueues webhook deliveries once per endpoint and event id", async () => {
    const store = getStore();
    const queue = store.repos.webhookDeliveries;
    expect(await queue.nextDueAt()).toBeUndefined();
    // Resolves with the ids it inserted.
    expect(
      await queue.enqueue([
        delivery("dlv_1", "whe_1", "evt_1", at(10)),
        delivery("dlv_2", "whe_1", "evt_2", at(5)),
        delivery("dlv_3", "whe_3", "evt_1", at(10)),
        delivery("dlv_later", "whe_1", "evt_3", at(10), at(100)),
      ]),
    ).toEqual(expect.arrayContaining(["dlv_1", "dlv_2", "dlv_3", "dlv_later"]));
    expect(await queue.enqueue([])).toEqual([]);
    // The same event for the same endpoint again (alone, and beside a new one): left as it is.
    expect(
      await queue.enqueue([
        { ...delivery("dlv_dup", "whe_1", "evt_1", at(11)), payload: '{"x":2}' },
      ]),
    ).toEqual([]);
    const inserted = await store.transaction(({ repos }) =>
      repos.webhookDeliveries.enqueue([
        delivery("dlv_dup2", "whe_3", "evt_1", at(12)),
        delivery("dlv_4", "whe_3", "evt_4", at(500), at(500)),
        delivery("dlv_4dup", "whe_3", "evt_4", at(501), at(501)),
      ]),
    );
    expect(inserted).toEqual(["dlv_4"]);
    expect(await queue.findById("dlv_dup")).toBeUndefined();
    expect(await queue.findById("dlv_dup2")).toBeUndefined();
    expect(await queue.findById("dlv_4dup")).toBeUndefined();
    expect(await queue.findById("dlv_1")).toEqual({
      id: "dlv_1",
      projectId,
      endpointId: "whe_1",
      messageId: "msg_evt_1",
      eventId: "evt_1",
      event: "monitor.down",
      // The JSON text as it was stored, byte for byte.
      payload: '{"eventId":"evt_1","nested":{"n":1}}',
      status: "pending",
      attempts: 0,
      nextAttemptAt: at(10),
      createdAt: at(10),
      finishedAt: null,
    });
    expect(await queue.findById("dlv_4")).toMatchObject({ status: "pending", createdAt: at(500) });
    expect(await queue.nextDueAt()).toBe(at(5));
  });

  it("claims due webhook deliveries once, oldest first, and respects leases", async () => {
    const queue = getStore().repos.webhookDeliveries;
    expect(await queue.claimDue(at(4), 10, at(34))).toEqual([]);
    const [oldest, ...none] = await queue.claimDue(at(20), 1, at(50));
    expect(none).toEqual([]);
    expect(oldest).toMatchObject({ id: "dlv_2", nextAttemptAt: at(50), attempts: 0 });
    const rest = await queue.claimDue(at(20), 10, at(50));
    expect(rest.map((d) => d.id)).toEqual(["dlv_1", "dlv_3"]);
    expect(rest.every((d) => d.nextAttemptAt === at(50) && d.status === "pending")).toBe(true);
    // Leased: nobody gets them again until the lease ends.
    expect(await queue.claimDue(at(49), 10, at(79))).toEqual([]);
    expect(await queue.nextDueAt()).toBe(at(50));
    // Two claimers at once after the lease: each delivery goes to exactly one of them.
    const [a, b] = await Promise.all([
      queue.claimDue(at(60), 10, at(90)),
      queue.claimDue(at(60), 10, at(90)),
    ]);
    expect([...(a ?? []), ...(b ?? [])].map((d) => d.id).sort()).toEqual([
      "dlv_1",
      "dlv_2",
      "dlv_3",
    ]);
    expect(await queue.nextDueAt()).toBe(at(90));
  });

  it("hands claimed webhook deliveries back, due again at once", async () => {
    const queue = getStore().repos.webhookDeliveries;
    await queue.release(["dlv_1", "dlv_3", "dlv_missing"], at(70));
    await queue.release([], at(70));
    expect(await queue.nextDueAt()).toBe(at(70));
    const again = await queue.claimDue(at(70), 10, at(100));
    expect(again.map((d) => d.id)).toEqual(["dlv_1", "dlv_3"]);
    expect(await queue.claimDue(at(70), 10, at(100))).toEqual([]);
  });

  it("records webhook attempts with their delivery's next state", async () => {
    const store = getStore();
    const queue = store.repos.webhookDeliveries;
    const made = await underLease([
      outcome("att_2a", "dlv_2", "whe_1", 1, 200, at(71), {
        status: "succeeded",
        nextAttemptAt: null,
        finishedAt: at(71),
      }),
      outcome("att_1a", "dlv_1", "whe_1", 1, 500, at(72), {
        status: "pending",
        nextAttemptAt: at(132),
        finishedAt: null,
      }),
      outcome("att_3a", "dlv_3", "whe_3", 1, 0, at(120), {
        status: "pending",
        nextAttemptAt: at(180),
        finishedAt: null,
      }),
      // Its delivery is gone (the endpoint was deleted meanwhile): dropped without an error.
      outcome("att_gone", "dlv_gone", "whe_1", 1, 200, at(73), {
        status: "succeeded",
        nextAttemptAt: null,
        finishedAt: at(73),
      }),
    ]);
    await store.transaction(({ repos }) => repos.webhookDeliveries.recordOutcomes(made));
    await store.transaction(({ repos }) => repos.webhookDeliveries.recordOutcomes([]));
    expect(await queue.findById("dlv_2")).toMatchObject({
      status: "succeeded",
      attempts: 1,
      nextAttemptAt: null,
      finishedAt: at(71),
    });
    expect(await queue.findById("dlv_1")).toMatchObject({
      status: "pending",
      attempts: 1,
      nextAttemptAt: at(132),
      finishedAt: null,
    });
    expect(await queue.findById("dlv_gone")).toBeUndefined();
    // Newest first; the retry time shows on the latest attempt of a pending delivery only.
    const log = await queue.listAttempts("whe_1", 50);
    expect(log.map((a) => [a.id, a.retryAt])).toEqual([
      ["att_1a", at(132)],
      ["att_2a", null],
    ]);
    expect(log[0]).toEqual({
      id: "att_1a",
      deliveryId: "dlv_1",
      endpointId: "whe_1",
      messageId: "msg_of_dlv_1",
      event: "monitor.down",
      attempt: 1,
      statusCode: 500,
      durationMs: 12,
      success: false,
      body: "answered 500",
      createdAt: at(72),
      retryAt: at(132),
    });
    expect(log[1]).toMatchObject({ success: true, statusCode: 200 });
    expect((await queue.listAttempts("whe_3", 50)).map((a) => [a.id, a.retryAt])).toEqual([
      ["att_3a", at(180)],
    ]);
    expect(await queue.nextDueAt()).toBe(at(100));

    // Attempt 2 fails too: failed for good, no retry time anywhere.
    // Returned in creation order (both were created at 10 s, so by id).
    expect((await queue.claimDue(at(132), 10, at(162))).map((d) => d.id)).toEqual([
      "dlv_1",
      "dlv_later",
    ]);
    await queue.release(["dlv_later"], at(100));
    const retried = await underLease([
      outcome("att_1b", "dlv_1", "whe_1", 2, 503, at(133), {
        status: "failed",
        nextAttemptAt: null,
        finishedAt: at(133),
      }),
    ]);
    await store.transaction(({ repos }) => repos.webhookDeliveries.recordOutcomes(retried));
    expect(await queue.findById("dlv_1")).toMatchObject({
      status: "failed",
      attempts: 2,
      nextAttemptAt: null,
      finishedAt: at(133),
    });
    expect((await queue.listAttempts("whe_1", 50)).map((a) => [a.id, a.retryAt])).toEqual([
      ["att_1b", null],
      ["att_1a", null],
      ["att_2a", null],
    ]);
    expect((await queue.listAttempts("whe_1", 2)).map((a) => a.id)).toEqual(["att_1b", "att_1a"]);
    // Finished deliveries are never claimed again.
    expect((await queue.claimDue(at(10_000), 10, at(10_030))).map((d) => d.id).sort()).toEqual([
      "dlv_3",
      "dlv_4",
      "dlv_later",
    ]);
    await queue.release(["dlv_3", "dlv_4", "dlv_later"], at(100));
  });

  it("cancels pending webhook deliveries and leaves finished ones alone", async () => {
    const queue = getStore().repos.webhookDeliveries;
    await queue.cancel(["dlv_3", "dlv_2", "dlv_missing"], at(150));
    await queue.cancel([], at(150));
    expect(await queue.findById("dlv_3")).toMatchObject({
      status: "failed",
      attempts: 1,
      nextAttemptAt: null,
      finishedAt: at(150),
    });
    expect(await queue.findById("dlv_2")).toMatchObject({
      status: "succeeded",
      finishedAt: at(71),
    });
    expect((await queue.listAttempts("whe_3", 50)).map((a) => [a.id, a.retryAt])).toEqual([
      ["att_3a", null],
    ]);
    // Released or not, a finished delivery stays finished.
    await queue.release(["dlv_3"], at(150));
    expect(await queue.findById("dlv_3")).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(await queue.nextDueAt()).toBe(at(100));
  });

  it("deletes old webhook attempts and finished deliveries in batches", async () => {
    const queue = getStore().repos.webhookDeliveries;
    // Attempts before 100 s: att_2a (71) and att_1a (72).
    expect(await queue.deleteAttemptsBefore(at(100), 1)).toBe(1);
    expect(await queue.deleteAttemptsBefore(at(100), 10)).toBe(1);
    expect(await queue.deleteAttemptsBefore(at(100), 10)).toBe(0);
    expect((await queue.listAttempts("whe_1", 50)).map((a) => a.id)).toEqual(["att_1b"]);
    // Finished before 140 s: dlv_2 (71) and dlv_1 (133), with what is left of their attempts;
    // pending ones (dlv_later, dlv_4) and dlv_3 (150) stay.
    expect(await queue.deleteFinishedBefore(at(140), 1)).toBe(1);
    expect(await queue.deleteFinishedBefore(at(140), 10)).toBe(1);
    expect(await queue.deleteFinishedBefore(at(140), 10)).toBe(0);
    expect(await queue.findById("dlv_1")).toBeUndefined();
    expect(await queue.findById("dlv_2")).toBeUndefined();
    expect(await queue.listAttempts("whe_1", 50)).toEqual([]);
    expect(await queue.findById("dlv_later")).toMatchObject({ status: "pending" });
    expect(await queue.findById("dlv_3")).toMatchObject({ status: "failed" });
  });

  it("logs an attempt made under a lease that ran out, without moving its delivery", async () => {
    const store = getStore();
    const queue = store.repos.webhookDeliveries;
    // As if claimed with a lease until 330 s; that claimer stalls past it and another claims
    // the delivery again, leased until 361 s (release moves next_attempt_at like a claim).
    await queue.enqueue([delivery("dlv_fence", "whe_3", "evt_fence", at(300), at(330))]);
    await queue.release(["dlv_fence"], at(361));
    const made = (id: string, leaseUntil: string) => ({
      ...outcome(id, "dlv_fence", "whe_3", 1, 200, at(301), {
        status: "succeeded",
        nextAttemptAt: null,
        finishedAt: at(301),
      }),
      leaseUntil,
    });
    expect(
      await store.transaction(({ repos }) =>
        repos.webhookDeliveries.recordOutcomes([made("att_stale", at(330))]),
      ),
    ).toBe(0);
    expect(await queue.findById("dlv_fence")).toMatchObject({ status: "pending", attempts: 0 });
    expect(
      await store.transaction(({ repos }) =>
        repos.webhookDeliveries.recordOutcomes([made("att_live", at(361))]),
      ),
    ).toBe(1);
    expect(await queue.findById("dlv_fence")).toMatchObject({ status: "succeeded", attempts: 1 });
    // Recording the same attempt again finds the delivery moved on.
    expect(
      await store.transaction(({ repos }) =>
        repos.webhookDeliveries.recordOutcomes([made("att_again", at(361))]),
      ),
    ).toBe(0);
    const ids = (await queue.listAttempts("whe_3", 50)).map((a) => a.id);
    // Every attempt made is in the log (spec), even those that could not move the delivery.
    expect(ids).toEqual(expect.arrayContaining(["att_live", "att_stale", "att_again"]));
  });

  it("records a batch in which one delivery has two outcomes in the order they came", async () => {
    const store = getStore();
    const queue = store.repos.webhookDeliveries;
    await queue.enqueue([
      delivery("dlv_twice", "whe_3", "evt_twice", at(400), at(430)),
      delivery("dlv_once", "whe_3", "evt_once", at(400), at(430)),
    ]);
    const made = (id: string, deliveryId: string, statusCode: number) => ({
      ...outcome(id, deliveryId, "whe_3", 1, statusCode, at(401), {
        status: statusCode === 200 ? "succeeded" : "pending",
        nextAttemptAt: statusCode === 200 ? null : at(461),
        finishedAt: statusCode === 200 ? at(401) : null,
      }),
      leaseUntil: at(430),
    });
    // The first outcome of dlv_twice moves it; the second finds it moved on and is only logged.
    const moved = await store.transaction(({ repos }) =>
      repos.webhookDeliveries.recordOutcomes([
        made("att_twice_1", "dlv_twice", 500),
        made("att_once", "dlv_once", 200),
        made("att_twice_2", "dlv_twice", 200),
      ]),
    );
    expect(moved).toBe(2);
    expect(await queue.findById("dlv_twice")).toMatchObject({
      status: "pending",
      attempts: 1,
      nextAttemptAt: at(461),
    });
    expect(await queue.findById("dlv_once")).toMatchObject({ status: "succeeded", attempts: 1 });
    const ids = (await queue.listAttempts("whe_3", 50)).map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining(["att_twice_1", "att_twice_2", "att_once"]));
  });

  it("deletes an endpoint with its deliveries and attempts", async () => {
    const { repos } = getStore();
    const queue = repos.webhookDeliveries;
    // Give whe_1 a fresh attempt so the cascade has one to remove.
    await queue.recordOutcomes(
      await underLease([
        outcome("att_lat", "dlv_later", "whe_1", 1, 500, at(200), {
          status: "pending",
          nextAttemptAt: at(260),
          finishedAt: null,
        }),
      ]),
    );
    expect((await queue.listAttempts("whe_1", 50)).map((a) => a.id)).toEqual(["att_lat"]);
    expect(await repos.webhookEndpoints.delete("whe_1")).toBe(true);
    expect(await repos.webhookEndpoints.delete("whe_3")).toBe(true);
    for (const id of ["dlv_later", "dlv_3", "dlv_4"])
      expect(await queue.findById(id)).toBeUndefined();
    expect(await queue.listAttempts("whe_1", 50)).toEqual([]);
    // No attempt row outlived its endpoint (att_lat and att_3a went with the cascade).
    expect(await queue.deleteAttemptsBefore(at(1_000_000), 1000)).toBe(0);
    expect(await queue.nextDueAt()).toBeUndefined();
    expect(await repos.webhookEndpoints.findById("whe_2")).toMatchObject({ isActive: false });
  });
}
