import { describe, expect, it } from "vitest";
import type { PublicIncident } from "../contracts/status-page-data.js";
import type { StatusPageMaintenanceRecord } from "../meta/repositories/status-page-maintenances.js";
import { followsAny, type PageSnapshot, pageChanges, readSnapshot } from "./subscribers-changes.js";

const T0 = "2026-11-29T10:00:00.000Z";
const T1 = "2026-11-29T11:00:00.000Z";
const NOW = new Date("2026-11-29T12:00:00.000Z");
const services = [{ id: "spc_a", name: "API" }] as Parameters<typeof pageChanges>[2]["services"];

const incident = (over: Partial<PublicIncident> = {}): PublicIncident => ({
  id: "inc_1",
  title: "API: service disruption",
  status: "active",
  severity: "high",
  impact: "down",
  startedAt: T1,
  resolvedAt: null,
  componentIds: ["spc_a"],
  updates: [],
  ...over,
});
const update = (id: string, at: string) => ({ id, at, phase: "identified" as const, message: id });
const window = (over: Partial<StatusPageMaintenanceRecord> = {}): StatusPageMaintenanceRecord => ({
  id: "mnt_1",
  pageId: "stp_1",
  title: "Upgrade",
  message: "",
  startsAt: "2026-11-30T10:00:00.000Z",
  endsAt: "2026-11-30T11:00:00.000Z",
  phase: "scheduled",
  componentIds: ["spc_a"],
  createdBy: null,
  createdAt: T1,
  updatedAt: T1,
  ...over,
});
const events = (result: ReturnType<typeof pageChanges>) => result.announcements.map((a) => a.event);

describe("pageChanges", () => {
  it("on the first look announces only what began since watching started", () => {
    const since = "2026-11-29T10:30:00.000Z";
    const old = incident({
      id: "inc_old",
      startedAt: T0,
      updates: [update("u1", T0), update("u2", T1)],
    });
    const result = pageChanges(
      null,
      since,
      { incidents: [old, incident()], services },
      [window()],
      NOW,
    );
    expect(events(result)).toEqual([
      "incident.updated",
      "incident.created",
      "maintenance.scheduled",
    ]);
    const [first] = result.announcements;
    expect(first && "incident" in first ? first.incident.updates.map((u) => u.id) : []).toEqual([
      "u2",
    ]);
    expect(result.snapshot.i.inc_old).toEqual({ s: "active", u: ["u1", "u2"], t: T0 });
    expect(
      pageChanges(null, NOW.toISOString(), { incidents: [old], services }, [], NOW).announcements,
    ).toEqual([]);
  });

  it("announces new updates, resolution and reopening against the snapshot, one message each", () => {
    const known: PageSnapshot = { i: { inc_1: { s: "active", u: ["u1"], t: T1 } }, m: {} };
    const updated = pageChanges(
      known,
      T1,
      { incidents: [incident({ updates: [update("u1", T1), update("u2", T1)] })], services },
      [],
      NOW,
    );
    expect(events(updated)).toEqual(["incident.updated"]);
    const resolved = incident({
      status: "resolved",
      resolvedAt: T1,
      updates: [update("u1", T1), update("u3", T1)],
    });
    const closing = pageChanges(known, T1, { incidents: [resolved], services }, [], NOW);
    expect(events(closing)).toEqual(["incident.resolved"]);
    expect(closing.announcements[0]).toMatchObject({
      incident: { updates: [{ id: "u3" }], components: [{ name: "API" }] },
    });
    const reopened = pageChanges(
      closing.snapshot,
      T1,
      { incidents: [incident({ updates: resolved.updates })], services },
      [],
      NOW,
    );
    expect(events(reopened)).toEqual(["incident.reopened"]);
    expect(
      pageChanges(
        reopened.snapshot,
        T1,
        { incidents: [incident({ updates: resolved.updates })], services },
        [],
        NOW,
      ).announcements,
    ).toEqual([]);
  });

  it("announces a new open incident whenever it began once the page is watched, and keeps one that left the page", () => {
    const watched: PageSnapshot = { i: {}, m: {} };
    expect(
      events(
        pageChanges(
          watched,
          NOW.toISOString(),
          { incidents: [incident({ startedAt: T0 })], services },
          [],
          NOW,
        ),
      ),
    ).toEqual(["incident.created"]);
    const known: PageSnapshot = { i: { inc_1: { s: "active", u: [], t: T1 } }, m: {} };
    const away = pageChanges(known, T1, { incidents: [], services }, [], NOW);
    expect(away.snapshot.i.inc_1).toBeDefined();
    expect(
      pageChanges(away.snapshot, T1, { incidents: [incident()], services }, [], NOW).announcements,
    ).toEqual([]);
  });

  it("follows a window through its phases by the clock", () => {
    const scheduled = pageChanges(
      { i: {}, m: {} },
      T1,
      { incidents: [], services },
      [window()],
      NOW,
    );
    expect(events(scheduled)).toEqual(["maintenance.scheduled"]);
    const during = new Date("2026-11-30T10:30:00.000Z");
    const started = pageChanges(
      scheduled.snapshot,
      T1,
      { incidents: [], services },
      [window()],
      during,
    );
    expect(events(started)).toEqual(["maintenance.started"]);
    const after = new Date("2026-11-30T12:00:00.000Z");
    expect(
      events(pageChanges(started.snapshot, T1, { incidents: [], services }, [window()], after)),
    ).toEqual(["maintenance.completed"]);
  });

  it("reads scope and stored snapshots", () => {
    expect(followsAny([], ["spc_a"])).toBe(true);
    expect(followsAny(["spc_b"], ["spc_a"])).toBe(false);
    expect(followsAny(["spc_a", "spc_b"], ["spc_a"])).toBe(true);
    expect(readSnapshot(null)).toBeNull();
    expect(readSnapshot("not json")).toBeNull();
    expect(readSnapshot('{"i":{}}')).toEqual({ i: {}, m: {} });
  });
});
