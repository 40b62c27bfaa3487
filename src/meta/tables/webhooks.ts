// The metadata tables of webhook endpoints, the messages queued for them and each delivery attempt (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface WebhookEndpointsTable {
  id: string;
  project_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  is_active: number;
  /** The signing secret, sealed. */
  secret: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  project_id: string;
  endpoint_id: string;
  message_id: string;
  event_id: string;
  event: string;
  /** JSON of the event's data. */
  payload: string;
  /** pending | succeeded | failed */
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  message_id: string;
  event: string;
  attempt: number;
  status_code: number;
  duration_ms: number;
  success: number;
  body: string;
  created_at: string;
}
