import {
  ATTRIBUTE_KEYS,
  ATTRIBUTE_VALUES,
  OBSOLETE_CATALOG_VIEWS,
} from "./attribute-catalog-tables.js";
import type { DerivedTableDef } from "./derived-view.js";
import { SERVICE_EDGES } from "./service-edges-table.js";
import {
  c,
  HIGH_VOLUME,
  LC,
  MS_TIME,
  NS_TIME,
  project,
  QUIET_DAYS_MERGED,
  serviceName,
  source,
  type TableDef,
} from "./tables.js";

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
    c(
      "error_count",
      "UInt64",
      "Errors of this partial row (rows before error_keys: every failed span and error log)",
    ),
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
    c(
      "error_keys",
      "Array(String)",
      "Its errors' keys (sessionErrorKey): two sources of one occurrence share one; merge with groupUniqArrayArray",
    ),
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
    "One row per source of an error occurrence (exception event or error/fatal log), keyed by its group's fingerprint: the history behind an error group. Two sources in one span with the same message are one occurrence (docs/ingestion.md).",
  columns: [
    project,
    c("fingerprint", "String", "Error group (error_groups.fingerprint)"),
    c("timestamp", MS_TIME, "When it occurred"),
    serviceName,
    c("trace_id", "String", "Trace of the occurrence, '' when none"),
    c("span_id", "String", "Span of the occurrence, '' when none"),
    source,
    c("message", "String", "Message of this occurrence"),
    c(
      "log_id",
      "String",
      "The error log's id when a log record is this source; '' for a span's exception event",
    ),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(timestamp)",
  orderBy: "(project_id, fingerprint, timestamp)",
  ttlExpression: "toDateTime(timestamp)",
  // A trace's error groups (its detail view) without reading every occurrence of the day.
  indexes: ["INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1"],
  // An error group's detail reads its occurrences by fingerprint, some with no time range.
  liveSettings: QUIET_DAYS_MERGED,
  // With their group's rows, so a group's history reads from the same shard.
  shardingKey: "cityHash64(project_id, fingerprint)",
};

/**
 * Everything a trace lookup reads of a span (`start_ns`, `end_ns` as text), by name and its
 * expression over a `traces` row, in the order `trace_data.data` packs them (see below). The
 * span table's own read (SPAN_COLUMNS, for traces stored before `trace_data`) selects the same.
 */
export const PACKED_SPAN_EXPRESSIONS = {
  parent_span_id: "parent_span_id",
  operation_name: "operation_name",
  span_kind: "span_kind",
  service_name: "service_name",
  start_ns: "toString(toUnixTimestamp64Nano(timestamp))",
  end_ns: "toString(toUnixTimestamp64Nano(end_timestamp))",
  status: "status",
  status_message: "status_message",
  http_method: "http_method",
  http_route: "http_route",
  http_target: "http_target",
  http_status_code: "http_status_code",
  attributes: "attributes",
  resource_attributes: "resource_attributes",
  event_ms: "arrayMap(t -> toUnixTimestamp64Milli(t), events_timestamp)",
  events_name: "events_name",
  events_attributes: "events_attributes",
  links_trace_id: "links_trace_id",
  links_span_id: "links_span_id",
  links_attributes: "links_attributes",
} as const;

/** The packed span fields, in order. */
export const PACKED_SPAN_FIELDS = Object.keys(
  PACKED_SPAN_EXPRESSIONS,
) as readonly (keyof typeof PACKED_SPAN_EXPRESSIONS)[];

/** The fields of an error item, in the order `trace_data.data` packs them. */
export const PACKED_ERROR_FIELDS = ["fingerprint", "message", "time_ms"] as const;

/**
 * Every trace's spans and error occurrences, keyed by trace id, each packed into one JSON array:
 * a trace lookup reads one key range of one column instead of finding the trace's granules in
 * `traces` and opening its 22 column streams there (ADR 0016). Two views fill it, one from the
 * spans inserted into `traces`, one from the occurrences inserted into `error_occurrences` that
 * belong to a trace, so the data is written once by ingestion and copied by the engine.
 */
