// The metadata tables of alert rules, their series and their events (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface AlertRulesTable {
  id: string;
  project_id: string;
  name: string;
  description: string;
  /** low | medium | high | critical */
  severity: string;
  /** JSON of the validated AlertRuleDefinition (channels are in alert_rule_channels). */
  definition: string;
  /** The TQL evaluated: the user's query or the preset compiled. */
  query: string;
  muted: number;
  /** Null while muted: muted indefinitely. */
  muted_until: string | null;
  /** ok | pending | firing | error */
  state: string;
  last_evaluated_at: string | null;
  last_duration_ms: number | null;
  last_value: number | null;
  last_series: number | null;
  last_error: string | null;
  /** Consecutive failed evaluations; 0 after one that worked. */
  failures: number;
  /** When the current run of failed evaluations began; null while evaluations work. */
  failing_since: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface AlertRuleChannelsTable {
  rule_id: string;
  channel_id: string;
}

export interface AlertSeriesTable {
  rule_id: string;
  /** The labels sorted by name, JSON-encoded. */
  series_key: string;
  /** JSON object of label name to text. */
  labels: string;
  /** ok | pending | firing */
  state: string;
  pending_since: string | null;
  fired_at: string | null;
  last_value: number | null;
  last_evaluated_at: string | null;
  last_notified_at: string | null;
  incident_id: string | null;
}

export interface AlertEventsTable {
  id: string;
  rule_id: string;
  project_id: string;
  series_key: string;
  /** JSON object of label name to text. */
  labels: string;
  /** pending | fired | resolved | renotified | error | recovered_from_error | no_data */
  kind: string;
  /** The rule's severity at the time of the event. */
  severity: string;
  value: number | null;
  threshold: number;
  at: string;
  /** 1 notified, 0 recorded only (the rule was muted). */
  notified: number;
  incident_id: string | null;
  message: string | null;
}
