import {
  c,
  LC,
  MS_TIME,
  NS_TIME,
  project,
  serviceName,
  source,
  type TableDef,
  type TelemetryTableName,
} from "./tables.js";

/**
 * A table the engine fills itself: a materialized view inserts `SELECT columns FROM source GROUP
 * BY groupBy` of every block inserted into `source` (it reads only that block: a cost per insert).
 */
export interface DerivedTableDef extends TableDef {
  view: { name: string; source: TelemetryTableName; columns: string; groupBy: string };
}

const sessions: TableDef = {
  name: "sessions",
  description:
    "User sessions (`session.id`). Several partial rows per session: merge with min/max/sum and anyIf.",
  columns: [
    project,
    c("session_id", "String", "`session.id`"),
    c("first_seen", MS_TIME, "Earliest item of this partial row"),
    c("last_seen", MS_TIME, "Latest item of this partial row"),
    c("span_count", "UInt64", "Spans"),
    c("log_count", "UInt64", "Log records"),
    c("error_count", "UInt64", "Spans with status error or exceptions, and error or fatal logs"),
    c("ai_span_count", "UInt64", "Spans with gen_ai.* attributes"),
    c("user_id", "String", "`user.id`, '' when unknown"),
    c("services", "Array(String)", "Services seen"),
    c("user_agent", "String", "`user_agent.original`"),
    c("browser", LC, "Browser name from the user agent"),
    c("browser_version", LC, "Browser version"),
    c("os", LC, "Operating system"),
    c("device", LC, "`desktop`, `mobile`, `tablet`, `tv`, `bot` or ''"),
    c("referrer", "String", "Referrer of the session's first page"),
    c("country", LC, "ISO country code from `client.geo.country.iso_code`"),
    c("entry_page", "String", "Earliest page of this partial row"),
    c("pages", "Array(String)", "Pages visited"),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(first_seen)",
  orderBy: "(project_id, first_seen)",
  ttlExpression: "toDateTime(last_seen)",
  indexes: ["INDEX idx_session_id session_id TYPE bloom_filter(0.001) GRANULARITY 1"],
  // A session's partial rows together, so merging them (min/max/sum) stays on one shard.
  shardingKey: "cityHash64(project_id, session_id)",
};

const errorOccurrences: TableDef = {
  name: "error_occurrences",
  description:
    "One row per error occurrence (exception event or error/fatal log), keyed by its group's fingerprint: the history behind an error group.",
  columns: [
    project,
    c("fingerprint", "String", "Error group (error_groups.fingerprint)"),
    c("timestamp", MS_TIME, "When it occurred"),
    serviceName,
    c("trace_id", "String", "Trace of the occurrence, '' when none"),
    c("span_id", "String", "Span of the occurrence, '' when none"),
    source,
    c("message", "String", "Message of this occurrence"),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(timestamp)",
  orderBy: "(project_id, fingerprint, timestamp)",
  ttlExpression: "toDateTime(timestamp)",
  // A trace's error groups (its detail view) without reading every occurrence of the day.
  indexes: ["INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1"],
  // With their group's rows, so a group's history reads from the same shard.
  shardingKey: "cityHash64(project_id, fingerprint)",
};

const range = (name: string, fn: "min" | "max", description: string) =>
  c(name, `SimpleAggregateFunction(${fn}, ${NS_TIME})`, description);

/**
 * Where each trace's spans lie in time, keyed by trace id: a trace lookup reads its range here
 * (one granule per part), then only the granules of `traces` holding that range. Rows of one
 * trace from several inserts merge into one (min/max); readers still aggregate, as merges lag.
 */
export const TRACE_INDEX: DerivedTableDef = {
  name: "trace_index",
  description: "The time range of every trace's spans, for lookups by trace id.",
  columns: [
    project,
    c("trace_id", "String", "Trace id"),
    range("start_min", "min", "Start of the earliest span"),
    range("start_max", "max", "Start of the latest span"),
  ],
  engine: "AggregatingMergeTree",
  partitionBy: "toDate(start_min)",
  orderBy: "(project_id, trace_id)",
  ttlExpression: "toDateTime(start_min)",
  indexes: [],
  // A lookup reads one granule per part: small granules keep that to a few kilobytes.
  settings: "index_granularity = 1024",
  // On the shard of the trace's spans (traces shards by the same key).
  shardingKey: "cityHash64(trace_id)",
  view: {
    name: "trace_index_mv",
    source: "traces",
    columns: "project_id, trace_id, min(timestamp) AS start_min, max(timestamp) AS start_max",
    groupBy: "project_id, trace_id",
  },
};

/** `SELECT … FROM source … GROUP BY …` of a derived table's view, from the given tables. */
export function derivedSelect(table: DerivedTableDef, source: string, where = ""): string {
  const { columns, groupBy } = table.view;
  return `SELECT ${columns}\nFROM ${source}${where ? ` WHERE ${where}` : ""}\nGROUP BY ${groupBy}`;
}

/** `CREATE MATERIALIZED VIEW` of a derived table: `view` fills `target` from `source`'s inserts. */
export function createViewSql(
  table: DerivedTableDef,
  names: { view: string; target: string; source: string; onCluster?: string },
): string {
  return [
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${names.view}${names.onCluster ?? ""} TO ${names.target} AS`,
    derivedSelect(table, names.source),
  ].join("\n");
}

/** Tables outside TQL that ingestion writes, created and retained like the others. */
export const INTERNAL_TABLES: readonly TableDef[] = [sessions, errorOccurrences];

/** Tables outside TQL that the engine derives from others' inserts (see DerivedTableDef). */
export const DERIVED_TABLES: readonly DerivedTableDef[] = [TRACE_INDEX];
