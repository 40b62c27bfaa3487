// The metadata tables of dashboards (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface DashboardsTable {
  id: string;
  project_id: string;
  title: string;
  description: string;
  /** JSON array of strings. */
  tags: string;
  panel_count: number;
  /** JSON of the body without title, description and tags (time range, variables, panels, rows). */
  document: string;
  version: number;
  template_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface DashboardStarsTable {
  user_id: string;
  dashboard_id: string;
  created_at: string;
}
