import { type Kysely, type Selectable, sql } from "kysely";
import type { MetaSchema } from "../schema.js";
import { isSqlite } from "./raw-sql.js";

/** Tables used as durable queues: rows with an id, a status and when they are next due. */
type QueueTable = "notification_deliveries" | "webhook_deliveries" | "status_page_notifications";

/**
 * Claims up to `limit` pending rows due at `now` (ISO), oldest due first, by moving their
 * next_attempt_at to `leaseUntil`: another claimer skips them, and if this one dies they are
 * due again when the lease ends. Two claimers never get the same row:
 * - SQLite runs one writer at a time, so the statement's subquery and update are atomic. The
 *   update finds the chosen rows by primary key, which keeps a claim cheap however long the
 *   queue is (re-checking the due conditions outside made SQLite walk every due row).
 * - PostgreSQL locks the chosen rows, skipping rows another claimer holds (SKIP LOCKED); the
 *   lock re-reads each row's latest version, so a row leased meanwhile no longer matches.
 */
export async function claimDueRows<T extends QueueTable>(
  db: Kysely<MetaSchema>,
  table: T,
  now: string,
  limit: number,
  leaseUntil: string,
): Promise<Selectable<MetaSchema[T]>[]> {
  const due = sql`status = 'pending' AND next_attempt_at <= ${now}`;
  const target = sql.table(table);
  const query = isSqlite(db)
    ? sql<Selectable<MetaSchema[T]>>`
        UPDATE ${target} SET next_attempt_at = ${leaseUntil} WHERE id IN (
          SELECT id FROM ${target} WHERE ${due} ORDER BY next_attempt_at, id LIMIT ${limit}
        ) RETURNING *`
    : // A locking CTE is evaluated once (an IN subquery may be re-run and overshoot LIMIT).
      sql<Selectable<MetaSchema[T]>>`
        WITH chosen AS (
          SELECT id FROM ${target} WHERE ${due} ORDER BY next_attempt_at, id LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE ${target} AS t SET next_attempt_at = ${leaseUntil} FROM chosen
        WHERE t.id = chosen.id RETURNING t.*`;
  const result = await query.execute(db);
  return result.rows;
}

/**
 * Deletes up to `limit` rows whose `column` (an ISO time) is before `cutoff`; returns how many.
 * Bounded, so a retention sweep never holds the SQLite writer for long.
 */
export async function deleteBatchBefore(
  db: Kysely<MetaSchema>,
  table: keyof MetaSchema,
  column: string,
  cutoff: string,
  limit: number,
): Promise<number> {
  const result = await sql`
    DELETE FROM ${sql.table(table)} WHERE id IN (
      SELECT id FROM ${sql.table(table)} WHERE ${sql.ref(column)} < ${cutoff} LIMIT ${limit}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
