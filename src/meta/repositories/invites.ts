import type { Kysely } from "kysely";
import { MEMBER_ROLES, type MemberRole } from "../../contracts/auth.js";
import type { InviteRow, MetaSchema } from "../schema.js";

// An unrecognised stored role reads as the least privileged one (as memberships do).
const toRole = (role: string): MemberRole => MEMBER_ROLES.find((r) => r === role) ?? "viewer";

/** An invitation into an organization; the link's token is stored only as its SHA-256. */
export interface InviteRecord {
  id: string;
  orgId: string;
  email: string;
  role: MemberRole;
  tokenHash: string;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  acceptedBy: string | null;
  revokedAt: string | null;
}

/** A pending invitation with who sent it (null once their account is gone). */
export interface PendingInvite extends InviteRecord {
  inviter: { name: string; email: string } | null;
}

const toRecord = (row: InviteRow): InviteRecord => ({
  id: row.id,
  orgId: row.org_id,
  email: row.email,
  role: toRole(row.role),
  tokenHash: row.token_hash,
  invitedBy: row.invited_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
  acceptedBy: row.accepted_by,
  revokedAt: row.revoked_at,
});

export function createInviteRepository(db: Kysely<MetaSchema>) {
  /** The invitations still open at `now`: neither accepted nor revoked, and not expired. */
  const pending = (now: string) =>
    db
      .updateTable("invites")
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now);
  return {
    async insert(invite: InviteRecord): Promise<InviteRecord> {
      await db
        .insertInto("invites")
        .values({
          id: invite.id,
          org_id: invite.orgId,
          email: invite.email,
          role: invite.role,
          token_hash: invite.tokenHash,
          invited_by: invite.invitedBy,
          created_at: invite.createdAt,
          expires_at: invite.expiresAt,
          accepted_at: invite.acceptedAt,
          accepted_by: invite.acceptedBy,
          revoked_at: invite.revokedAt,
        })
        .execute();
      return invite;
    },
    async findById(id: string): Promise<InviteRecord | undefined> {
      const row = await db
        .selectFrom("invites")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async findByTokenHash(tokenHash: string): Promise<InviteRecord | undefined> {
      const row = await db
        .selectFrom("invites")
        .selectAll()
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** The organization's open invitations at `now`, newest first, with their inviters. */
    async listPending(orgId: string, now: string): Promise<PendingInvite[]> {
      const rows = await db
        .selectFrom("invites")
        .leftJoin("users", "users.id", "invites.invited_by")
        .selectAll("invites")
        .select(["users.name as inviter_name", "users.email as inviter_email"])
        .where("invites.org_id", "=", orgId)
        .where("invites.accepted_at", "is", null)
        .where("invites.revoked_at", "is", null)
        .where("invites.expires_at", ">", now)
        .orderBy("invites.created_at", "desc")
        .orderBy("invites.id", "desc")
        .execute();
      return rows.map((r) => ({
        ...toRecord(r),
        inviter:
          r.inviter_name !== null && r.inviter_email !== null
            ? { name: r.inviter_name, email: r.inviter_email }
            : null,
      }));
    },
    /** Revokes the open invitations of one email (a new one replaces them); returns how many. */
    async revokePendingFor(orgId: string, email: string, now: string): Promise<number> {
      const result = await pending(now)
        .set({ revoked_at: now })
        .where("org_id", "=", orgId)
        .where("email", "=", email)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    /** Revokes one open invitation; false when it was not open (accepted, revoked, expired). */
    async revoke(id: string, now: string): Promise<boolean> {
      const result = await pending(now)
        .set({ revoked_at: now })
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /**
     * Marks an open invitation used, once: of two accepts at the same moment only one sees
     * true. False when it was not open any more.
     */
    async markAccepted(id: string, userId: string, now: string): Promise<boolean> {
      const result = await pending(now)
        .set({ accepted_at: now, accepted_by: userId })
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** Deletes invitations closed (accepted, revoked or expired) before `cutoff`; returns how many. */
    async deleteClosedBefore(cutoff: string): Promise<number> {
      const result = await db
        .deleteFrom("invites")
        .where((eb) =>
          eb.or([
            eb("accepted_at", "<", cutoff),
            eb("revoked_at", "<", cutoff),
            eb("expires_at", "<", cutoff),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type InviteRepository = ReturnType<typeof createInviteRepository>;
