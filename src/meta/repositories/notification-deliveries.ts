import { type Kysely, sql } from "kysely";
import { DELIVERY_STATUSES, type DeliveryStatus } from "../../contracts/channels.js";
import type { MetaSchema, NotificationDeliveryRow } from "../schema.js";
import { claimDueRows } from "./batches.js";

/** One notification to one channel: the outbox row and its attempt history. */
export interface NotificationDelivery {
  id: string;
  projectId: string;
  channelId: string;
  monitorId: string | null;
  /** The alert rule that notified (null for monitors and channel tests). */
  ruleId?: string | null;
  incidentId: string | null;
  event: string;
  /** What the channel is sent, stored as JSON; its shape is the notifications domain's to read. */
  payload: unknown;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  lastError: string | null;
  /** When a pending delivery is due (or leased until, while being sent); null once final. */
  nextAttemptAt: string | null;
  sentAt: string | null;
  createdAt: string;
}

/** A delivery to enqueue: pending, no attempts yet, due at `nextAttemptAt` (default `createdAt`). */
export interface NewNotificationDelivery {
  id: string;
  projectId: string;
  channelId: string;
  monitorId: string | null;
  ruleId?: string | null;
  incidentId: string | null;
  event: string;
  payload: unknown;
  createdAt: string;
  nextAttemptAt?: string;
}

/** How long a claimed delivery stays out of other claimers' reach, unless told otherwise. */
export const DEFAULT_CLAIM_LEASE_MS = 60_000;

const toStatus = (value: string): DeliveryStatus =>
  (DELIVERY_STATUSES as readonly string[]).includes(value) ? (value as DeliveryStatus) : "failed";

const toDelivery = (row: NotificationDeliveryRow): NotificationDelivery => ({
  id: row.id,
  projectId: row.project_id,
  channelId: row.channel_id,
  monitorId: row.monitor_id,
  ruleId: row.rule_id,
  incidentId: row.incident_id,
  event: row.event,
  payload: JSON.parse(row.payload) as unknown,
  status: toStatus(row.status),
  attempts: Number(row.attempts),
  lastError: row.last_error,
  nextAttemptAt: row.next_attempt_at,
  sentAt: row.sent_at,
  createdAt: row.created_at,
});

const toRow = (d: NotificationDelivery) => ({
  id: d.id,
  project_id: d.projectId,
  channel_id: d.channelId,
  monitor_id: d.monitorId,
  rule_id: d.ruleId ?? null,
  incident_id: d.incidentId,
  event: d.event,
  payload: JSON.stringify(d.payload),
  status: d.status,
  attempts: d.attempts,
  last_error: d.lastError,
  next_attempt_at: d.nextAttemptAt,
  sent_at: d.sentAt,
  created_at: d.createdAt,
});

const byCreation = (a: NotificationDelivery, b: NotificationDelivery) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** The notification outbox: monitors enqueue in their transaction, the dispatcher drains it. */
export function createNotificationDeliveryRepository(db: Kysely<MetaSchema>) {
  return {
    /** Enqueues pending deliveries; meant to run inside the transaction that decided to notify. */
    async insertMany(rows: readonly NewNotificationDelivery[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto("notification_deliveries")
        .values(
          rows.map((r) =>
            toRow({
              ...r,
              status: "pending",
              attempts: 0,
              lastError: null,
              nextAttemptAt: r.nextAttemptAt ?? r.createdAt,
              sentAt: null,
            }),
          ),
        )
        .execute();
    },
    /** Stores a delivery as it is, e.g. a channel test already attempted. */
    async insert(delivery: NotificationDelivery): Promise<NotificationDelivery> {
      await db.insertInto("notification_deliveries").values(toRow(delivery)).execute();
      return delivery;
    },
    async findById(id: string): Promise<NotificationDelivery | undefined> {
      const row = await db
        .selectFrom("notification_deliveries")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toDelivery(row);
    },
    /**
     * Claims up to `limit` pending deliveries due at `now` (ISO), oldest due first, by moving
     * their next_attempt_at to `leaseUntil`: a concurrent claimer (another process) skips them,
     * and a claimer that dies leaves them due again once the lease ends. The outer conditions are
     * re-checked on each row as it is updated, so two claimers never get the same row.
     */
    async claimDue(
      now: string,
      limit: number,
      leaseUntil: string = new Date(Date.parse(now) + DEFAULT_CLAIM_LEASE_MS).toISOString(),
    ): Promise<NotificationDelivery[]> {
      const rows = await claimDueRows(db, "notification_deliveries", now, limit, leaseUntil);
      return rows.map(toDelivery).sort(byCreation);
    },
    /**
     * Records a successful attempt (counted), making the delivery final. Fenced by the lease it
     * was claimed with (`heldUntil`, its next_attempt_at then): false, and nothing written, when
     * the lease ran out and another worker claimed it since.
     */
    async markSent(id: string, at: string, heldUntil: string): Promise<boolean> {
      const result = await db
        .updateTable("notification_deliveries")
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
    /**
     * Records a failed attempt. With a next attempt time the delivery stays pending until then;
     * with null it is failed for good. Fenced like markSent.
     */
    async markFailed(
      id: string,
      failure: {
        error: string;
        attempts: number;
        nextAttemptAt: string | null;
        heldUntil: string;
      },
    ): Promise<boolean> {
      const result = await db
        .updateTable("notification_deliveries")
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
    /** A channel's most recent deliveries, newest first. */
    async listByChannel(channelId: string, limit: number): Promise<NotificationDelivery[]> {
      const rows = await db
        .selectFrom("notification_deliveries")
        .selectAll()
        .where("channel_id", "=", channelId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map(toDelivery);
    },
    /** The deliveries of these incidents, oldest first (one query for a page of incidents). */
    async listByIncidents(incidentIds: readonly string[]): Promise<NotificationDelivery[]> {
      if (incidentIds.length === 0) return [];
      const rows = await db
        .selectFrom("notification_deliveries")
        .selectAll()
        .where("incident_id", "in", incidentIds)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toDelivery);
    },
  };
}
export type NotificationDeliveryRepository = ReturnType<
  typeof createNotificationDeliveryRepository
>;
