import type { ColumnType } from "kysely";

// The metadata tables of status pages, their components, maintenances and day history (src/meta/schema.ts maps them).
// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface StatusPagesTable {
  id: string;
  org_id: string;
  /** Unique across the installation: the public URL is /status/:slug. */
  slug: string;
  title: string;
  description: string;
  logo_url: string | null;
  /** JSON array of {label, url}. */
  links: string;
  /** IANA time zone the public page shows times in (history days stay UTC). */
  timezone: string;
  /** operational | degraded | down: the worst of its components not under maintenance. */
  state: string;
  state_changed_at: string;
  /** Bumped in the same transaction as anything the public payload shows; caches key on it. */
  data_version: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface StatusPageGroupsTable {
  id: string;
  page_id: string;
  name: string;
  position: number;
}

export interface StatusPageComponentsTable {
  id: string;
  page_id: string;
  group_id: string | null;
  name: string;
  description: string;
  position: number;
  /** operational | degraded | down | maintenance */
  state: string;
  state_changed_at: string;
  created_at: string;
  updated_at: string;
  /** 1: its sources' own incidents are shown on it and counted (migration 0011; default 1). */
  publish_incidents: ColumnType<number, number | undefined, number>;
}

/** A component's monitor sources. */
export interface StatusPageComponentMonitorsTable {
  component_id: string;
  monitor_id: string;
}

/** A component's alert rule sources. */
export interface StatusPageComponentRulesTable {
  component_id: string;
  rule_id: string;
}

export interface StatusPageMaintenancesTable {
  id: string;
  page_id: string;
  title: string;
  message: string;
  starts_at: string;
  ends_at: string;
  /** scheduled | in_progress | completed: moved by the status page ticker at the window's edges. */
  phase: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface StatusPageMaintenanceComponentsTable {
  maintenance_id: string;
  component_id: string;
}

/** Components an incident affects beyond those its source feeds. */
export interface StatusPageIncidentComponentsTable {
  incident_id: string;
  component_id: string;
}

/** One component's UTC day: the history bar. */
export interface StatusPageDaysTable {
  component_id: string;
  /** Denormalized so a page's 90 days are one indexed read. */
  page_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Monitor checks of the component's monitors outside maintenance. */
  checks_run: number;
  checks_passed: number;
  /** Checks that ran while the component was under maintenance (not counted above). */
  checks_in_maintenance: number;
  /** Milliseconds of the day spent down / degraded (closed intervals); bigint, so PostgreSQL returns strings. */
  down_ms: ColumnType<number | string, number, number>;
  degraded_ms: ColumnType<number | string, number, number>;
  /** Milliseconds of the day under a maintenance window (left out of time-based uptime). */
  maintenance_ms: ColumnType<number | string, number, number>;
  /** operational | degraded | down: the worst state of the day outside maintenance. */
  worst_state: string;
  /** 1 when a maintenance window covered the component during the day. */
  maintenance: number;
  updated_at: string;
}
