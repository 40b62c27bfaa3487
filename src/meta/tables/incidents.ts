import type { ColumnType } from "kysely";

// The metadata tables of incidents and their timelines (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface IncidentsTable {
  id: string;
  project_id: string;
  title: string;
  /** active | resolved */
  status: string;
  /** low | medium | high | critical */
  severity: string;
  /** manual | monitor | alert */
  source: string;
  /** The monitor or alert rule that opened it; null for a manual incident. */
  source_id: string | null;
  /** For alerts, the series key; null otherwise. */
  source_key: string | null;
  started_at: string;
  resolved_at: string | null;
  /** bigint: PostgreSQL returns it as a string (read through Number()). */
  duration_ms: ColumnType<number | string | null, number | null, number | null>;
  cause: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  /** Set once, by the first acknowledge (0015-incident-response). */
  acknowledged_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** user | link | system */
  acknowledged_by_kind: ColumnType<string | null, string | null | undefined, string | null>;
  /** The user's id, or the id of the channel that sent the link. */
  acknowledged_by_id: ColumnType<string | null, string | null | undefined, string | null>;
  acknowledged_by_label: ColumnType<string | null, string | null | undefined, string | null>;
  /** A member of the project's organization, or null. */
  assignee_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface IncidentEventsTable {
  id: string;
  incident_id: string;
  /** opened | update | severity_changed | … (see src/contracts/incident-catalog.ts) */
  type: string;
  at: string;
  /** user | system | monitor | alert */
  actor_kind: string;
  actor_id: string | null;
  message: string | null;
  /** investigating | identified | monitoring | resolved, for `update` events. */
  phase: string | null;
  /** 1 when shown publicly (status pages, /v1 updates). */
  public: number;
  /** JSON object of the event's details. */
  data: string;
}

/** One-click acknowledge links sent in problem notifications (0015-incident-response). */
export interface IncidentAckLinksTable {
  /** SHA-256 (hex) of the token; the token is only in the link. */
  token_hash: string;
  incident_id: string;
  /** The channel that sent it; null when it was since deleted or none did. */
  channel_id: string | null;
  via_label: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
