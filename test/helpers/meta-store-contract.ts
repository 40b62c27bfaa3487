import { expect, it } from "vitest";
import {
  authenticateApiKey,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from "../../src/auth/api-keys.js";
import { authenticateSession, login, logout } from "../../src/auth/sessions.js";
import { createUser } from "../../src/auth/users.js";
import type { DomainDeps } from "../../src/context.js";
import { ConflictError, UnauthorizedError } from "../../src/lib/errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { MonitorNotification } from "../../src/notifications/model.js";
import { createProject, listProjects } from "../../src/projects/projects.js";
import { initialize } from "../../src/setup/initialize.js";

/**
 * The behaviour every metadata engine must show: migrations, the auth repositories through the
 * domain verbs, unique constraints and transactions. Run once per engine.
 */
export function metaStoreContract(getStore: () => MetaStore): void {
  const deps = (): DomainDeps => ({
    meta: getStore(),
    clock: { now: () => new Date() },
    newId: (prefix) => `${prefix}_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`,
    sessionTtlHours: 1,
  });
  const system = () => ({ deps: deps(), actor: { kind: "system" as const } });

  it("runs the migrations once; a second run has nothing to do", async () => {
    expect(await getStore().migrate()).toEqual([]);
    await getStore().ping();
  });

  it("initializes an installation atomically and refuses to do it twice", async () => {
    const result = await initialize(deps(), {
      email: "Admin@Example.com",
      password: "password-1",
      org: "Acme",
    });
    expect(result.apiKey).toMatch(/^vgl_/);
    await expect(
      initialize(deps(), { email: "second@example.com", password: "password-2" }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await getStore().repos.users.count()).toBe(1);
    expect(await getStore().repos.organizations.count()).toBe(1);
    const actor = await authenticateApiKey(deps(), result.apiKey);
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
    const session = await login(deps(), { email: "ADMIN@example.com", password: "password-1" });
    expect(session.user.email).toBe("admin@example.com");
    expect(session.memberships).toEqual([
      expect.objectContaining({ orgName: "Acme", role: "owner" }),
    ]);
    const resolved = await authenticateSession(deps(), session.token);
    expect(resolved.user.id).toBe(session.user.id);
    await logout(deps(), session.token);
    await expect(authenticateSession(deps(), session.token)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(
      login(deps(), { email: "admin@example.com", password: "wrong-password" }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("expires sessions after their time to live", async () => {
    const session = await login(deps(), { email: "admin@example.com", password: "password-1" });
    const later: DomainDeps = {
      ...deps(),
      clock: { now: () => new Date(Date.now() + 2 * 3_600_000) },
    };
    await expect(authenticateSession(later, session.token)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
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
    const otherSession = await login(deps(), {
      email: "other@example.com",
      password: "password-4",
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
    expect((await authenticateApiKey(deps(), key.key)).permissions).toEqual(["ingest"]);
    await revokeApiKey({ ctx, projectId: project.id, keyId: key.id });
    await expect(authenticateApiKey(deps(), key.key)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  notificationContract(getStore);
  monitorContract(getStore);
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
    incident: { id: "inc_1", startedAt: at(0), endedAt: null, durationMs: null },
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

  it("records retries, final failures and sends", async () => {
    const { notificationDeliveries: outbox } = getStore().repos;
    await outbox.markFailed("ntf_a", {
      error: "Slack answered 500",
      attempts: 1,
      nextAttemptAt: at(300),
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
    });
    expect(await outbox.findById("ntf_a")).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "Slack answered 502",
      nextAttemptAt: null,
    });
    await outbox.markSent("ntf_b", at(400));
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

  it("allows one open incident per monitor, closes it, then allows the next", async () => {
    const store = getStore();
    const incident = {
      id: "inc_a",
      monitorId,
      status: "active" as const,
      startedAt: at(0),
      endedAt: null,
      durationMs: null,
      cause: "status 500",
      openedByResultId: "run_00",
      closedByResultId: null,
    };
    await store.repos.monitorIncidents.insert(incident);
    await expect(
      store.run((repos) => repos.monitorIncidents.insert({ ...incident, id: "inc_b" })),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await store.repos.monitorIncidents.findOpen(monitorId)).toEqual(incident);
    await store.repos.monitorIncidents.close("inc_a", {
      endedAt: at(120),
      durationMs: 120_000,
      closedByResultId: "run_02",
    });
    expect(await store.repos.monitorIncidents.findOpen(monitorId)).toBeUndefined();
    await store.repos.monitorIncidents.insert({ ...incident, id: "inc_b", startedAt: at(300) });
    expect(
      (await store.repos.monitorIncidents.list(monitorId, { limit: 10, offset: 0 })).map(
        (i) => i.id,
      ),
    ).toEqual(["inc_b", "inc_a"]);
    expect(await store.repos.monitorIncidents.count(monitorId)).toBe(2);
  });

  it("deletes a monitor with its results and incidents", async () => {
    const { repos } = getStore();
    await repos.monitors.delete(monitorId);
    expect(await repos.monitors.findById(monitorId)).toBeUndefined();
    expect(await repos.monitorResults.count({ monitorId })).toBe(0);
    expect(await repos.monitorIncidents.count(monitorId)).toBe(0);
  });
}
