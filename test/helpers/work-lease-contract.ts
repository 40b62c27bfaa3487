import { describe, expect, it } from "vitest";
import type { MetaStore } from "../../src/meta/meta-store.js";

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
const ids = (leases: readonly { entityId: string }[]) => leases.map((l) => l.entityId).sort();

/** Work leases (migration 0008): the same behaviour on SQLite and PostgreSQL. */
export function workLeaseContract(getStore: () => MetaStore): void {
  describe("work leases", () => {
    it("makes lease rows follow the entities, and counts live workers", async () => {
      const leases = getStore().repos.workLeases;
      await leases.reconcile("monitor", ["mon_a", "mon_b", "mon_c", "mon_gone"]);
      expect(await leases.reconcile("monitor", ["mon_a", "mon_b", "mon_c", "mon_d"])).toBe(4);
      expect((await leases.list("monitor")).map((l) => l.entityId)).toEqual([
        "mon_a",
        "mon_b",
        "mon_c",
        "mon_d",
      ]);
      expect(await leases.list("alert_rule")).toEqual([]);
      expect(await leases.heartbeat("monitor", "w1", at(0), at(20))).toBe(1);
      expect(await leases.heartbeat("monitor", "w2", at(5), at(25))).toBe(2);
      expect(await leases.heartbeat("alert_rule", "w1", at(5), at(25))).toBe(1);
    });

    it("claims free leases once each, even when two workers claim at the same moment", async () => {
      const leases = getStore().repos.workLeases;
      const [one, two] = await Promise.all([
        leases.claim("monitor", "w1", at(10), 3),
        leases.claim("monitor", "w2", at(10), 3),
      ]);
      const all = [...ids(one ?? []), ...ids(two ?? [])].sort();
      expect(all).toEqual(["mon_a", "mon_b", "mon_c", "mon_d"]);
      expect(all.length).toBe(new Set(all).size);
      for (const lease of [...(one ?? []), ...(two ?? [])]) {
        expect(lease.token).toBe(1);
        expect(lease.lastSlot).toBe(0);
      }
      // Nothing is free while both owners' heartbeats hold.
      expect(await leases.claim("monitor", "w3", at(15), 10)).toEqual([]);
    });

    it("fences writes by token and slot, frees a silent worker's leases, and releases", async () => {
      const leases = getStore().repos.workLeases;
      const w1 = await leases.held("monitor", "w1");
      const w2 = await leases.held("monitor", "w2");
      expect([...ids(w1), ...ids(w2)].sort()).toEqual(["mon_a", "mon_b", "mon_c", "mon_d"]);
      expect(w2.length).toBeGreaterThan(0);
      const mine = w2[0];
      if (!mine) throw new Error("w2 holds no lease");
      const fence = {
        kind: "monitor" as const,
        entityId: mine.entityId,
        owner: "w2",
        token: 1,
        slot: 60_000,
      };
      expect(await leases.advance(fence)).toBe(true);
      // The same slot twice, an older slot, a wrong owner or token: refused.
      expect(await leases.advance(fence)).toBe(false);
      expect(await leases.advance({ ...fence, slot: 0 })).toBe(false);
      expect(await leases.advance({ ...fence, slot: 120_000, owner: "w9" })).toBe(false);
      expect(await leases.advance({ ...fence, slot: 120_000, token: 2 })).toBe(false);

      // w1 renews its heartbeat, w2 does not: at 30 only w2's leases are free.
      expect(await leases.heartbeat("monitor", "w1", at(18), at(38))).toBe(2);
      const taken = await leases.claim("monitor", "w3", at(30), 10);
      expect(ids(taken)).toEqual(ids(w2));
      for (const lease of taken) expect(lease.token).toBe(2);
      // The last slot recorded moves with the lease; the old holder's write is refused from now on.
      expect(taken.find((l) => l.entityId === mine.entityId)?.lastSlot).toBe(60_000);
      expect(await leases.advance({ ...fence, slot: 120_000 })).toBe(false);
      expect(await leases.held("monitor", "w2")).toEqual([]);
      // A worker that stopped renewing is dropped from the count once its heartbeat is over.
      expect(await leases.heartbeat("monitor", "w3", at(30), at(50))).toBe(2);

      await leases.release("monitor", "w3", taken);
      const again = await leases.claim("monitor", "w4", at(31), 10);
      expect(ids(again)).toEqual(ids(w2));
      // A stale release (an old token) frees nothing.
      await leases.release(
        "monitor",
        "w4",
        again.map((l) => ({ ...l, token: l.token - 1 })),
      );
      expect(ids(await leases.held("monitor", "w4"))).toEqual(ids(w2));

      await leases.leave("monitor", "w4");
      await leases.leave("monitor", "w1");
      expect((await leases.list("monitor")).every((l) => l.owner === null)).toBe(true);
    });
  });
}
