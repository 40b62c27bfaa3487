import type { Kysely } from "kysely";
import type { MetaSchema, WebhookAttemptRow, WebhookDeliveryRow } from "../schema.js";
import { claimDueRows, deleteBatchBefore } from "./batches.js";

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One message to one endpoint: the durable job behind its attempts. */
export interface WebhookDelivery {
  id: string;
  projectId: string;
  endpointId: string;
  /** Sent as `webhook-id`; the same for every attempt. */
  messageId: string;
  /** The id of the event that caused it (unique per endpoint). */
  eventId: string;
  event: string;
  data: unknown;
  status: WebhookDeliveryStatus;
  /** Attempts made and recorded so far. */
  attempts: number;
  /** When a pending delivery is due, or leased until while an attempt is in flight. */
  nextAttemptAt: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** A delivery to enqueue: pending, no attempt yet, due at `nextAttemptAt`. */
export type NewWebhookDelivery = Omit<
  WebhookDelivery,
  "status" | "attempts" | "finishedAt" | "nextAttemptAt"
> & { nextAttemptAt: string };

/** One recorded attempt: a row of the delivery log. */
export interface WebhookAttempt {
  id: string;
  deliveryId: string;
  endpointId: string;
  messageId: string;
  event: string;
  attempt: number;
  /** The receiver's status, or 0 for a network error or timeout. */
  statusCode: number;
  durationMs: number;
  success: boolean;
  /** The first 500 characters of the response body, or what went wrong. */
  body: string;
  createdAt: string;
}

/** A log row with its delivery's state: when the next attempt is due, if one is. */
export interface WebhookAttemptWithRetry extends WebhookAttempt {
  retryAt: string | null;
}

/** The outcome of one attempt and what it means for its delivery. */
export interface AttemptOutcome {
  attempt: WebhookAttempt;
  /** The lease the attempt was made under (the delivery's next_attempt_at when claimed). */
  leaseUntil: string;
  /** pending (with `nextAttemptAt`), succeeded or failed. */
  status: WebhookDeliveryStatus;
  nextAttemptAt: string | null;
  finishedAt: string | null;
}

const toStatus = (value: string): WebhookDeliveryStatus =>
  (WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(value)
    ? (value as WebhookDeliveryStatus)
    : "failed";

const toDelivery = (row: WebhookDeliveryRow): WebhookDelivery => ({
  id: row.id,
  projectId: row.project_id,
  endpointId: row.endpoint_id,
  messageId: row.message_id,
  eventId: row.event_id,
  event: row.event,
  data: JSON.parse(row.payload) as unknown,
  status: toStatus(row.status),
  attempts: Number(row.attempts),
  nextAttemptAt: row.next_attempt_at,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

const toAttempt = (row: WebhookAttemptRow): WebhookAttempt => ({
  id: row.id,
  deliveryId: row.delivery_id,
  endpointId: row.endpoint_id,
  messageId: row.message_id,
  event: row.event,
  attempt: Number(row.attempt),
  statusCode: Number(row.status_code),
  durationMs: Number(row.duration_ms),
  success: Number(row.success) === 1,
  body: row.body,
  createdAt: row.created_at,
});

const byCreation = (a: WebhookDelivery, b: WebhookDelivery) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** The webhook delivery queue and its attempt log. */
export function createWebhookDeliveryRepository(db: Kysely<MetaSchema>) {
  return {
    /**
     * Enqueues deliveries. One already queued for the same endpoint and event id is left as it
     * is, so an event published twice (a retried notification) is delivered once.
     */
    async enqueue(rows: readonly NewWebhookDelivery[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto("webhook_deliveries")
        .values(
          rows.map((d) => ({
            id: d.id,
            project_id: d.projectId,
            endpoint_id: d.endpointId,
            message_id: d.messageId,
            event_id: d.eventId,
            event: d.event,
            payload: JSON.stringify(d.data),
            status: "pending",
            attempts: 0,
            next_attempt_at: d.nextAttemptAt,
            created_at: d.createdAt,
            finished_at: null,
          })),
        )
        .onConflict((oc) => oc.columns(["endpoint_id", "event_id"]).doNothing())
        .execute();
    },
    async findById(id: string): Promise<WebhookDelivery | undefined> {
      const row = await db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toDelivery(row);
    },
    /**
     * Claims up to `limit` pending deliveries due at `now`, oldest due first, by moving their
     * next_attempt_at to `leaseUntil`: another process skips them, and if this one dies they are
     * due again when the lease ends (at-least-once). The conditions are re-checked on each row
     * as it is updated, so two claimers never get the same delivery.
     */
    async claimDue(now: string, limit: number, leaseUntil: string): Promise<WebhookDelivery[]> {
      const rows = await claimDueRows(db, "webhook_deliveries", now, limit, leaseUntil);
      return rows.map(toDelivery).sort(byCreation);
    },
    /** When the next pending delivery is due (or its lease ends); undefined when none is pending. */
    async nextDueAt(): Promise<string | undefined> {
      const row = await db
        .selectFrom("webhook_deliveries")
        .select((eb) => eb.fn.min("next_attempt_at").as("at"))
        .where("status", "=", "pending")
        .executeTakeFirst();
      return row?.at ?? undefined;
    },
    /**
     * Records attempts and moves their deliveries on; meant to run in one transaction. Every
     * attempt whose delivery still exists is logged (spec: every attempt is recorded), but a
     * delivery moves on only while it is still held under the lease its attempt was made with:
     * one cancelled (its endpoint disabled) or claimed again after the lease ran out keeps its
     * newer state. An outcome whose delivery is gone (its endpoint was deleted) is dropped.
     * Resolves with how many deliveries moved on.
     */
    async recordOutcomes(outcomes: readonly AttemptOutcome[]): Promise<number> {
      // One order for the row locks (PostgreSQL), whatever order attempts finished in.
      const sorted = [...outcomes].sort((a, b) =>
        a.attempt.deliveryId.localeCompare(b.attempt.deliveryId),
      );
      let moved = 0;
      for (const outcome of sorted) {
        const { attempt } = outcome;
        const updated = await db
          .updateTable("webhook_deliveries")
          .set({
            status: outcome.status,
            attempts: attempt.attempt,
            next_attempt_at: outcome.nextAttemptAt,
            finished_at: outcome.finishedAt,
          })
          .where("id", "=", attempt.deliveryId)
          .where("status", "=", "pending")
          .where("attempts", "=", attempt.attempt - 1)
          .where("next_attempt_at", "=", outcome.leaseUntil)
          .executeTakeFirst();
        moved += Number(updated.numUpdatedRows);
      }
      const ids = [...new Set(sorted.map((o) => o.attempt.deliveryId))];
      const existing =
        ids.length === 0
          ? new Set<string>()
          : new Set(
              (
                await db
                  .selectFrom("webhook_deliveries")
                  .select("id")
                  .where("id", "in", ids)
                  .execute()
              ).map((row) => row.id),
            );
      const logged = sorted.filter((o) => existing.has(o.attempt.deliveryId));
      if (logged.length > 0)
        await db
          .insertInto("webhook_attempts")
          .values(
            logged.map(({ attempt }) => ({
              id: attempt.id,
              delivery_id: attempt.deliveryId,
              endpoint_id: attempt.endpointId,
              message_id: attempt.messageId,
              event: attempt.event,
              attempt: attempt.attempt,
              status_code: attempt.statusCode,
              duration_ms: attempt.durationMs,
              success: attempt.success ? 1 : 0,
              body: attempt.body,
              created_at: attempt.createdAt,
            })),
          )
          .execute();
      return moved;
    },
    /** Ends an endpoint's pending deliveries without an attempt (it was disabled). */
    async cancelPendingOf(endpointId: string, at: string): Promise<void> {
      await db
        .updateTable("webhook_deliveries")
        .set({ status: "failed", next_attempt_at: null, finished_at: at })
        .where("endpoint_id", "=", endpointId)
        .where("status", "=", "pending")
        .execute();
    },
    /** Ends pending deliveries without an attempt (their endpoint is disabled). */
    async cancel(ids: readonly string[], at: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable("webhook_deliveries")
        .set({ status: "failed", next_attempt_at: null, finished_at: at })
        .where("id", "in", ids)
        .where("status", "=", "pending")
        .execute();
    },
    /**
     * Hands claimed deliveries back, due at `at` (claimed but not attempted). With `heldUntil`
     * (the lease they were claimed with), only those still held under it.
     */
    async release(ids: readonly string[], at: string, heldUntil?: string): Promise<void> {
      if (ids.length === 0) return;
      let update = db
        .updateTable("webhook_deliveries")
        .set({ next_attempt_at: at })
        .where("id", "in", ids)
        .where("status", "=", "pending");
      if (heldUntil !== undefined) update = update.where("next_attempt_at", "=", heldUntil);
      await update.execute();
    },
    /** An endpoint's most recent attempts, newest first, each with its delivery's retry time. */
    async listAttempts(endpointId: string, limit: number): Promise<WebhookAttemptWithRetry[]> {
      const rows = await db
        .selectFrom("webhook_attempts as a")
        .innerJoin("webhook_deliveries as d", "d.id", "a.delivery_id")
        .selectAll("a")
        .select(["d.status as delivery_status", "d.attempts as delivery_attempts"])
        .select("d.next_attempt_at as delivery_next_attempt_at")
        .where("a.endpoint_id", "=", endpointId)
        .orderBy("a.created_at", "desc")
        .orderBy("a.id", "desc")
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        ...toAttempt(row),
        retryAt:
          row.delivery_status === "pending" && Number(row.delivery_attempts) === Number(row.attempt)
            ? row.delivery_next_attempt_at
            : null,
      }));
    },
    /** The payloads (`data`) of deliveries by id, for showing what their attempts sent. */
    async payloadsOf(ids: readonly string[]): Promise<Map<string, unknown>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("webhook_deliveries")
        .select(["id", "payload"])
        .where("id", "in", [...new Set(ids)])
        .execute();
      return new Map(rows.map((row) => [row.id, JSON.parse(row.payload) as unknown]));
    },
    /** Deletes up to `limit` attempts made before `cutoff`; returns how many. */
    deleteAttemptsBefore: (cutoff: string, limit: number) =>
      deleteBatchBefore(db, "webhook_attempts", "created_at", cutoff, limit),
    /** Deletes up to `limit` deliveries finished before `cutoff` (with their attempts); returns how many. */
    deleteFinishedBefore: (cutoff: string, limit: number) =>
      deleteBatchBefore(db, "webhook_deliveries", "finished_at", cutoff, limit),
  };
}
export type WebhookDeliveryRepository = ReturnType<typeof createWebhookDeliveryRepository>;
