/** One column of a TQL table; the description is what docs/tql-tables.md shows users. */
export interface ColumnDef {
  name: string;
  type: string;
  description: string;
}

/** One telemetry table: its columns (the TQL schema) and MergeTree layout. */
export interface TableDef {
  name: TelemetryTableName | InternalTableName;
  description: string;
  columns: readonly ColumnDef[];
  engine: string;
  partitionBy: string;
  orderBy: string;
  /** Expression giving each row's age for TTL retention. */
  ttlExpression: string;
  indexes: readonly string[];
  /**
   * On a ClickHouse cluster, the Distributed table's sharding key: which shard a row goes to.
   * Rows a reader combines (a trace, an error group's versions) share a shard.
   */
  shardingKey: string;
  /** True when rows are versions of one record and readers should use FINAL. */
  readFinal?: boolean;
  /** MergeTree settings for a new table (`index_granularity = 1024`); existing tables keep theirs. */
  settings?: string;
  /**
   * MergeTree settings a live table can change (`ALTER … MODIFY SETTING`): set on a new table,
   * and brought to an existing one at start.
   */
  liveSettings?: string;
}

export const TELEMETRY_TABLE_NAMES = [
  "traces",
  "logs",
  "metrics",
  "ai_spans",
  "http_requests",
  "error_groups",
] as const;
export type TelemetryTableName = (typeof TELEMETRY_TABLE_NAMES)[number];
/** Tables Vigil keeps for its own read API; TQL cannot see them. */
export type InternalTableName =
  | "sessions"
  | "error_occurrences"
  | "trace_data"
  | "occurrence_recounts"
  | "service_edges"
  | "attribute_keys"
  | "attribute_values";

/** The tenant column: first in every ORDER BY, added to every TQL query, never visible to it. */
export const PROJECT_COLUMN = "project_id";

/** Upper bounds (ms) of the http_requests duration histogram; the last bucket is everything above. */
export const HTTP_DURATION_BOUNDS_MS = [
  5, 10, 25, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000,
  30000, 60000,
] as const;

export const NS_TIME = "DateTime64(9, 'UTC')";
export const MS_TIME = "DateTime64(3, 'UTC')";
const ATTRS = "Map(LowCardinality(String), String)";
export const LC = "LowCardinality(String)";

/**
 * The raw telemetry tables take most of the writes, so background merges are most of their
 * engine CPU. A merge selector base of 10 (ClickHouse's default is 5) merges more parts at once,
 * fewer times: each row is rewritten less often, for somewhat more parts between merges. Expired
 * data goes a whole part at a time (a part holds at most a day: the tables are partitioned by
 * day) instead of rows being cut out of parts by TTL merges. ADR 0015 has the measurements.
 */
export const HIGH_VOLUME = "merge_selector_base = 10, ttl_only_drop_parts = 1";

/**
 * A day's partition whose parts are all an hour old, no part written since, is merged into one
 * part (ClickHouse's forced merge, whole partitions only). A day ends as one part a while after
 * it ends, instead of the several its merges leave; data arriving later for it costs one more
 * merge of that day. For tables read by key with no time range (trace lookups, an error group's
 * occurrences), where every part of every day kept is opened: ADR 0019.
 */
export const QUIET_DAYS_MERGED =
  "min_age_to_force_merge_seconds = 3600, min_age_to_force_merge_on_partition_only = 1";

/** A column definition. */
export const c = (name: string, type: string, description: string): ColumnDef => ({
  name,
  type,
  description,
});

export const project = c(PROJECT_COLUMN, LC, "Owning project (internal; never visible to TQL)");
export const serviceName = c("service_name", LC, "`service.name` of the emitting resource");
const resourceAttributes = c(
  "resource_attributes",
  ATTRS,
  "All resource attributes, values as text",
);
const scope = [
  c("scope_name", LC, "Instrumentation scope name"),
  c("scope_version", LC, "Instrumentation scope version"),
];
export const sessionUser = [
  c("session_id", "String", "`session.id` attribute, '' when absent"),
  c("user_id", "String", "`user.id` (or `enduser.id`) attribute, '' when absent"),
];
export const source = c(
  "source",
  LC,
  "`frontend` (browser SDKs or an explicit attribute) or `backend`",
);

