import type { Migration, MigrationProvider } from "kysely";
import * as initial from "./0001-initial.js";
import * as monitors from "./0002-monitors.js";
import * as webhooks from "./0003-webhooks.js";
import * as incidents from "./0004-incidents.js";
import * as alerts from "./0005-alerts.js";
import * as statusPages from "./0006-status-pages.js";
import * as savedQueries from "./0007-saved-queries.js";
import * as workLeases from "./0008-work-leases.js";
import * as alertFailures from "./0009-alert-failures.js";
import * as alertUnits from "./0010-alert-units.js";
import * as statusPagePublishIncidents from "./0011-status-page-publish-incidents.js";
import * as dropRevokedCliKeys from "./0012-drop-revoked-cli-keys.js";
import * as dashboards from "./0013-dashboards.js";
import * as savedViews from "./0014-saved-views.js";
import * as incidentResponse from "./0015-incident-response.js";
import * as escalationPolicies from "./0016-escalation-policies.js";
import * as invites from "./0017-invites.js";
import * as statusPageSubscribers from "./0018-status-page-subscribers.js";
import * as heartbeats from "./0020-heartbeats.js";
import * as webhookQueueIndexes from "./0021-webhook-queue-indexes.js";

/** Every migration, in order; add one entry per new file. Names are permanent once shipped. */
const MIGRATIONS: Record<string, Migration> = {
  "0001-initial": initial,
  "0002-monitors": monitors,
  "0003-webhooks": webhooks,
  "0004-incidents": incidents,
  "0005-alerts": alerts,
  "0006-status-pages": statusPages,
  "0007-saved-queries": savedQueries,
  "0008-work-leases": workLeases,
  "0009-alert-failures": alertFailures,
  "0010-alert-units": alertUnits,
  "0011-status-page-publish-incidents": statusPagePublishIncidents,
  "0012-drop-revoked-cli-keys": dropRevokedCliKeys,
  "0013-dashboards": dashboards,
  "0014-saved-views": savedViews,
  "0015-incident-response": incidentResponse,
  "0016-escalation-policies": escalationPolicies,
  "0017-invites": invites,
  "0020-heartbeats": heartbeats,
  "0018-status-page-subscribers": statusPageSubscribers,
  "0021-webhook-queue-indexes": webhookQueueIndexes,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
