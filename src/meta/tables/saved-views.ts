// The metadata table of saved explorer views (src/meta/schema.ts maps it).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface SavedViewsTable {
  id: string;
  project_id: string;
  /** Which explorer: logs, traces, metrics, services or query. */
  kind: string;
  name: string;
  /** The view's path and query string in the app. */
  url: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
