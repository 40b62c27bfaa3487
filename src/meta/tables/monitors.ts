// The metadata tables of monitors, the channels they notify and their check results (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface MonitorsTable {
  id: string;
  project_id: string;
  name: string;
  /** active | paused */
  status: string;
  /** JSON of the validated MonitorDefinition (without channelIds, kept in monitor_channels). */
  definition: string;
  /** pending (never checked) | passing | outage */
  health: string;
  failure_streak: number;
  last_checked_at: string | null;
  last_result_id: string | null;
  open_incident_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface MonitorChannelsTable {
  monitor_id: string;
  channel_id: string;
}

export interface MonitorResultsTable {
  id: string;
  monitor_id: string;
  started_at: string;
  duration_ms: number;
  /** 1 passed, 0 failed (integers read the same on both engines). */
  passed: number;
  /** scheduled | manual */
  trigger: string;
  /** JSON of the step results. */
  detail: string;
}
