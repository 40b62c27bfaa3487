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

/** Whether the sessions predate sessions.error_keys: their error_count counted every source. */
export function sessionsCountSecondSources(state: SchemaState): boolean {
  const columns = new Set(state.columns.map((c) => `${c.table}.${c.name}`));
  return columns.has("sessions.session_id") && !columns.has("sessions.error_keys");
}

/** `<trace><span>:<16 hex of type NUL message>`: an error's key in a span, from stored columns. */
const spanErrorKey = (type: string, message: string) =>
  `concat(trace_id, span_id, ':', lower(hex(substring(SHA256(concat(${type}, '\\0', ${message})), 1, 8))))`;
const nonEmpty = (...values: string[]) =>
  values.reduceRight((fallback, value) => `if(${value} != '', ${value}, ${fallback})`);

/**
 * One more partial row for every session with errors, holding the keys of its errors read back
 * from the spans and logs that still hold them (`span_count` and `log_count` 0 mark it): the
 * sessions read counts those keys instead of the earlier rows' error_count. An exception and a
 * log of the same span, type and message share a key (type and message as ingestion reads
 * them; the digest is over those, not the group). Running it again adds the same keys: no change.
 */
export function sessionRecountStatement(database: string): string {
  const traces = qualifiedName(database, "traces");
  const logs = qualifiedName(database, "logs");
  const exceptionKey = spanErrorKey(
    nonEmpty("e.2['exception.type']", "'Error'"),
    nonEmpty("e.2['exception.message']", "status_message", "operation_name"),
  );
  const logKey = `if(trace_id != '' AND span_id != '', ${spanErrorKey(
    nonEmpty("attributes['exception.type']", "toString(level)"),
    nonEmpty("attributes['exception.message']", "message"),
  )}, concat('log:', id))`;
  return [
    `INSERT INTO ${qualifiedName(database, "sessions")} (project_id, session_id, first_seen, last_seen, error_count, error_keys)`,
    "SELECT project_id, session_id, min(at), max(at), length(groupUniqArray(key)), groupUniqArray(key) FROM (",
    `  SELECT project_id, session_id, e.1 AS at, ${exceptionKey} AS key FROM ${traces}`,
    "  ARRAY JOIN arrayFilter(x -> x.3 = 'exception', arrayZip(events_timestamp, events_attributes, events_name)) AS e",
    "  WHERE session_id != '' AND has(events_name, 'exception')",
    "  UNION ALL",
    `  SELECT project_id, session_id, timestamp AS at, concat(trace_id, span_id, ':') AS key FROM ${traces}`,
    "  WHERE session_id != '' AND status = 'error' AND NOT has(events_name, 'exception')",
    "  UNION ALL",
    `  SELECT project_id, session_id, timestamp AS at, ${logKey} AS key FROM ${logs}`,
    "  WHERE session_id != '' AND level IN ('error', 'fatal'))",
    "GROUP BY project_id, session_id",
  ].join("\n");
}
