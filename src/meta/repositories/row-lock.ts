import { type Kysely, sql } from "kysely";
import type { MetaSchema } from "../schema.js";

/**
 * Takes a row's lock for the rest of the transaction with a no-op update: PostgreSQL locks the
 * row, SQLite's writer is already exclusive. False when the row is gone.
 */
export async function lockRow(
  db: Kysely<MetaSchema>,
  table: "monitors" | "alert_rules" | "status_pages" | "organizations",
  id: string,
): Promise<boolean> {
  const result = await sql`update ${sql.table(table)} set id = id where id = ${id}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}
