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
      // A worker that stopped renewing is dropped once its heartbeat is over.
      expect(await leases.heartbeat("monitor", "w2", at(21), at(41))).toBe(1);
    });

    it("claims free leases once each, even when two workers claim at the same moment", async () => {
      const leases = getStore().repos.workLeases;
      const [one, two] = await Promise.all([
        leases.claim("monitor", "w1", at(30), at(50), 3),
        leases.claim("monitor", "w2", at(30), at(50), 3),
      ]);
      const all = [...ids(one ?? []), ...ids(two ?? [])].sort();
      expect(all).toEqual(["mon_a", "mon_b", "mon_c", "mon_d"]);
      expect(all.length).toBe(new Set(all).size);
      for (const lease of [...(one ?? []), ...(two ?? [])]) {
        expect(lease.token).toBe(1);
        expect(lease.lastSlot).toBe(0);
      }
      // Nothing is free until a lease runs out.
      expect(await leases.claim("monitor", "w3", at(40), at(60), 10)).toEqual([]);
    });

    it("fences writes by token and slot, renews, takes over expired leases and releases", async () => {
      const leases = getStore().repos.workLeases;
      const w1 = await leases.renew("monitor", "w1", at(70));
      const w2 = await leases.renew("monitor", "w2", at(55));
      expect([...ids(w1), ...ids(w2)].sort()).toEqual(["mon_a", "mon_b", "mon_c", "mon_d"]);
      const mine = w1[0] ?? w2[0];
      if (!mine) throw new Error("no lease held");
      const owner = w1.length > 0 ? "w1" : "w2";
      const fence = {
        kind: "monitor" as const,
        entityId: mine.entityId,
        owner,
        token: 1,
        slot: 60_000,
      };
      expect(await leases.advance(fence)).toBe(true);
      // The same slot twice, an older slot, a wrong owner or token: refused.
      expect(await leases.advance(fence)).toBe(false);
      expect(await leases.advance({ ...fence, slot: 0 })).toBe(false);
      expect(await leases.advance({ ...fence, slot: 120_000, owner: "w9" })).toBe(false);
      expect(await leases.advance({ ...fence, slot: 120_000, token: 2 })).toBe(false);

      // w2's leases ran out at 55: another worker takes them, with a new token and their last slot.
      const taken = await leases.claim("monitor", "w3", at(60), at(80), 10);
      expect(ids(taken)).toEqual(ids(w2));
      for (const lease of taken) expect(lease.token).toBe(2);
      if (owner === "w2") {
        expect(taken.find((l) => l.entityId === mine.entityId)?.lastSlot).toBe(60_000);
        // The old holder's write is refused from now on.
        expect(await leases.advance({ ...fence, slot: 120_000 })).toBe(false);
      }
      expect(await leases.renew("monitor", "w2", at(90))).toEqual([]);

      await leases.release("monitor", "w3", taken);
      // A stale release (an old token) frees nothing.
      const again = await leases.claim("monitor", "w4", at(61), at(81), 10);
      expect(ids(again)).toEqual(ids(w2));
      await leases.release(
        "monitor",
        "w4",
        again.map((l) => ({ ...l, token: l.token - 1 })),
      );
      expect(ids(await leases.renew("monitor", "w4", at(82)))).toEqual(ids(w2));

      await leases.leave("monitor", "w4");
      await leases.leave("monitor", "w1");
      expect(
        (await leases.list("monitor")).every((l) => l.owner === null && l.expiresAt === ""),
      ).toBe(true);
    });
  });
}
