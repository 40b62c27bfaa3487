import type { Insertable, Selectable, Updateable } from "kysely";
import type {
  ApiKeysTable,
  MembershipsTable,
  OrganizationsTable,
  ProjectsTable,
  SessionsTable,
  UsersTable,
} from "./tables/accounts.js";
import type {
  AlertEventsTable,
  AlertRuleChannelsTable,
  AlertRulesTable,
  AlertSeriesTable,
} from "./tables/alerts.js";
import type { DashboardStarsTable, DashboardsTable } from "./tables/dashboards.js";
import type { EscalationPoliciesTable, IncidentEscalationsTable } from "./tables/escalation.js";
import type { MonitorHeartbeatsTable } from "./tables/heartbeats.js";
import type {
  IncidentAckLinksTable,
  IncidentEventsTable,
  IncidentsTable,
} from "./tables/incidents.js";
import type { InvitesTable } from "./tables/invites.js";
import type {
  MonitorChannelsTable,
  MonitorResultsTable,
  MonitorsTable,
} from "./tables/monitors.js";
import type {
  NotificationChannelsTable,
  NotificationDeliveriesTable,
} from "./tables/notifications.js";
import type { SavedQueriesTable } from "./tables/saved-queries.js";
import type { SavedViewsTable } from "./tables/saved-views.js";
import type {
  StatusPageNotificationsTable,
  StatusPageSubscriberCursorsTable,
  StatusPageSubscribersTable,
} from "./tables/status-page-subscribers.js";
import type {
  StatusPageComponentMonitorsTable,
  StatusPageComponentRulesTable,
  StatusPageComponentsTable,
  StatusPageDaysTable,
  StatusPageGroupsTable,
  StatusPageIncidentComponentsTable,
  StatusPageMaintenanceComponentsTable,
  StatusPageMaintenancesTable,
  StatusPagesTable,
} from "./tables/status-pages.js";
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from "./tables/webhooks.js";
import type { WorkersTable, WorkLeasesTable } from "./tables/workers.js";

// Each table's columns are in src/meta/tables/; timestamps are ISO 8601 UTC text in every engine.

/** The metadata database as Kysely sees it. */
export interface MetaSchema {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  invites: InvitesTable;
  notification_channels: NotificationChannelsTable;
  monitors: MonitorsTable;
  monitor_channels: MonitorChannelsTable;
  monitor_results: MonitorResultsTable;
  monitor_heartbeats: MonitorHeartbeatsTable;
  incidents: IncidentsTable;
  incident_events: IncidentEventsTable;
  escalation_policies: EscalationPoliciesTable;
  incident_escalations: IncidentEscalationsTable;
  incident_ack_links: IncidentAckLinksTable;
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
  status_page_subscribers: StatusPageSubscribersTable;
  status_page_subscriber_cursors: StatusPageSubscriberCursorsTable;
  status_page_notifications: StatusPageNotificationsTable;
  saved_queries: SavedQueriesTable;
  saved_views: SavedViewsTable;
  dashboards: DashboardsTable;
  dashboard_stars: DashboardStarsTable;
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
export type InviteRow = Selectable<InvitesTable>;
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
export type StatusPageSubscriberRow = Selectable<StatusPageSubscribersTable>;
export type StatusPageNotificationRow = Selectable<StatusPageNotificationsTable>;
export type SavedQueryRow = Selectable<SavedQueriesTable>;
export type SavedViewRow = Selectable<SavedViewsTable>;
export type DashboardRow = Selectable<DashboardsTable>;
