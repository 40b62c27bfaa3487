import { expect, it } from "vitest";
import { markResolved } from "../../src/incidents/incident-lifecycle.js";
import { ConflictError } from "../../src/lib/domain-errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";

/** Monitors, results and incidents: state columns, paging, retention and one open incident. */
export function monitorStoreContract(getStore: () => MetaStore): void {
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
      acknowledgedAt: null,
      acknowledgedBy: null,
      assigneeId: null,
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
      acknowledgedAt: null,
      acknowledgedBy: null,
      assigneeId: null,
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
