import { expect, it } from "vitest";
import { ConflictError } from "../../src/lib/domain-errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { InviteRecord } from "../../src/meta/repositories/invites.js";

/** Invitations: storage by token hash, the pending list with inviters, revoke, single use. */
export function inviteStoreContract(getStore: () => MetaStore): void {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 4, 12, minute)).toISOString();
  const invite = (id: string, email: string, overrides: Partial<InviteRecord> = {}) => ({
    id,
    orgId: "org_inv",
    email,
    role: "member" as const,
    tokenHash: `hash-${id}`,
    invitedBy: "usr_inv_owner",
    createdAt: at(0),
    expiresAt: at(60),
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
    ...overrides,
  });

  it("stores invitations, found by token hash, listed pending with their inviter", async () => {
    const store = getStore();
    const { repos } = store;
    await repos.organizations.insert({ id: "org_inv", name: "Inv", createdAt: at(0) });
    await repos.users.insert({
      id: "usr_inv_owner",
      email: "owner@inv.example",
      name: "Olive",
      passwordHash: "x",
      createdAt: at(0),
    });
    await repos.invites.insert(invite("inv_1", "a@inv.example"));
    await repos.invites.insert(
      invite("inv_2", "b@inv.example", { createdAt: at(1), role: "admin" }),
    );
    await repos.invites.insert(invite("inv_3", "c@inv.example", { expiresAt: at(10) }));
    await repos.invites.insert(invite("inv_4", "d@inv.example", { invitedBy: null }));
    // One token hash, one invitation.
    await expect(
      store.run((r) =>
        r.invites.insert(invite("inv_5", "e@inv.example", { tokenHash: "hash-inv_1" })),
      ),
    ).rejects.toBeInstanceOf(ConflictError);

    expect(await repos.invites.findByTokenHash("hash-inv_2")).toEqual(
      invite("inv_2", "b@inv.example", { createdAt: at(1), role: "admin" }),
    );
    expect(await repos.invites.findByTokenHash("nothing")).toBeUndefined();
    const pending = await repos.invites.listPending("org_inv", at(20));
    // Newest first; inv_3 expired at minute 10.
    expect(pending.map((i) => i.id)).toEqual(["inv_2", "inv_4", "inv_1"]);
    expect(pending[0]?.inviter).toEqual({ name: "Olive", email: "owner@inv.example" });
    expect(pending[1]?.inviter).toBeNull();
    expect(await repos.invites.listPending("org_other", at(20))).toEqual([]);
  });

  it("revokes an email's pending invitations and marks one accepted only once", async () => {
    const { repos } = getStore();
    await repos.invites.insert(invite("inv_6", "a@inv.example", { tokenHash: "hash-inv_6" }));
    expect(await repos.invites.revokePendingFor("org_inv", "a@inv.example", at(2))).toBe(2);
    expect((await repos.invites.findById("inv_1"))?.revokedAt).toBe(at(2));
    expect(await repos.invites.markAccepted("inv_1", "usr_inv_owner", at(3))).toBe(false);

    expect(await repos.invites.markAccepted("inv_2", "usr_inv_owner", at(3))).toBe(true);
    expect(await repos.invites.markAccepted("inv_2", "usr_inv_owner", at(4))).toBe(false);
    expect(await repos.invites.findById("inv_2")).toMatchObject({
      acceptedAt: at(3),
      acceptedBy: "usr_inv_owner",
    });
    // Expired ones are neither revoked nor accepted.
    expect(await repos.invites.revoke("inv_3", at(20))).toBe(false);
    expect(await repos.invites.markAccepted("inv_3", "usr_inv_owner", at(20))).toBe(false);
    expect(await repos.invites.revoke("inv_4", at(5))).toBe(true);
    expect(await repos.invites.revoke("inv_4", at(6))).toBe(false);
    expect(await repos.invites.listPending("org_inv", at(20))).toEqual([]);
  });

  it("deletes the invitations closed before a time, keeping the open ones", async () => {
    const { repos } = getStore();
    await repos.invites.insert(invite("inv_7", "f@inv.example", { expiresAt: at(600) }));
    // Closed at minutes 2–10 (revoked, accepted, expired); inv_7 is still open.
    expect(await repos.invites.deleteClosedBefore(at(4))).toBe(3);
    expect(await repos.invites.findById("inv_2")).toBeUndefined();
    expect(await repos.invites.findById("inv_4")).toBeDefined();
    expect(await repos.invites.deleteClosedBefore(at(30))).toBe(2);
    expect(await repos.invites.findById("inv_7")).toBeDefined();
  });
}
