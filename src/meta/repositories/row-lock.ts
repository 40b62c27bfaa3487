import { type Kysely, sql } from "kysely";
import type { MetaSchema } from "../schema.js";
import { isSqlite } from "./raw-sql.js";

/**
 * Takes a row's lock for the rest of the transaction: PostgreSQL locks the row with a no-op
 * update. A SQLite transaction holds the write lock from its start (BEGIN IMMEDIATE, in
 * sqlite-direct.ts) and the process's one writing connection, so the row is only read there.
 * The no-op update set the primary key, and SQLite then looked up every row referencing it (a
 * monitor's results, a status page's days and subscribers): its cost grew with their history
 * (see bench/monitor-history.ts). False when the row is gone.
 */
export async function lockRow(
  db: Kysely<MetaSchema>,
  table: "monitors" | "alert_rules" | "status_pages" | "organizations",
  id: string,
): Promise<boolean> {
  if (isSqlite(db)) {
    const found = await sql`select 1 from ${sql.table(table)} where id = ${id}`.execute(db);
    return found.rows.length > 0;
  }
  const result = await sql`update ${sql.table(table)} set id = id where id = ${id}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}