const traces: TableDef = {
  name: "traces",
  description: "Distributed trace spans, one row per span.",
  columns: [
    project,
    c("timestamp", NS_TIME, "Span start time"),
    c("end_timestamp", NS_TIME, "Span end time"),
    c("trace_id", "String", "Trace id, 32 lowercase hex characters"),
    c("span_id", "String", "Span id, 16 lowercase hex characters"),
    c("parent_span_id", "String", "Parent span id; '' for a root span"),
    c("trace_state", "String", "W3C tracestate"),
    c("operation_name", LC, "Span name"),
    c("span_kind", LC, "`internal`, `server`, `client`, `producer`, `consumer` or `unspecified`"),
    serviceName,
    c("service_version", LC, "`service.version` of the emitting resource"),
    c("duration_ns", "UInt64", "Duration in nanoseconds"),
    c("duration_ms", "Float64", "Duration in milliseconds"),
    c("status", LC, "`ok`, `error` or `unset`; `error` marks failures"),
    c("status_message", "String", "Status description set by the instrumentation"),
    c("http_method", LC, "HTTP request method (`http.request.method` or `http.method`)"),
    c("http_route", "String", "Matched route template (`http.route`)"),
    c("http_target", "String", "Request path (`url.path` or `http.target`)"),
    c("http_status_code", "UInt16", "HTTP response status code; 0 when not an HTTP span"),
    source,
    ...sessionUser,
    ...scope,
    resourceAttributes,
    c("attributes", ATTRS, "Span attributes, values as text"),
    c("events_timestamp", `Array(${NS_TIME})`, "Time of each span event"),
    c("events_name", `Array(${LC})`, "Name of each span event (e.g. `exception`)"),
    c("events_attributes", `Array(${ATTRS})`, "Attributes of each span event"),
    c("links_trace_id", "Array(String)", "Trace id of each span link"),
    c("links_span_id", "Array(String)", "Span id of each span link"),
    c("links_attributes", `Array(${ATTRS})`, "Attributes of each span link"),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(timestamp)",
  orderBy: "(project_id, timestamp)",
  ttlExpression: "toDateTime(timestamp)",
  indexes: [
    "INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1",
    "INDEX idx_span_id span_id TYPE bloom_filter(0.001) GRANULARITY 1",
    "INDEX idx_service service_name TYPE set(256) GRANULARITY 4",
    "INDEX idx_session_id session_id TYPE bloom_filter(0.001) GRANULARITY 1",
  ],
  // A trace's spans on one shard: a waterfall or per-trace aggregate reads one shard's rows.
  shardingKey: "cityHash64(trace_id)",
  liveSettings: HIGH_VOLUME,
};

const logs: TableDef = {
  name: "logs",
  description: "Application log records, one row per record.",
  columns: [
    project,
    c("id", "String", "Log id assigned at ingestion (time-sortable)"),
    c("timestamp", NS_TIME, "When the event happened (observed time when the record has none)"),
    c("observed_timestamp", NS_TIME, "When the collector or SDK observed the record"),
    c("trace_id", "String", "Trace id of the active span, '' when none"),
    c("span_id", "String", "Span id of the active span, '' when none"),
    c("trace_flags", "UInt8", "W3C trace flags"),
    c("severity_number", "UInt8", "OpenTelemetry severity number, 0–24"),
    c("severity_text", LC, "Severity text as sent"),
    c("level", LC, "`debug`, `info`, `warn`, `error` or `fatal`, from the severity"),
    serviceName,
    c("message", "String", "The log body as text (structured bodies as JSON)"),
    source,
    ...sessionUser,
    ...scope,
    resourceAttributes,
    c("attributes", ATTRS, "Log attributes, values as text"),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(timestamp)",
  orderBy: "(project_id, timestamp)",
  ttlExpression: "toDateTime(timestamp)",
  indexes: [
    "INDEX idx_id id TYPE bloom_filter(0.001) GRANULARITY 1",
    "INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1",
    "INDEX idx_message lower(message) TYPE ngrambf_v1(3, 65536, 2, 0) GRANULARITY 1",
    "INDEX idx_session_id session_id TYPE bloom_filter(0.001) GRANULARITY 1",
  ],
  // Beside their trace's spans; records outside any trace spread evenly.
  shardingKey: "if(trace_id = '', rand(), cityHash64(trace_id))",
  liveSettings: HIGH_VOLUME,
};

const metrics: TableDef = {
  name: "metrics",
  description:
    "Metric data points: gauges, sums, histograms, exponential histograms and summaries.",
  columns: [
    project,
    c("timestamp", NS_TIME, "Data point time"),
    c("start_timestamp", NS_TIME, "Start of the aggregation window (cumulative and delta points)"),
    c("metric_name", LC, "Metric name"),
    c("description", "String", "Metric description"),
    c("unit", LC, "Unit (UCUM), e.g. `ms`, `By`, `1`"),
    c("metric_type", LC, "`gauge`, `sum`, `histogram`, `exponential_histogram` or `summary`"),
    c("aggregation_temporality", LC, "`delta`, `cumulative` or `unspecified`"),
    c("is_monotonic", "Bool", "Whether a sum only increases"),
    serviceName,
    c("value", "Float64", "Value of a gauge or sum point; 0 for distributions"),
    c("count", "UInt64", "Number of observations (histograms and summaries)"),
    c("sum", "Float64", "Sum of observations (histograms and summaries)"),
    c("min", "Float64", "Smallest observation, when reported (else 0)"),
    c("max", "Float64", "Largest observation, when reported (else 0)"),
    c("bucket_counts", "Array(UInt64)", "Histogram bucket counts"),
    c("explicit_bounds", "Array(Float64)", "Histogram bucket upper bounds"),
    c("exp_scale", "Int32", "Exponential histogram scale"),
    c("exp_zero_count", "UInt64", "Exponential histogram count of zero values"),
    c("exp_positive_offset", "Int32", "Exponential histogram positive bucket offset"),
    c(
      "exp_positive_bucket_counts",
      "Array(UInt64)",
      "Exponential histogram positive bucket counts",
    ),
    c("exp_negative_offset", "Int32", "Exponential histogram negative bucket offset"),
    c(
      "exp_negative_bucket_counts",
      "Array(UInt64)",
      "Exponential histogram negative bucket counts",
    ),
    c("quantiles", "Array(Float64)", "Summary quantiles (0–1)"),
    c("quantile_values", "Array(Float64)", "Summary value at each quantile"),
    ...scope,
    resourceAttributes,
    c("attributes", ATTRS, "Data point attributes, values as text"),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(timestamp)",
  orderBy: "(project_id, metric_name, timestamp)",
  ttlExpression: "toDateTime(timestamp)",
  indexes: [],
  // One metric of one service stays together (rates and deltas need a series' points in order)
  // while different metrics and services spread over the shards.
  shardingKey: "cityHash64(project_id, metric_name, service_name)",
  liveSettings: HIGH_VOLUME,
};

const aiSpans: TableDef = {
  name: "ai_spans",
  description: "LLM and agent spans (spans carrying `gen_ai.*` attributes) with tokens and cost.",
  columns: [
    project,
    c("timestamp", NS_TIME, "Span start time"),
    c("trace_id", "String", "Trace id"),
    c("span_id", "String", "Span id"),
    c("parent_span_id", "String", "Parent span id"),
    serviceName,
    c("operation_name", LC, "Span name"),
    c("ai_operation", LC, "`gen_ai.operation.name`, e.g. `chat`, `embeddings`, `execute_tool`"),
    c("provider", LC, "`gen_ai.provider.name` (or legacy `gen_ai.system`), e.g. `openai`"),
    c("request_model", LC, "`gen_ai.request.model`"),
    c("response_model", LC, "`gen_ai.response.model`"),
    c("input_tokens", "UInt64", "`gen_ai.usage.input_tokens` (or legacy `prompt_tokens`)"),
    c("output_tokens", "UInt64", "`gen_ai.usage.output_tokens` (or legacy `completion_tokens`)"),
    c("cache_read_tokens", "UInt64", "Input tokens served from the provider's prompt cache"),
    c("cache_creation_tokens", "UInt64", "Input tokens written to the provider's prompt cache"),
    c("total_tokens", "UInt64", "input_tokens + output_tokens"),
    c("cost_usd", "Float64", "Estimated cost in US dollars from the price table"),
    c("duration_ms", "Float64", "Duration in milliseconds"),
    c("status", LC, "`ok`, `error` or `unset`"),
    c("status_message", "String", "Status description"),
    c("finish_reasons", "Array(String)", "`gen_ai.response.finish_reasons`"),
    ...sessionUser,
    resourceAttributes,
    c("attributes", ATTRS, "Span attributes, values as text"),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(timestamp)",
  orderBy: "(project_id, timestamp)",
  ttlExpression: "toDateTime(timestamp)",
  indexes: [
    "INDEX idx_trace_id trace_id TYPE bloom_filter(0.001) GRANULARITY 1",
    "INDEX idx_session_id session_id TYPE bloom_filter(0.001) GRANULARITY 1",
  ],
  // With the trace's other spans, like traces.
  shardingKey: "cityHash64(trace_id)",
};

const httpRequests: TableDef = {
  name: "http_requests",
  description:
    "Per-minute summaries of server spans. Several rows may share a key: aggregate with sum/min/max.",
  columns: [
    project,
    c("timestamp", "DateTime('UTC')", "Start of the minute"),
    serviceName,
    c("method", LC, "HTTP request method"),
    c("route", "String", "Route template, or the path when no route is known"),
    c("status_code", "UInt16", "HTTP response status code"),
    c("request_count", "UInt64", "Requests in the minute"),
    c("error_count", "UInt64", "Requests that failed (5xx status or error span status)"),
    c("duration_sum_ms", "Float64", "Sum of request durations in ms"),
    c("duration_min_ms", "Float64", "Shortest request in ms"),
    c("duration_max_ms", "Float64", "Longest request in ms"),
    c(
      "duration_buckets",
      "Array(UInt64)",
      `Request counts per duration bucket with upper bounds ${HTTP_DURATION_BOUNDS_MS.join(", ")} ms and a last bucket above; merge with sumForEach`,
    ),
  ],
  engine: "MergeTree",
  partitionBy: "toDate(timestamp)",
  orderBy: "(project_id, timestamp, service_name, route, method, status_code)",
  ttlExpression: "timestamp",
  indexes: [],
  // One endpoint's per-minute partial rows together, so its merges and percentiles stay on
  // one shard; endpoints spread over the shards.
  shardingKey: "cityHash64(project_id, service_name, route)",
};

const errorGroups: TableDef = {
  name: "error_groups",
  description:
    "Errors grouped by fingerprint. Rows are versions of a group; the highest `version` is current (TQL reads it with FINAL).",
  columns: [
    project,
    c("fingerprint", "String", "Group id (the errorId of the API)"),
    c("exception_type", "String", "Exception type, or the log level for logged errors"),
    c("message", "String", "Message of the latest occurrence"),
    c("stacktrace", "String", "Stack trace of the latest occurrence"),
    c("culprit", "String", "Top in-app frame (file/module and function)"),
    c("first_seen", MS_TIME, "First occurrence"),
    c("last_seen", MS_TIME, "Latest occurrence"),
    c(
      "occurrence_count",
      "UInt64",
      "Occurrences so far; an exception event and a log of the same span with the same message are one",
    ),
    c("status", LC, "`active` or `resolved`"),
    c("resolved_at", MS_TIME, "When the group was last resolved (epoch 0 if never)"),
    c("severity", LC, "`low`, `medium`, `high` or `critical`"),
    c("services", "Array(String)", "Services the error occurred in"),
    c("sample_trace_id", "String", "Trace id of a recent occurrence"),
    c("sample_span_id", "String", "Span id of a recent occurrence"),
    source,
    c("version", "UInt64", "Row version; the highest wins"),
  ],
  engine: "ReplacingMergeTree(version)",
  // Partitioned by first_seen so every version of a group lands in the same partition and merges.
  partitionBy: "toDate(first_seen)",
  orderBy: "(project_id, fingerprint)",
  ttlExpression: "toDateTime(last_seen)",
  indexes: [],
  // Read by fingerprint with FINAL, no time range; a quiet day's one part also holds one version.
  liveSettings: QUIET_DAYS_MERGED,
  readFinal: true,
  // Every version of a group on one shard: ReplacingMergeTree and FINAL only merge within one.
  shardingKey: "cityHash64(project_id, fingerprint)",
};

/** The SETTINGS line of a table's CREATE statement, or none. */
export function settingsLines(table: TableDef): string[] {
  const settings = [table.settings, table.liveSettings].filter(Boolean).join(", ");
  return settings ? [`SETTINGS ${settings}`] : [];
}

/** The TTL of a table keeping rows `retentionDays` days. */
export function ttlClause(table: TableDef, retentionDays: number): string {
  return `${table.ttlExpression} + toIntervalDay(${retentionDays})`;
}

/** The six TQL tables, in documentation order. */
export const TELEMETRY_TABLES: readonly TableDef[] = [
  traces,
  logs,
  metrics,
  aiSpans,
  httpRequests,
  errorGroups,
];
