import { sql } from "kysely";
import { SEVERITIES, SEVERITY_RANK } from "../contracts/severity.js";

/** A `severity` column's rank in SQL (same on SQLite and PostgreSQL), for ORDER BY. */
export const SEVERITY_RANK_SQL = sql<number>`case severity ${sql.join(
  SEVERITIES.map((s) => sql`when ${sql.lit(s)} then ${sql.lit(SEVERITY_RANK[s])}`),
  sql` `,
)} end`;
