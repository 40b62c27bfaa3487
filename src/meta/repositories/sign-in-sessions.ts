import type { Kysely } from "kysely";
import type { MetaSchema, SessionRow } from "../schema.js";

/** A sign-in session; the cookie holds the token, the store holds only its SHA-256. */
export interface SignInSessionRecord {
  id: string;
  tokenHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  lastSeenAt: string;
}

const toRecord = (row: SessionRow): SignInSessionRecord => ({
  id: row.id,
  tokenHash: row.token_hash,
  userId: row.user_id,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastSeenAt: row.last_seen_at,
});

export function createSignInSessionRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(session: SignInSessionRecord): Promise<SignInSessionRecord> {
      await db
        .insertInto("sessions")
        .values({
          id: session.id,
          token_hash: session.tokenHash,
          user_id: session.userId,
          created_at: session.createdAt,
          expires_at: session.expiresAt,
          last_seen_at: session.lastSeenAt,
        })
        .execute();
      return session;
    },
    async findByTokenHash(tokenHash: string): Promise<SignInSessionRecord | undefined> {
      const row = await db
        .selectFrom("sessions")
        .selectAll()
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async touch(id: string, lastSeenAt: string, expiresAt: string): Promise<void> {
      await db
        .updateTable("sessions")
        .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
        .where("id", "=", id)
        .execute();
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom("sessions").where("id", "=", id).execute();
    },
    async deleteExpired(now: string): Promise<number> {
      const result = await db
        .deleteFrom("sessions")
        .where("expires_at", "<=", now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type SignInSessionRepository = ReturnType<typeof createSignInSessionRepository>;
