import { qualifiedName, quoteIdentifier } from "./executor.js";
import type { SchemaState } from "./schema.js";
import { TELEMETRY_TABLES } from "./tables.js";

/**
 * Whether the data predates error_occurrences.log_id: that release counted an exception event and
 * a log of the same span with the same message as two occurrences of their group.
 */
export function countsSecondSources(state: SchemaState): boolean {
  const columns = new Set(state.columns.map((c) => `${c.table}.${c.name}`));
  return columns.has("error_occurrences.fingerprint") && !columns.has("error_occurrences.log_id");
}

/**
 * Writes a new version of every error group whose retained occurrences include second sources of
 * one occurrence (same trace, span and message), its count lessened by them (never below 1).
 * Through the tables' own names, so on a cluster it reads and writes the Distributed tables; both
 * shard by (project_id, fingerprint), so GLOBAL joins each group with its own shard's rows.
 */
export function recountStatement(database: string): string {
  const groups = TELEMETRY_TABLES.find((t) => t.name === "error_groups");
  if (!groups) throw new Error("error_groups is not defined");
  const select = groups.columns.map(({ name }) => {
    if (name === "occurrence_count")
      return "toUInt64(greatest(toInt64(g.occurrence_count) - toInt64(d.extra), 1)) AS occurrence_count";
    if (name === "version") return "g.version + 1 AS version";
    return `g.${quoteIdentifier(name)} AS ${quoteIdentifier(name)}`;
  });
  return [
    `INSERT INTO ${qualifiedName(database, "error_groups")} (${groups.columns.map((c) => quoteIdentifier(c.name)).join(", ")})`,
    `SELECT ${select.join(", ")}`,
    `FROM ${qualifiedName(database, "error_groups")} AS g FINAL`,
    "GLOBAL INNER JOIN (",
    "  SELECT project_id, fingerprint, sum(sources - 1) AS extra FROM (",
    "    SELECT project_id, fingerprint, count() AS sources",
    `    FROM ${qualifiedName(database, "error_occurrences")}`,
    "    WHERE trace_id != '' AND span_id != ''",
    "    GROUP BY project_id, fingerprint, trace_id, span_id, message HAVING sources > 1)",
    "  GROUP BY project_id, fingerprint) AS d",
    "ON g.project_id = d.project_id AND g.fingerprint = d.fingerprint",
  ].join("\n");
}