export const TRACE_DATA: DerivedTableDef = {
  name: "trace_data",
  description: "Every trace's spans and error occurrences, packed, for lookups by trace id.",
  columns: [
    project,
    c("trace_id", "String", "Trace id"),
    c("span_id", "String", "The span; for an error, its span ('' for an error log without one)"),
    c("timestamp", NS_TIME, "Start of the span, or time of the error occurrence"),
    c("item", LC, "`span` or `error`"),
    c(
      "data",
      "String",
      "The item's fields as a JSON array (PACKED_SPAN_FIELDS, PACKED_ERROR_FIELDS)",
    ),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(timestamp)",
  orderBy: "(project_id, trace_id)",
  ttlExpression: "toDateTime(timestamp)",
  indexes: [],
  // A lookup decompresses whole granules of every part holding the trace: 256 rows of ~800-byte
  // packed spans measured ~10% faster than 1,024; 128 no faster (ADR 0016).
  settings: "index_granularity = 256",
  // A lookup has no time range, so it opens every part of every day kept: 0.15-0.3 ms each for
  // a trace's first lookup (one day of 48 parts: 13 ms; 30 days of 8 parts: 40 ms). Hence one
  // part per quiet day (ADR 0019).
  liveSettings: `${HIGH_VOLUME}, ${QUIET_DAYS_MERGED}`,
  // On the shard of the trace's spans (traces shards by the same key).
  shardingKey: "cityHash64(trace_id)",
  views: [
    {
      name: "trace_data_spans_mv",
      source: "traces",
      columns: `project_id, trace_id, span_id, timestamp, 'span' AS item,
  toJSONString((${Object.values(PACKED_SPAN_EXPRESSIONS).join(", ")})) AS data`,
    },
    {
      name: "trace_data_errors_mv",
      source: "error_occurrences",
      columns: `project_id, trace_id, span_id, toDateTime64(timestamp, 9) AS timestamp, 'error' AS item,
  toJSONString((fingerprint, message, toUnixTimestamp64Milli(timestamp))) AS data`,
      where: "trace_id != ''",
    },
  ],
};

/**
 * Views and tables earlier releases created that nothing reads or writes any more, dropped at
 * start: `trace_index` (ADR 0014), replaced by `trace_data` (ADR 0016); the catalog's views on the
 * telemetry tables, replaced by ingestion's counts (OBSOLETE_CATALOG_VIEWS). Views first, so
 * nothing writes a table being dropped.
 */
export const OBSOLETE = {
  views: ["trace_index_mv", ...OBSOLETE_CATALOG_VIEWS],
  tables: ["trace_index"],
} as const;

/** Tables outside TQL that ingestion writes, created and retained like the others. */
/**
 * The upgrade's recounts of data an earlier release counted twice (occurrence-recount.ts): for
 * an error group, its count without the second sources, taken once from the version it had
 * then (the earliest row per group wins); for sessions, one row marking the recount owed and
 * one marking it done. Written before the columns that end the old counting are added, so a
 * start that dies before finishing, or another node, finishes it.
 */
const occurrenceRecounts: TableDef = {
  name: "occurrence_recounts",
  description:
    "The upgrade's recounts owed and taken: an error group's count without second sources, from its version then; sessions' recount owed or done.",
  columns: [
    c("task", LC, "`error_groups`, `sessions` (owed) or `sessions_done`"),
    project,
    c("fingerprint", "String", "The error group ('' for sessions)"),
    c("base_version", "UInt64", "The group's version the count was taken from"),
    c("occurrence_count", "UInt64", "The group's count without its second sources"),
    c("taken_at", "DateTime64(6, 'UTC')", "When it was written: the earliest row per group wins"),
  ],
  engine: "MergeTree",
  partitionBy: "tuple()",
  orderBy: "(task, project_id, fingerprint)",
  ttlExpression: "toDateTime(taken_at)",
  indexes: [],
  // A group's rows on the shard of its error_groups rows.
  shardingKey: "cityHash64(project_id, fingerprint)",
};

export const INTERNAL_TABLES: readonly TableDef[] = [
  sessions,
  errorOccurrences,
  occurrenceRecounts,
  SERVICE_EDGES,
];

/** Tables outside TQL that the engine derives from others' inserts (see DerivedTableDef). */
export const DERIVED_TABLES: readonly DerivedTableDef[] = [
  TRACE_DATA,
  // Values before keys: the keys' view reads the values' inserts.
  ATTRIBUTE_VALUES,
  ATTRIBUTE_KEYS,
];
