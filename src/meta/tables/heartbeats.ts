// The metadata table of heartbeat monitors' ping tokens and deadlines (src/meta/schema.ts maps it).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface MonitorHeartbeatsTable {
  monitor_id: string;
  /** Hex sha-256 of the ping token (unique). */
  token_hash: string;
  /** The token sealed with the server key, to show the ping URL again. */
  token_sealed: string;
  last_ping_at: string | null;
  /** The last /start not followed by a success or failure ping yet. */
  started_at: string | null;
  /** When a missing ping is recorded next; null while the monitor is paused. */
  next_deadline_at: string | null;
  created_at: string;
}
