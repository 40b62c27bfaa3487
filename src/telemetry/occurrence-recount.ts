import { qualifiedName, quoteIdentifier } from "./executor.js";
import { occurrenceKeySql, sessionErrorKeySql } from "./occurrence-key-sql.js";
import type { SchemaState } from "./schema-layout.js";
import { TELEMETRY_TABLES } from "./tables.js";

/**
 * Whether the data predates error_occurrences.log_id: that release counted an exception event and
 * a log of the same span with the same message as two occurrences of their group.
 */
export function countsSecondSources(state: SchemaState): boolean {
  const columns = new Set(state.columns.map((c) => `${c.table}.${c.name}`));
  return columns.has("error_occurrences.fingerprint") && !columns.has("error_occurrences.log_id");
}

const RECOUNTS = "occurrence_recounts";

/** error_groups' columns, `g.`-qualified, with these expressions for some. */
function groupColumns(replace: Record<string, string>): { names: string; select: string } {
  const groups = TELEMETRY_TABLES.find((t) => t.name === "error_groups");
  if (!groups) throw new Error("error_groups is not defined");
  return {
    names: groups.columns.map((c) => quoteIdentifier(c.name)).join(", "),
    select: groups.columns
      .map(({ name }) => replace[name] ?? `g.${quoteIdentifier(name)} AS ${quoteIdentifier(name)}`)
      .join(", "),
  };
}

/**
 * Takes the upgrade's recount of the error groups, once per group: for every group whose
 * retained occurrences include second sources of one occurrence (same trace, span and message),
 * its count lessened by them (never below 1) and the version it was taken from, into
 * occurrence_recounts. A group already there is left out, so running it again (a start that
 * died, a second node) takes nothing new; should two runs race, the earliest row wins
 * (applyRecountStatement). Run before error_occurrences.log_id is added: its row is the durable
 * record of the recount owed. Through the tables' own names, so on a cluster it reads and writes
 * the Distributed tables; all three shard by (project_id, fingerprint), so GLOBAL joins each
 * group with its own shard's rows.
 */
export function takeRecountStatement(database: string): string {
  const recounts = qualifiedName(database, RECOUNTS);
  return [
    `INSERT INTO ${recounts} (task, project_id, fingerprint, base_version, occurrence_count, taken_at)`,
    "SELECT 'error_groups', g.project_id, g.fingerprint, g.version,",
    "  toUInt64(greatest(toInt64(g.occurrence_count) - toInt64(d.extra), 1)), now64(6)",
    `FROM ${qualifiedName(database, "error_groups")} AS g FINAL`,
    "GLOBAL INNER JOIN (",
    "  SELECT project_id, fingerprint, sum(sources - 1) AS extra FROM (",
    "    SELECT project_id, fingerprint, count() AS sources",
    `    FROM ${qualifiedName(database, "error_occurrences")}`,
    `    WHERE ${occurrenceKeySql().has}`,
    `    GROUP BY project_id, ${occurrenceKeySql().columns} HAVING sources > 1)`,
    "  GROUP BY project_id, fingerprint) AS d",
    "ON g.project_id = d.project_id AND g.fingerprint = d.fingerprint",
    `WHERE (g.project_id, g.fingerprint) GLOBAL NOT IN (SELECT project_id, fingerprint FROM ${recounts} WHERE task = 'error_groups')`,
  ].join("\n");
}

/**
 * Applies the recount taken (takeRecountStatement): a group still at the version its recount
 * was taken from gets that count, under the same version (the later row of equal versions wins,
 * and ReplacingMergeTree keeps it). Applied again, or by two nodes at once, it writes the same
 * row or nothing (a group already at its recounted count is left out): it never subtracts
 * twice. A group written since the recount was taken (a newer version) keeps its count: the
 * recount is lost for it, never applied to a count it was not taken from.
 */
export function applyRecountStatement(database: string): string {
  const { names, select } = groupColumns({
    occurrence_count: "r.recounted AS occurrence_count",
    version: "g.version AS version",
  });
  return [
    `INSERT INTO ${qualifiedName(database, "error_groups")} (${names})`,
    `SELECT ${select}`,
    `FROM ${qualifiedName(database, "error_groups")} AS g FINAL`,
    "GLOBAL INNER JOIN (",
    "  SELECT project_id, fingerprint, argMin(base_version, taken_at) AS base,",
    "    argMin(occurrence_count, taken_at) AS recounted",
    `  FROM ${qualifiedName(database, RECOUNTS)} WHERE task = 'error_groups'`,
    "  GROUP BY project_id, fingerprint) AS r",
    "ON g.project_id = r.project_id AND g.fingerprint = r.fingerprint",
    "WHERE g.version = r.base AND g.occurrence_count != r.recounted",
  ].join("\n");
}

