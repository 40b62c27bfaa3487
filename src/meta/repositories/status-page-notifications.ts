import { type Kysely, sql } from "kysely";
import type { MetaSchema, StatusPageNotificationRow } from "../schema.js";
import { claimDueRows } from "./batches.js";

// The outbox of status page subscribers: one row per message to one subscriber (a confirmation,
// an incident or maintenance announcement), claimed and sent by the worker with retries.

export type StatusPageNotificationStatus = "pending" | "sent" | "failed";

export interface StatusPageNotificationRecord {
  id: string;
  pageId: string;
  subscriberId: string;
  event: string;
  /** The message's data as JSON; its shape is the status pages domain's to read. */
  payload: unknown;
  status: StatusPageNotificationStatus;
  attempts: number;
  lastError: string | null;
  /** When a pending row is due (or leased until, while being sent); null once final. */
  nextAttemptAt: string | null;
  sentAt: string | null;
  createdAt: string;
}

export type NewStatusPageNotification = Pick<
  StatusPageNotificationRecord,
  "id" | "pageId" | "subscriberId" | "event" | "payload" | "createdAt"
>;

const toRecord = (row: StatusPageNotificationRow): StatusPageNotificationRecord => ({
  id: row.id,
  pageId: row.page_id,
  subscriberId: row.subscriber_id,
  event: row.event,
  payload: JSON.parse(row.payload) as unknown,
  status: row.status as StatusPageNotificationStatus,
  attempts: Number(row.attempts),
  lastError: row.last_error,
  nextAttemptAt: row.next_attempt_at,
  sentAt: row.sent_at,
  createdAt: row.created_at,
});

export function createStatusPageNotificationRepository(db: Kysely<MetaSchema>) {
  return {
    /** Enqueues pending rows, due at once; meant to run in the transaction that decided them. */
    async insertMany(rows: readonly NewStatusPageNotification[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto("status_page_notifications")
        .values(
          rows.map((r) => ({
            id: r.id,
            page_id: r.pageId,
            subscriber_id: r.subscriberId,
            event: r.event,
            payload: JSON.stringify(r.payload),
            status: "pending",
            attempts: 0,
            last_error: null,
            next_attempt_at: r.createdAt,
            sent_at: null,
            created_at: r.createdAt,
          })),
        )
        .execute();
    },
    /** Claims up to `limit` due rows by moving their next_attempt_at to `leaseUntil`. */
    async claimDue(
      now: string,
      limit: number,
      leaseUntil: string,
    ): Promise<StatusPageNotificationRecord[]> {
      const rows = await claimDueRows(db, "status_page_notifications", now, limit, leaseUntil);
      return rows.map(toRecord).sort((a, b) => a.id.localeCompare(b.id));
    },
    /** A sent row, fenced on the lease it was claimed with. */
    async markSent(id: string, at: string, heldUntil: string): Promise<boolean> {
      const result = await db
        .updateTable("status_page_notifications")
        .set({
          status: "sent",
          sent_at: at,
          attempts: sql<number>`attempts + 1`,
          next_attempt_at: null,
        })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("next_attempt_at", "=", heldUntil)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** A failed attempt: pending again at `nextAttemptAt`, or failed for good with null. */
    async markFailed(
      id: string,
      failure: { error: string; attempts: number; nextAttemptAt: string | null; heldUntil: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable("status_page_notifications")
        .set({
          status: failure.nextAttemptAt === null ? "failed" : "pending",
          attempts: failure.attempts,
          last_error: failure.error,
          next_attempt_at: failure.nextAttemptAt,
        })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("next_attempt_at", "=", failure.heldUntil)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async findById(id: string): Promise<StatusPageNotificationRecord | undefined> {
      const row = await db
        .selectFrom("status_page_notifications")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** A subscriber's rows, oldest first. */
    async listBySubscriber(subscriberId: string): Promise<StatusPageNotificationRecord[]> {
      const rows = await db
        .selectFrom("status_page_notifications")
        .selectAll()
        .where("subscriber_id", "=", subscriberId)
        .orderBy("id")
        .execute();
      return rows.map(toRecord);
    },
    /** Deletes up to `limit` rows created before `cutoff` that are final (sent or failed). */
    async deleteFinishedBefore(cutoff: string, limit: number): Promise<number> {
      const result = await sql`
        DELETE FROM status_page_notifications WHERE id IN (
          SELECT id FROM status_page_notifications
          WHERE created_at < ${cutoff} AND status <> 'pending' LIMIT ${limit}
        )`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
}
export type StatusPageNotificationRepository = ReturnType<
  typeof createStatusPageNotificationRepository
>;
