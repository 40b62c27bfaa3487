import type { ColumnType, Insertable, Selectable, Updateable } from "kysely";

// Timestamps are ISO 8601 UTC text in every engine, so SQLite and PostgreSQL rows read the same.

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: string;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface ProjectsTable {
  id: string;
  org_id: string;
  name: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  project_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  role: string;
  /** JSON array of permission names. */
  permissions: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
}

export interface NotificationChannelsTable {
  id: string;
  project_id: string;
  name: string;
  type: string;
  /** JSON of the channel's non-secret settings. */
  config: string;
  /** Encrypted JSON of its secret settings, or null when it has none. */
  secret: string | null;
  created_at: string;
  updated_at: string;
}

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
}

export interface IncidentEventsTable {
  id: string;
  incident_id: string;
  /** opened | update | severity_changed | … (see src/incidents/model.ts) */
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

export interface NotificationDeliveriesTable {
  id: string;
  project_id: string;
  channel_id: string;
  monitor_id: string | null;
  incident_id: string | null;
  /** The alert rule of an alert notification (monitor_id is null then). */
  rule_id: string | null;
  event: string;
  /** JSON of the notification. */
  payload: string;
  /** pending | sent | failed */
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
  created_at: string;
}

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

export interface AlertRulesTable {
  id: string;
  project_id: string;
  name: string;
  description: string;
  /** low | medium | high | critical */
  severity: string;
  /** JSON of the validated AlertRuleDefinition (channels are in alert_rule_channels). */
  definition: string;
  /** The TQL evaluated: the user's query or the preset compiled. */
  query: string;
  muted: number;
  /** Null while muted: muted indefinitely. */
  muted_until: string | null;
  /** ok | pending | firing | error */
  state: string;
  last_evaluated_at: string | null;
  last_duration_ms: number | null;
  last_value: number | null;
  last_series: number | null;
  last_error: string | null;
  /** Consecutive failed evaluations; 0 after one that worked. */
  failures: number;
  /** When the current run of failed evaluations began; null while evaluations work. */
  failing_since: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface AlertRuleChannelsTable {
  rule_id: string;
  channel_id: string;
}

export interface AlertSeriesTable {
  rule_id: string;
  /** The labels sorted by name, JSON-encoded. */
  series_key: string;
  /** JSON object of label name to text. */
  labels: string;
  /** ok | pending | firing */
  state: string;
  pending_since: string | null;
  fired_at: string | null;
  last_value: number | null;
  last_evaluated_at: string | null;
  last_notified_at: string | null;
  incident_id: string | null;
}

export interface AlertEventsTable {
  id: string;
  rule_id: string;
  project_id: string;
  series_key: string;
  /** JSON object of label name to text. */
  labels: string;
  /** pending | fired | resolved | renotified | error | recovered_from_error | no_data */
  kind: string;
  /** The rule's severity at the time of the event. */
  severity: string;
  value: number | null;
  threshold: number;
  at: string;
  /** 1 notified, 0 recorded only (the rule was muted). */
  notified: number;
  incident_id: string | null;
  message: string | null;
}

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

/** The metadata database as Kysely sees it. */
export interface MetaSchema {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  notification_channels: NotificationChannelsTable;
  monitors: MonitorsTable;
  monitor_channels: MonitorChannelsTable;
  monitor_results: MonitorResultsTable;
  incidents: IncidentsTable;
  incident_events: IncidentEventsTable;
  notification_deliveries: NotificationDeliveriesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  alert_rules: AlertRulesTable;
  alert_rule_channels: AlertRuleChannelsTable;
  alert_series: AlertSeriesTable;
  alert_events: AlertEventsTable;
  status_pages: StatusPagesTable;
  status_page_groups: StatusPageGroupsTable;
  status_page_components: StatusPageComponentsTable;
  status_page_component_monitors: StatusPageComponentMonitorsTable;
  status_page_component_rules: StatusPageComponentRulesTable;
  status_page_maintenances: StatusPageMaintenancesTable;
  status_page_maintenance_components: StatusPageMaintenanceComponentsTable;
  status_page_incident_components: StatusPageIncidentComponentsTable;
  status_page_days: StatusPageDaysTable;
  saved_queries: SavedQueriesTable;
  work_leases: WorkLeasesTable;
  workers: WorkersTable;
}

export type OrganizationRow = Selectable<OrganizationsTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ApiKeyUpdate = Updateable<ApiKeysTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NotificationChannelRow = Selectable<NotificationChannelsTable>;
export type MonitorRow = Selectable<MonitorsTable>;
export type MonitorResultRow = Selectable<MonitorResultsTable>;
export type IncidentRow = Selectable<IncidentsTable>;
export type IncidentEventRow = Selectable<IncidentEventsTable>;
export type NotificationDeliveryRow = Selectable<NotificationDeliveriesTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type AlertRuleRow = Selectable<AlertRulesTable>;
export type AlertSeriesRow = Selectable<AlertSeriesTable>;
export type AlertEventRow = Selectable<AlertEventsTable>;
export type StatusPageRow = Selectable<StatusPagesTable>;
export type StatusPageGroupRow = Selectable<StatusPageGroupsTable>;
export type StatusPageComponentRow = Selectable<StatusPageComponentsTable>;
export type StatusPageMaintenanceRow = Selectable<StatusPageMaintenancesTable>;
export type StatusPageDayRow = Selectable<StatusPageDaysTable>;
export type SavedQueryRow = Selectable<SavedQueriesTable>;
