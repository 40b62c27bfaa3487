// The metadata tables of saved TQL queries (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface SavedQueriesTable {
  id: string;
  project_id: string;
  name: string;
  description: string;
  query: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
