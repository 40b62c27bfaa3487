// The metadata tables of status page subscribers (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface StatusPageSubscribersTable {
  id: string;
  page_id: string;
  /** email | webhook */
  kind: string;
  /** The email address (lowercased) or the webhook URL; unique per page. */
  address: string;
  /** pending | confirmed */
  status: string;
  /** JSON array of component ids; empty for the whole page. */
  component_ids: string;
  /** A webhook's signing secret, sealed. */
  secret: string | null;
  confirm_token_hash: string | null;
  confirm_expires_at: string | null;
  unsubscribe_token_hash: string;
  /** The unsubscribe token, sealed (every email carries it). */
  unsubscribe_token: string;
  created_by: string | null;
  confirmed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StatusPageSubscriberCursorsTable {
  page_id: string;
  data_version: number;
  /** JSON of what was announced; null until the page is first read. */
  snapshot: string | null;
  checked_at: string;
}

export interface StatusPageNotificationsTable {
  id: string;
  page_id: string;
  subscriber_id: string;
  event: string;
  /** JSON of the message's data. */
  payload: string;
  /** pending | sent | failed */
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
  created_at: string;
}
