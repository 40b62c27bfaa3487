import type { Kysely } from "kysely";
import type { MetaSchema, WebhookAttemptRow, WebhookDeliveryRow } from "../schema.js";
import { claimDueRows, deleteBatchBefore } from "./batches.js";
import { distinctRounds, isSqlite, parametersFor, runStatement, slices } from "./raw-sql.js";

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
  /** The event's data as JSON text, as stored: spliced into each attempt's body unparsed. */
  payload: string;
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
  payload: row.payload,
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

/** Rows per multi-row statement (at most 12 values each, inside both engines' limits). */
const INSERT_ROWS = 500;

/**
 * Which of the outcomes' deliveries still exist. On PostgreSQL it also locks them in id order,
 * so recorders that overlap (a lease ran out) take their row locks in one order.
 */
async function lockExisting(
  db: Kysely<MetaSchema>,
  outcomes: readonly AttemptOutcome[],
): Promise<Set<string>> {
  const existing = new Set<string>();
  const ids = [...new Set(outcomes.map((o) => o.attempt.deliveryId))].sort();
  for (const slice of slices(ids, INSERT_ROWS)) {
    const p = parametersFor(db);
    const list = slice.map((id) => p(id)).join(", ");
    const lock = p.sqlite ? "" : " ORDER BY id FOR UPDATE";
    const { rows } = await runStatement<{ id: string }>(
      db,
      `SELECT id FROM webhook_deliveries WHERE id IN (${list})${lock}`,
      p,
    );
    for (const { id } of rows) existing.add(id);
  }
  return existing;
}

/**
 * Moves each outcome's delivery to its next state, only while it is pending at the attempt count
 * and under the lease the attempt was made with, in the order the outcomes came (a second
 * outcome for a delivery meets the state the first left); resolves with how many moved.
 * SQLite runs one cached statement per row: it is in process, and a multi-row UPDATE … FROM
 * measured 25 µs a row against 8. PostgreSQL runs one statement per round trip instead.
 */
async function moveDeliveries(
  db: Kysely<MetaSchema>,
  outcomes: readonly AttemptOutcome[],
): Promise<number> {
  let moved = 0;
  if (isSqlite(db)) for (const o of outcomes) moved += await moveDelivery(db, o);
  else
    for (const round of distinctRounds(outcomes, (o) => o.attempt.deliveryId))
      moved += await moveDeliveriesAtOnce(db, round);
  return moved;
}

async function moveDelivery(db: Kysely<MetaSchema>, o: AttemptOutcome): Promise<number> {
  const p = parametersFor(db);
  const { changed } = await runStatement(
    db,
    `UPDATE webhook_deliveries
     SET status = ${p(o.status)}, attempts = ${p(o.attempt.attempt)},
       next_attempt_at = ${p(o.nextAttemptAt)}, finished_at = ${p(o.finishedAt)}
     WHERE id = ${p(o.attempt.deliveryId)} AND status = 'pending'
       AND attempts = ${p(o.attempt.attempt - 1)} AND next_attempt_at = ${p(o.leaseUntil)}`,
    p,
  );
  return changed;
}

/** One UPDATE moving these outcomes' deliveries, each at most once among them (PostgreSQL). */
async function moveDeliveriesAtOnce(
  db: Kysely<MetaSchema>,
  outcomes: readonly AttemptOutcome[],
): Promise<number> {
  const p = parametersFor(db);
  const text = (value: unknown) => `CAST(${p(value)} AS text)`;
  const tuples = outcomes.map(
    (o) =>
      `(${text(o.attempt.deliveryId)}, ${text(o.status)}, CAST(${p(o.attempt.attempt)} AS integer), ` +
      `${text(o.nextAttemptAt)}, ${text(o.finishedAt)}, ${text(o.leaseUntil)})`,
  );
  const { changed } = await runStatement(
    db,
    `UPDATE webhook_deliveries AS d SET status = v.status, attempts = v.attempts,
       next_attempt_at = v.next_attempt_at, finished_at = v.finished_at
     FROM (VALUES ${tuples.join(", ")}) AS v (id, status, attempts, next_attempt_at, finished_at, lease)
     WHERE d.id = v.id AND d.status = 'pending'
       AND d.attempts = v.attempts - 1 AND d.next_attempt_at = v.lease`,
    p,
  );
  return changed;
}

/** Appends the outcomes' attempts to the log. */
async function insertAttempts(
  db: Kysely<MetaSchema>,
  outcomes: readonly AttemptOutcome[],
): Promise<void> {
  for (const slice of slices(outcomes, INSERT_ROWS)) {
    const p = parametersFor(db);
    const tuples = slice.map(
      ({ attempt: a }) =>
        `(${p(a.id)}, ${p(a.deliveryId)}, ${p(a.endpointId)}, ${p(a.messageId)}, ${p(a.event)}, ` +
        `${p(a.attempt)}, ${p(a.statusCode)}, ${p(a.durationMs)}, ${a.success ? 1 : 0}, ${p(a.body)}, ${p(a.createdAt)})`,
    );
    await runStatement(
      db,
      `INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, message_id, event, attempt,
         status_code, duration_ms, success, body, created_at)
       VALUES ${tuples.join(", ")}`,
      p,
    );
  }
}

/** The webhook delivery queue and its attempt log. */
export function createWebhookDeliveryRepository(db: Kysely<MetaSchema>) {
  return {
    /**
     * Enqueues deliveries; resolves with the ids of those inserted. One already queued for the
     * same endpoint and event id is left as it is, so an event published twice (a retried
     * notification) is delivered once.
     */
    async enqueue(rows: readonly NewWebhookDelivery[]): Promise<string[]> {
      const inserted: string[] = [];
      for (const slice of slices(rows, INSERT_ROWS)) {
        const p = parametersFor(db);
        const tuples = slice.map(
          (d) =>
            `(${p(d.id)}, ${p(d.projectId)}, ${p(d.endpointId)}, ${p(d.messageId)}, ${p(d.eventId)}, ` +
            `${p(d.event)}, ${p(d.payload)}, 'pending', 0, ${p(d.nextAttemptAt)}, ${p(d.createdAt)}, NULL)`,
        );
        const { rows: ids } = await runStatement<{ id: string }>(
          db,
          `INSERT INTO webhook_deliveries (id, project_id, endpoint_id, message_id, event_id, event,
             payload, status, attempts, next_attempt_at, created_at, finished_at)
           VALUES ${tuples.join(", ")}
           ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id`,
          p,
        );
        for (const { id } of ids) inserted.push(id);
      }
      return inserted;
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
      // 'pending' is a literal, so both engines read the partial due index (0021).
      const { rows } = await runStatement<{ at: string | null }>(
        db,
        `SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'`,
        parametersFor(db),
      );
      return rows[0]?.at ?? undefined;
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
      if (outcomes.length === 0) return 0;
      const existing = await lockExisting(db, outcomes);
      const moved = await moveDeliveries(db, outcomes);
      await insertAttempts(
        db,
        outcomes.filter((o) => existing.has(o.attempt.deliveryId)),
      );
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
    /** The payloads (JSON text of `data`) of deliveries by id, for showing what their attempts sent. */
    async payloadsOf(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("webhook_deliveries")
        .select(["id", "payload"])
        .where("id", "in", [...new Set(ids)])
        .execute();
      return new Map(rows.map((row) => [row.id, row.payload]));
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
