import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { MetaSchema, StatusPageSubscriberRow } from "../schema.js";

// A status page's subscribers (email with double opt-in, webhooks) and, per page, the cursor of
// what was announced to them. Tokens are stored as sha256 hashes; what must be sent again (the
// unsubscribe token, a webhook's secret) is sealed by the domain before it comes here.

export type SubscriberKind = "email" | "webhook";
export type SubscriberStatus = "pending" | "confirmed";

export interface StatusPageSubscriberRecord {
  id: string;
  pageId: string;
  kind: SubscriberKind;
  /** The email address (lowercased) or the webhook URL. */
  address: string;
  status: SubscriberStatus;
  /** Components of the page it follows; empty for the whole page. */
  componentIds: string[];
  /** A webhook's signing secret, sealed. */
  secret: string | null;
  confirmTokenHash: string | null;
  confirmExpiresAt: string | null;
  unsubscribeTokenHash: string;
  /** The unsubscribe token, sealed. */
  unsubscribeToken: string;
  createdBy: string | null;
  confirmedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What was announced of a page so far, at which data version and when. */
export interface SubscriberCursorRecord {
  pageId: string;
  dataVersion: number;
  /** JSON text of the domain's snapshot; null until the page was first read. */
  snapshot: string | null;
  checkedAt: string;
}

/** A cursor behind its page's data version, with whether the page has confirmed subscribers. */
export interface StaleCursor extends SubscriberCursorRecord {
  pageVersion: number;
  confirmed: number;
}

export interface SubscriberCounts {
  confirmedEmail: number;
  pendingEmail: number;
  webhook: number;
}

const toRecord = (row: StatusPageSubscriberRow): StatusPageSubscriberRecord => ({
  id: row.id,
  pageId: row.page_id,
  kind: row.kind as SubscriberKind,
  address: row.address,
  status: row.status as SubscriberStatus,
  componentIds: JSON.parse(row.component_ids) as string[],
  secret: row.secret,
  confirmTokenHash: row.confirm_token_hash,
  confirmExpiresAt: row.confirm_expires_at,
  unsubscribeTokenHash: row.unsubscribe_token_hash,
  unsubscribeToken: row.unsubscribe_token,
  createdBy: row.created_by,
  confirmedAt: row.confirmed_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Confirmed, or pending with a confirmation still valid at `at` (the sweep drops the rest later). */
const live = (at: string) => (eb: ExpressionBuilder<MetaSchema, "status_page_subscribers">) =>
  eb.or([eb("status", "!=", "pending"), eb("confirm_expires_at", ">", at)]);

export function createStatusPageSubscriberRepository(db: Kysely<MetaSchema>) {
  const find = async (
    column: "id" | "confirm_token_hash" | "unsubscribe_token_hash",
    v: string,
  ) => {
    const row = await db
      .selectFrom("status_page_subscribers")
      .selectAll()
      .where(column, "=", v)
      .executeTakeFirst();
    return row && toRecord(row);
  };
  return {
    async insert(s: StatusPageSubscriberRecord): Promise<void> {
      await db
        .insertInto("status_page_subscribers")
        .values({
          id: s.id,
          page_id: s.pageId,
          kind: s.kind,
          address: s.address,
          status: s.status,
          component_ids: JSON.stringify(s.componentIds),
          secret: s.secret,
          confirm_token_hash: s.confirmTokenHash,
          confirm_expires_at: s.confirmExpiresAt,
          unsubscribe_token_hash: s.unsubscribeTokenHash,
          unsubscribe_token: s.unsubscribeToken,
          created_by: s.createdBy,
          confirmed_at: s.confirmedAt,
          created_at: s.createdAt,
          updated_at: s.updatedAt,
        })
        .execute();
    },
    findById: (id: string) => find("id", id),
    findByConfirmHash: (hash: string) => find("confirm_token_hash", hash),
    findByUnsubscribeHash: (hash: string) => find("unsubscribe_token_hash", hash),
    async findByAddress(
      pageId: string,
      address: string,
    ): Promise<StatusPageSubscriberRecord | undefined> {
      const row = await db
        .selectFrom("status_page_subscribers")
        .selectAll()
        .where("page_id", "=", pageId)
        .where("address", "=", address)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** A pending subscriber asked again: a new confirmation token, expiry and scope. */
    async renewPending(
      id: string,
      change: {
        confirmTokenHash: string;
        confirmExpiresAt: string;
        componentIds: string[];
        at: string;
      },
    ): Promise<boolean> {
      const result = await db
        .updateTable("status_page_subscribers")
        .set({
          confirm_token_hash: change.confirmTokenHash,
          confirm_expires_at: change.confirmExpiresAt,
          component_ids: JSON.stringify(change.componentIds),
          updated_at: change.at,
        })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Confirms a pending subscriber whose token has not expired; false otherwise (single use). */
    async confirm(id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable("status_page_subscribers")
        .set({
          status: "confirmed",
          confirm_token_hash: null,
          confirm_expires_at: null,
          confirmed_at: at,
          updated_at: at,
        })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("confirm_expires_at", ">", at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async delete(id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("status_page_subscribers")
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** A page's subscribers, newest first, without the sign-ups expired by `at`. */
    async list(
      pageId: string,
      page: { limit: number; offset: number; at: string },
    ): Promise<{ rows: StatusPageSubscriberRecord[]; total: number }> {
      const [rows, total] = await Promise.all([
        db
          .selectFrom("status_page_subscribers")
          .selectAll()
          .where("page_id", "=", pageId)
          .where(live(page.at))
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        db
          .selectFrom("status_page_subscribers")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("page_id", "=", pageId)
          .where(live(page.at))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(toRecord), total: Number(total.n) };
    },
    /** A page's subscribers by kind and status; expired sign-ups (by `at`) are not counted. */
    async counts(pageId: string, at: string): Promise<SubscriberCounts> {
      const rows = await db
        .selectFrom("status_page_subscribers")
        .select(["kind", "status", (eb) => eb.fn.countAll<number>().as("n")])
        .where("page_id", "=", pageId)
        .where(live(at))
        .groupBy(["kind", "status"])
        .execute();
      const n = (kind: string, status?: string) =>
        rows
          .filter((r) => r.kind === kind && (status === undefined || r.status === status))
          .reduce((sum, r) => sum + Number(r.n), 0);
      return {
        confirmedEmail: n("email", "confirmed"),
        pendingEmail: n("email", "pending"),
        webhook: n("webhook"),
      };
    },
    /** The page's confirmed subscribers (those a change is announced to). */
    async confirmedOf(pageId: string): Promise<StatusPageSubscriberRecord[]> {
      const rows = await db
        .selectFrom("status_page_subscribers")
        .selectAll()
        .where("page_id", "=", pageId)
        .where("status", "=", "confirmed")
        .orderBy("id")
        .execute();
      return rows.map(toRecord);
    },
    /** Deletes up to `limit` unconfirmed subscribers whose confirmation expired before `at`. */
    async deleteExpired(at: string, limit: number): Promise<number> {
      const result = await sql`
        DELETE FROM status_page_subscribers WHERE id IN (
          SELECT id FROM status_page_subscribers
          WHERE status = 'pending' AND confirm_expires_at < ${at} LIMIT ${limit}
        )`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },

    /** Starts watching a page (its first subscriber): announced from `at` on. */
    async ensureCursor(pageId: string, at: string): Promise<void> {
      await db
        .insertInto("status_page_subscriber_cursors")
        .values({ page_id: pageId, data_version: -1, snapshot: null, checked_at: at })
        .onConflict((oc) => oc.column("page_id").doNothing())
        .execute();
    },
    /** Cursors behind their page's data version, oldest check first. */
    async staleCursors(limit: number): Promise<StaleCursor[]> {
      const { rows } = await sql<{
        page_id: string;
        data_version: number;
        snapshot: string | null;
        checked_at: string;
        page_version: number;
        confirmed: number;
      }>`
        SELECT c.page_id, c.data_version, c.snapshot, c.checked_at, p.data_version AS page_version,
          (SELECT count(*) FROM status_page_subscribers s
            WHERE s.page_id = c.page_id AND s.status = 'confirmed') AS confirmed
        FROM status_page_subscriber_cursors c JOIN status_pages p ON p.id = c.page_id
        WHERE p.data_version <> c.data_version
        ORDER BY c.checked_at, c.page_id LIMIT ${limit}`.execute(db);
      return rows.map((r) => ({
        pageId: r.page_id,
        dataVersion: Number(r.data_version),
        snapshot: r.snapshot,
        checkedAt: r.checked_at,
        pageVersion: Number(r.page_version),
        confirmed: Number(r.confirmed),
      }));
    },
    /**
     * Moves a cursor on, fenced on the version and check time it was read with: false, and
     * nothing written, when another worker moved it first.
     */
    async advanceCursor(
      from: Pick<SubscriberCursorRecord, "pageId" | "dataVersion" | "checkedAt">,
      to: Omit<SubscriberCursorRecord, "pageId">,
    ): Promise<boolean> {
      const result = await db
        .updateTable("status_page_subscriber_cursors")
        .set({ data_version: to.dataVersion, snapshot: to.snapshot, checked_at: to.checkedAt })
        .where("page_id", "=", from.pageId)
        .where("data_version", "=", from.dataVersion)
        .where("checked_at", "=", from.checkedAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
export type StatusPageSubscriberRepository = ReturnType<
  typeof createStatusPageSubscriberRepository
>;
