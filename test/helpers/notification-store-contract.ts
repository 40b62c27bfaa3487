import { expect, it } from "vitest";
import { ConflictError } from "../../src/lib/domain-errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { MonitorNotification } from "../../src/notifications/notification-payloads.js";

/** Notification channels and the delivery outbox: storage, claiming, retries and cascades. */
export function notificationStoreContract(getStore: () => MetaStore): void {
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
