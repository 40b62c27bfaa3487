// The metadata tables of notification channels and the deliveries sent through them (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface NotificationChannelsTable {
  id: string;
  project_id: string;
  name: string;
  type: string;
  /** JSON of the channel's non-secret settings. */
  config: string;
  /** Encrypted JSON of its secret settings, or null when it has none. */
  secret: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationDeliveriesTable {
  id: string;
  project_id: string;
  channel_id: string;
  monitor_id: string | null;
  incident_id: string | null;
  /** The alert rule of an alert notification (monitor_id is null then). */
  rule_id: string | null;
  event: string;
  /** JSON of the notification. */
  payload: string;
  /** pending | sent | failed */
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
  created_at: string;
}
