import { expect, it } from "vitest";
import { ConflictError } from "../../src/lib/domain-errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { StatusPageSubscriberRecord } from "../../src/meta/repositories/status-page-subscribers.js";

/**
 * Status page subscribers: one address per page, single-use confirmation fenced on its expiry,
 * counts and the list (without expired sign-ups), the expiry sweep, the announcement cursor
 * (fenced moves) and the outbox (claims, fenced outcomes, cascades with the subscriber).
 */
export function statusPageSubscriberStoreContract(getStore: () => MetaStore): void {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 4, 12, minute)).toISOString();
  const subscriber = (
    id: string,
    address: string,
    over: Partial<StatusPageSubscriberRecord> = {},
  ): StatusPageSubscriberRecord => ({
    id,
    pageId: "stp_subs",
    kind: "email",
    address,
    status: "pending",
    componentIds: [],
    secret: null,
    confirmTokenHash: `confirm-${id}`,
    confirmExpiresAt: at(30),
    unsubscribeTokenHash: `unsubscribe-${id}`,
    unsubscribeToken: `sealed-${id}`,
    createdBy: null,
    confirmedAt: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...over,
  });

  it("keeps one subscriber per address and page, confirms once before expiry, counts and sweeps", async () => {
    const store = getStore();
    const { repos } = store;
    await repos.organizations.insert({ id: "org_subs", name: "Subs", createdAt: at(0) });
    await repos.statusPages.insert({
      id: "stp_subs",
      orgId: "org_subs",
      slug: "subs-contract",
      title: "Subs",
      description: "",
      logoUrl: null,
      links: [],
      timezone: "UTC",
      state: "operational",
      stateChangedAt: at(0),
      dataVersion: 1,
      createdBy: null,
      createdAt: at(0),
      updatedAt: at(0),
    });
    const repo = repos.statusPageSubscribers;
    await repo.insert(subscriber("sub_a", "a@example.com", { componentIds: ["spc_1"] }));
    await repo.insert(subscriber("sub_b", "b@example.com"));
    await repo.insert(
      subscriber("sub_w", "https://example.com/hook", {
        kind: "webhook",
        status: "confirmed",
        secret: "sealed",
        confirmTokenHash: null,
        confirmExpiresAt: null,
      }),
    );
    await expect(
      store.run((r) => r.statusPageSubscribers.insert(subscriber("sub_x", "a@example.com"))),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await repo.findByConfirmHash("confirm-sub_a"))?.componentIds).toEqual(["spc_1"]);
    expect((await repo.findByUnsubscribeHash("unsubscribe-sub_b"))?.id).toBe("sub_b");
    expect((await repo.findByAddress("stp_subs", "a@example.com"))?.id).toBe("sub_a");

    // Past its expiry a link confirms nothing; before it, once.
    expect(await repo.confirm("sub_a", at(31))).toBe(false);
    expect(await repo.confirm("sub_a", at(10))).toBe(true);
    expect(await repo.confirm("sub_a", at(11))).toBe(false);
    const confirmed = await repo.findById("sub_a");
    expect(confirmed).toMatchObject({
      status: "confirmed",
      confirmTokenHash: null,
      confirmedAt: at(10),
    });
    expect(
      await repo.renewPending("sub_a", {
        confirmTokenHash: "x",
        confirmExpiresAt: at(50),
        componentIds: [],
        at: at(12),
      }),
    ).toBe(false);
    expect(await repo.counts("stp_subs", at(12))).toEqual({
      confirmedEmail: 1,
      pendingEmail: 1,
      webhook: 1,
    });
    expect((await repo.confirmedOf("stp_subs")).map((s) => s.id)).toEqual(["sub_a", "sub_w"]);
    const { rows, total } = await repo.list("stp_subs", { limit: 2, offset: 0, at: at(12) });
    expect(total).toBe(3);
    expect(rows).toHaveLength(2);
    // A sign-up past its expiry is neither counted nor listed, before the sweep drops it.
    expect(await repo.counts("stp_subs", at(31))).toEqual({
      confirmedEmail: 1,
      pendingEmail: 0,
      webhook: 1,
    });
    const later = await repo.list("stp_subs", { limit: 10, offset: 0, at: at(31) });
    expect([later.total, later.rows.map((s) => s.id).sort()]).toEqual([2, ["sub_a", "sub_w"]]);

    expect(await repo.deleteExpired(at(20), 10)).toBe(0);
    expect(await repo.deleteExpired(at(40), 10)).toBe(1);
    expect(await repo.findById("sub_b")).toBeUndefined();
  });

  it("moves the announcement cursor once per read, and runs the outbox with fenced outcomes", async () => {
    const { repos } = getStore();
    const repo = repos.statusPageSubscribers;
    await repo.ensureCursor("stp_subs", at(1));
    await repo.ensureCursor("stp_subs", at(2));
    const [stale] = await repo.staleCursors(10);
    expect(stale).toMatchObject({
      pageId: "stp_subs",
      dataVersion: -1,
      pageVersion: 1,
      confirmed: 2,
      checkedAt: at(1),
    });
    const from = { pageId: "stp_subs", dataVersion: -1, checkedAt: at(1) };
    expect(
      await repo.advanceCursor(from, { dataVersion: 1, snapshot: "{}", checkedAt: at(3) }),
    ).toBe(true);
    // A second worker that read the same cursor moves nothing.
    expect(
      await repo.advanceCursor(from, { dataVersion: 1, snapshot: "{}", checkedAt: at(4) }),
    ).toBe(false);
    expect(await repo.staleCursors(10)).toEqual([]);

    const outbox = repos.statusPageNotifications;
    await outbox.insertMany(
      ["spn_1", "spn_2"].map((id) => ({
        id,
        pageId: "stp_subs",
        subscriberId: id === "spn_1" ? "sub_a" : "sub_w",
        event: "incident.created",
        payload: { n: id },
        createdAt: at(5),
      })),
    );
    const claimed = await outbox.claimDue(at(6), 10, at(8));
    expect(claimed.map((r) => r.id)).toEqual(["spn_1", "spn_2"]);
    expect(claimed[0]?.payload).toEqual({ n: "spn_1" });
    expect(await outbox.claimDue(at(7), 10, at(9))).toEqual([]);
    expect(await outbox.markSent("spn_1", at(7), at(8))).toBe(true);
    expect(await outbox.markSent("spn_1", at(7), at(8))).toBe(false);
    expect(
      await outbox.markFailed("spn_2", {
        error: "answered 500",
        attempts: 1,
        nextAttemptAt: at(20),
        heldUntil: at(9),
      }),
    ).toBe(false);
    expect(
      await outbox.markFailed("spn_2", {
        error: "answered 500",
        attempts: 1,
        nextAttemptAt: at(20),
        heldUntil: at(8),
      }),
    ).toBe(true);
    expect(await outbox.findById("spn_2")).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "answered 500",
      nextAttemptAt: at(20),
    });
    expect(await outbox.deleteFinishedBefore(at(6), 10)).toBe(1);
    expect(await outbox.findById("spn_1")).toBeUndefined();
    // A removed subscriber's queued messages go with it.
    expect(await repo.delete("sub_w")).toBe(true);
    expect(await outbox.findById("spn_2")).toBeUndefined();
  });
}
