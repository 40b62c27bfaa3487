import { type Kysely, type Selectable, sql } from "kysely";
import type { MetaSchema } from "../schema.js";

/** Tables used as durable queues: rows with an id, a status and when they are next due. */
type QueueTable = "notification_deliveries" | "webhook_deliveries";

/**
 * Claims up to `limit` pending rows due at `now` (ISO), oldest due first, by moving their
 * next_attempt_at to `leaseUntil`: another claimer skips them, and if this one dies they are
 * due again when the lease ends. The conditions are re-checked on each row as it is updated,
 * so two claimers never get the same row (SQLite and PostgreSQL alike).
 */
export async function claimDueRows<T extends QueueTable>(
  db: Kysely<MetaSchema>,
  table: T,
  now: string,
  limit: number,
  leaseUntil: string,
): Promise<Selectable<MetaSchema[T]>[]> {
  const due = sql`status = 'pending' AND next_attempt_at <= ${now}`;
  const result = await sql<Selectable<MetaSchema[T]>>`
    UPDATE ${sql.table(table)} SET next_attempt_at = ${leaseUntil}
    WHERE ${due} AND id IN (
      SELECT id FROM ${sql.table(table)} WHERE ${due} ORDER BY next_attempt_at, id LIMIT ${limit}
    )
    RETURNING *`.execute(db);
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
