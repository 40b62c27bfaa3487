import type { ColumnType } from "kysely";

// The metadata tables of work leases and the workers that hold them (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface WorkLeasesTable {
  kind: string;
  entity_id: string;
  owner: string | null;
  /** bigint: PostgreSQL returns it as text. */
  token: ColumnType<number | string, number | undefined, number>;
  last_slot: ColumnType<number | string, number | undefined, number>;
}

export interface WorkersTable {
  id: string;
  kind: string;
  started_at: string;
  expires_at: string;
}
