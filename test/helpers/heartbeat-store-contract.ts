import { expect, it } from "vitest";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { HeartbeatRecord } from "../../src/meta/repositories/heartbeats.js";

/** Heartbeats: lookup by token digest, due deadlines of active monitors, the fenced advance. */
export function heartbeatStoreContract(getStore: () => MetaStore): void {
  const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();

  async function seed(
    id: string,
    status: "active" | "paused",
    deadline: string | null,
    tokenHash = `hash-${id}`,
  ) {
    const { repos } = getStore();
    await repos.monitors.insert({
      id,
      projectId: "prj_hb",
      name: id,
      status,
      definition: { type: "heartbeat", period: "1m", grace: "0s" },
      channelIds: [],
      health: "pending",
      failureStreak: 0,
      lastCheckedAt: null,
      lastResultId: null,
      openIncidentId: null,
      createdBy: null,
      createdAt: at(0),
      updatedAt: at(0),
    });
    const heartbeat: HeartbeatRecord = {
      monitorId: id,
      tokenHash,
      tokenSealed: `sealed-${id}`,
      lastPingAt: null,
      startedAt: null,
      nextDeadlineAt: deadline,
      createdAt: at(0),
    };
    await repos.heartbeats.insert(heartbeat);
    return heartbeat;
  }

  it("finds heartbeats by token digest, lists due ones of active monitors and fences the advance", async () => {
    const { repos } = getStore();
    await repos.organizations.insert({ id: "org_hb", name: "Hb", createdAt: at(0) });
    await repos.projects.insert({ id: "prj_hb", orgId: "org_hb", name: "h", createdAt: at(0) });
    const first = await seed("mon_hb_1", "active", at(60));
    await seed("mon_hb_2", "active", at(30));
    await seed("mon_hb_3", "paused", at(10));
    await seed("mon_hb_4", "active", at(600));

    expect(await repos.heartbeats.findByTokenHash("hash-mon_hb_1")).toEqual({
      ...first,
      status: "active",
      definition: { type: "heartbeat", period: "1m", grace: "0s" },
    });
    expect(await repos.heartbeats.findByTokenHash("hash-nothing")).toBeUndefined();
    expect(
      (await repos.heartbeats.findByMonitorIds(["mon_hb_1", "mon_hb_4", "mon_x"]))
        .map((h) => h.monitorId)
        .sort(),
    ).toEqual(["mon_hb_1", "mon_hb_4"]);

    // Most overdue first; paused monitors and future deadlines left out; the limit holds.
    const due = await repos.heartbeats.listDue(at(60), 10);
    expect(due.map((d) => d.monitorId)).toEqual(["mon_hb_2", "mon_hb_1"]);
    expect(due[0]).toEqual({
      monitorId: "mon_hb_2",
      nextDeadlineAt: at(30),
      lastPingAt: null,
      createdAt: at(0),
    });
    expect((await repos.heartbeats.listDue(at(60), 1)).map((d) => d.monitorId)).toEqual([
      "mon_hb_2",
    ]);

    // The compare-and-set: only from the deadline seen, once.
    expect(await repos.heartbeats.advanceDeadline("mon_hb_2", at(30), at(90))).toBe(true);
    expect(await repos.heartbeats.advanceDeadline("mon_hb_2", at(30), at(90))).toBe(false);
    expect((await repos.heartbeats.listDue(at(60), 10)).map((d) => d.monitorId)).toEqual([
      "mon_hb_1",
    ]);

    await repos.heartbeats.recordStart("mon_hb_1", at(61));
    expect((await repos.heartbeats.findByMonitorId("mon_hb_1"))?.startedAt).toBe(at(61));
    await repos.heartbeats.recordPing("mon_hb_1", at(62), at(122));
    expect(await repos.heartbeats.findByMonitorId("mon_hb_1")).toMatchObject({
      lastPingAt: at(62),
      startedAt: null,
      nextDeadlineAt: at(122),
    });
    await repos.heartbeats.setDeadline("mon_hb_1", null);
    expect((await repos.heartbeats.listDue(at(10_000), 10)).map((d) => d.monitorId)).toEqual([
      "mon_hb_2",
      "mon_hb_4",
    ]);

    // Deleting the monitor deletes its heartbeat.
    await repos.monitors.delete("mon_hb_4");
    expect(await repos.heartbeats.findByMonitorId("mon_hb_4")).toBeUndefined();
  });

  it("refuses a second heartbeat with the same token digest", async () => {
    await expect(seed("mon_hb_5", "active", null, "hash-mon_hb_1")).rejects.toThrow();
  });
}