/** A row of occurrence_recounts marking a recount owed (`sessions`) or done (`…_done`). */
export const recountMark = (task: "sessions" | "sessions_done" | "error_groups_done") => ({
  task,
  project_id: "",
  fingerprint: "",
  base_version: 0,
  occurrence_count: 0,
  // Written, not left to the default (epoch 0): the retention would drop the row at once.
  taken_at: new Date().toISOString().replace("T", " ").replace("Z", ""),
});

/** The latest row of each task of occurrence_recounts (`at`: microseconds). */
export const recountTasksQuery = (database: string): string =>
  `SELECT task, toString(toUnixTimestamp64Micro(max(taken_at))) AS at FROM ${qualifiedName(database, RECOUNTS)} GROUP BY task`;

/** Whether the sessions predate sessions.error_keys: their error_count counted every source. */
export function sessionsCountSecondSources(state: SchemaState): boolean {
  const columns = new Set(state.columns.map((c) => `${c.table}.${c.name}`));
  return columns.has("sessions.session_id") && !columns.has("sessions.error_keys");
}

/**
 * One more partial row for every session with errors, holding the keys of its errors read back
 * from what is still kept (`span_count` and `log_count` 0 mark it): the sessions read counts
 * those keys instead of the earlier rows' error_count. An error in a span is keyed from its
 * error_occurrences row as ingestion keys it (sessionErrorKeySql: its group and message), in the
 * session of its span or of its log; so an exception and a log of one span and message share a
 * key with each other and with the keys ingestion writes after the upgrade, and two groups in
 * one span are two keys. A failed span that recorded no exception and an error log without a
 * span are keyed from the spans and logs. Running it again adds the same keys: no change.
 * Through the tables' own names; on a cluster the occurrences (sharded by group) are joined
 * GLOBAL with the sessions of their spans.
 */
export function sessionRecountStatement(database: string): string {
  const traces = qualifiedName(database, "traces");
  const logs = qualifiedName(database, "logs");
  const key = occurrenceKeySql("o.");
  return [
    `INSERT INTO ${qualifiedName(database, "sessions")} (project_id, session_id, first_seen, last_seen, error_count, error_keys)`,
    "SELECT project_id, session_id, min(at), max(at), length(groupUniqArray(key)), groupUniqArray(key) FROM (",
    `  SELECT o.project_id AS project_id, s.session_id AS session_id, toDateTime64(o.timestamp, 9) AS at, ${sessionErrorKeySql("o.")} AS key`,
    `  FROM ${qualifiedName(database, "error_occurrences")} AS o`,
    "  GLOBAL INNER JOIN (SELECT DISTINCT project_id, trace_id, span_id, session_id FROM (",
    `    SELECT project_id, trace_id, span_id, session_id FROM ${traces}`,
    "    WHERE session_id != '' AND has(events_name, 'exception')",
    "    UNION ALL",
    `    SELECT project_id, trace_id, span_id, session_id FROM ${logs}`,
    "    WHERE session_id != '' AND trace_id != '' AND span_id != '' AND level IN ('error', 'fatal'))) AS s",
    "  ON o.project_id = s.project_id AND o.trace_id = s.trace_id AND o.span_id = s.span_id",
    `  WHERE ${key.has}`,
    "  UNION ALL",
    `  SELECT project_id, session_id, timestamp AS at, concat(trace_id, span_id, ':') AS key FROM ${traces}`,
    "  WHERE session_id != '' AND status = 'error' AND NOT has(events_name, 'exception')",
    "  UNION ALL",
    `  SELECT project_id, session_id, timestamp AS at, concat('log:', id) AS key FROM ${logs}`,
    "  WHERE session_id != '' AND level IN ('error', 'fatal') AND (trace_id = '' OR span_id = ''))",
    "GROUP BY project_id, session_id",
  ].join("\n");
}
