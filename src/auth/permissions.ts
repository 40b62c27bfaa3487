import { type ApiKeyRole, PERMISSIONS, type Permission } from "../contracts/auth.js";

/** What each permission lets a key do, as the key form and the API describe it. */
export const PERMISSION_DESCRIPTIONS: Readonly<Record<Permission, string>> = {
  ingest: "Send telemetry: OTLP traces, logs and metrics over HTTP and gRPC",
  "logs:read": "Read logs (GET /v1/logs)",
  "traces:read": "Read traces and their spans (GET /v1/traces)",
  "errors:read": "Read error groups and their occurrences (GET /v1/errors)",
  "incidents:read": "Read incidents and their timelines (GET /v1/incidents)",
  "alerts:read": "Read alert rules and their state (GET /v1/alerts)",
  "status_pages:read": "Read status pages and their data (GET /v1/status-pages)",
  "infra:read": "Read host and infrastructure health (GET /v1/infra-health)",
  "http_metrics:read": "Read HTTP endpoint metrics (GET /v1/http-metrics)",
  "ai:read": "Read AI usage and costs (GET /v1/ai/dashboard)",
  "sessions:read": "Read user sessions and traffic (GET /v1/sessions, /v1/traffic)",
  "tql:query": "Run TQL queries over the project's telemetry (POST /v1/tql)",
};

const READ_PERMISSIONS = PERMISSIONS.filter((p) => p.endsWith(":read"));

/** Named bundles of permissions a key can be created with. */
export const API_KEY_ROLES = {
  read_only: [...READ_PERMISSIONS, "tql:query"],
  ingest: ["ingest"],
  full: [...PERMISSIONS],
} as const satisfies Record<ApiKeyRole, readonly Permission[]>;
