import { closestName } from "../contracts/name-suggestion.js";

// How the environment and the command line map onto the configuration (docs/deploy.md).

/** Each environment variable and the config path it sets. */
export const ENV_VARS: Record<string, readonly string[]> = {
  VIGIL_DATA_DIR: ["dataDir"],
  VIGIL_HOST: ["host"],
  VIGIL_PORT: ["port"],
  VIGIL_LOG_LEVEL: ["logLevel"],
  VIGIL_PUBLIC_URL: ["publicUrl"],
  VIGIL_TRUST_PROXY: ["trustProxy"],
  VIGIL_SHUTDOWN_TIMEOUT_SECONDS: ["shutdownTimeoutSeconds"],
  VIGIL_ROLE: ["role"],
  VIGIL_LEASE_SECONDS: ["leaseSeconds"],
  VIGIL_HTTP_REQUEST_TIMEOUT_SECONDS: ["http", "requestTimeoutSeconds"],
  VIGIL_HTTP_HEADERS_TIMEOUT_SECONDS: ["http", "headersTimeoutSeconds"],
  VIGIL_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: ["http", "keepAliveTimeoutSeconds"],
  VIGIL_HTTP_IDLE_TIMEOUT_SECONDS: ["http", "idleTimeoutSeconds"],
  VIGIL_HTTP_MAX_CONNECTIONS: ["http", "maxConnections"],
  VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: ["http", "maxConnectionsPerAddress"],
  VIGIL_HTTP_BODY_TIMEOUT_SECONDS: ["http", "bodyTimeoutSeconds"],
  VIGIL_ADMIN_PORT: ["http", "adminPort"],
  VIGIL_ADMIN_HOST: ["http", "adminHost"],
  VIGIL_METRICS_TOKEN: ["http", "metricsToken"],
  VIGIL_GRPC_ENABLED: ["grpc", "enabled"],
  VIGIL_GRPC_HOST: ["grpc", "host"],
  VIGIL_GRPC_PORT: ["grpc", "port"],
  VIGIL_META_URL: ["meta", "url"],
  VIGIL_REDIS_URL: ["redis", "url"],
  VIGIL_TELEMETRY_DATABASE: ["telemetry", "database"],
  VIGIL_RETENTION_DAYS: ["telemetry", "retentionDays"],
  VIGIL_TELEMETRY_SESSIONS: ["telemetry", "sessions"],
  VIGIL_TELEMETRY_MAX_WRITE_WAIT_MS: ["telemetry", "maxWriteWaitMs"],
  VIGIL_TELEMETRY_MAX_PENDING_READS: ["telemetry", "maxPendingReads"],
  VIGIL_TELEMETRY_MAX_READ_WAIT_MS: ["telemetry", "maxReadWaitMs"],
  VIGIL_TELEMETRY_URL: ["telemetry", "url"],
  VIGIL_TELEMETRY_USER: ["telemetry", "user"],
  VIGIL_TELEMETRY_PASSWORD: ["telemetry", "password"],
  VIGIL_TELEMETRY_CLUSTER: ["telemetry", "cluster"],
  VIGIL_TELEMETRY_CA_FILE: ["telemetry", "caFile"],
  VIGIL_TELEMETRY_ASYNC_INSERT: ["telemetry", "asyncInsert"],
  VIGIL_TELEMETRY_MAX_CONNECTIONS: ["telemetry", "maxConnections"],
  VIGIL_SESSION_TTL_HOURS: ["auth", "sessionTtlHours"],
  VIGIL_ADMIN_EMAIL: ["auth", "adminEmail"],
  VIGIL_ADMIN_PASSWORD: ["auth", "adminPassword"],
  VIGIL_AUTH_LOGIN_FAILURES_PER_ADDRESS: ["auth", "loginFailuresPerAddress"],
  VIGIL_AUTH_LOGIN_ADDRESS_WINDOW_MINUTES: ["auth", "loginAddressWindowMinutes"],
  VIGIL_AUTH_LOGIN_FAILURES_PER_ACCOUNT: ["auth", "loginFailuresPerAccount"],
  VIGIL_AUTH_LOGIN_ACCOUNT_WINDOW_MINUTES: ["auth", "loginAccountWindowMinutes"],
  VIGIL_AUTH_KNOWN_ADDRESS_DAYS: ["auth", "knownAddressDays"],
  VIGIL_AUTH_MAX_CONCURRENT_HASHES: ["auth", "maxConcurrentHashes"],
  VIGIL_AUTH_MAX_QUEUED_HASHES: ["auth", "maxQueuedHashes"],
  VIGIL_RATE_LIMIT_PER_MINUTE: ["rateLimit", "perMinute"],
  VIGIL_INGEST_MAX_BODY_BYTES: ["ingest", "maxBodyBytes"],
  VIGIL_INGEST_MAX_ATTRIBUTE_LENGTH: ["ingest", "maxAttributeLength"],
  VIGIL_INGEST_MAX_ATTRIBUTES: ["ingest", "maxAttributes"],
  VIGIL_INGEST_QUEUE_MAX_ROWS: ["ingest", "queueMaxRows"],
  VIGIL_INGEST_RATE_LIMIT_PER_MINUTE: ["ingest", "perMinute"],
  VIGIL_INGEST_MAX_INFLIGHT_BYTES: ["ingest", "maxInflightBytes"],
  VIGIL_INGEST_WRITE_INTERVAL_MS: ["ingest", "writeIntervalMs"],
  VIGIL_INGEST_SERVICE_EDGE_WAIT_SECONDS: ["ingest", "serviceEdgeWaitSeconds"],
  VIGIL_INGEST_SERVICE_EDGE_MAX_PENDING: ["ingest", "serviceEdgeMaxPending"],
  VIGIL_AI_PRICES: ["ai", "prices"],
  VIGIL_MONITORS_ENABLED: ["monitors", "enabled"],
  VIGIL_MONITORS_CONCURRENCY: ["monitors", "concurrency"],
  VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: ["monitors", "allowPrivateTargets"],
  VIGIL_MONITORS_MAX_RESPONSE_BYTES: ["monitors", "maxResponseBytes"],
  VIGIL_MONITORS_STORED_BODY_BYTES: ["monitors", "storedBodyBytes"],
  VIGIL_MONITORS_RESULT_RETENTION_DAYS: ["monitors", "resultRetentionDays"],
  VIGIL_HEARTBEAT_PINGS_PER_MINUTE: ["monitors", "heartbeatPingsPerMinute"],
  VIGIL_HEARTBEAT_PINGS_PER_MINUTE_PER_ADDRESS: ["monitors", "heartbeatPingsPerMinutePerAddress"],
  VIGIL_ALERTS_ENABLED: ["alerts", "enabled"],
  VIGIL_ALERTS_CONCURRENCY: ["alerts", "concurrency"],
  VIGIL_ALERTS_MAX_RULES_PER_PROJECT: ["alerts", "maxRulesPerProject"],
  VIGIL_WEBHOOKS_ENABLED: ["webhooks", "enabled"],
  VIGIL_WEBHOOKS_CONCURRENCY: ["webhooks", "concurrency"],
  VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: ["webhooks", "allowPrivateTargets"],
  VIGIL_WEBHOOKS_ALLOW_HTTP_LOOPBACK: ["webhooks", "allowHttpLoopback"],
  VIGIL_WEBHOOKS_CA_FILE: ["webhooks", "caFile"],
  VIGIL_WEBHOOKS_LOG_RETENTION_DAYS: ["webhooks", "logRetentionDays"],
  VIGIL_WEBHOOKS_WRITES_PER_MINUTE: ["webhooks", "writesPerMinute"],
  VIGIL_SMTP_URL: ["smtp", "url"],
  VIGIL_SMTP_FROM: ["smtp", "from"],
  VIGIL_SECRET_KEY: ["secretKey"],
  VIGIL_TQL_MAX_EXECUTION_SECONDS: ["tql", "maxExecutionSeconds"],
  VIGIL_TQL_MAX_MEMORY_BYTES: ["tql", "maxMemoryBytes"],
  VIGIL_TQL_MAX_ROWS_TO_READ: ["tql", "maxRowsToRead"],
  VIGIL_TQL_MAX_CONCURRENT_PER_PROJECT: ["tql", "maxConcurrentPerProject"],
  VIGIL_TQL_MAX_CONCURRENT_PER_ORGANIZATION: ["tql", "maxConcurrentPerOrganization"],
};

/**
 * What `vigil serve --dev` turns on, for trying Vigil on one machine: the same settings as these
 * variables, so a production config never differs from a dev one by anything hidden.
 */
export const DEV_SETTINGS = [
  {
    variable: "VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS",
    path: ["monitors", "allowPrivateTargets"],
    relaxes:
      "monitors and Slack channels may reach loopback and private addresses (SSRF guard off)",
  },
  {
    variable: "VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS",
    path: ["webhooks", "allowPrivateTargets"],
    relaxes: "webhook endpoints may be loopback and private addresses (SSRF guard off)",
  },
  {
    variable: "VIGIL_WEBHOOKS_ALLOW_HTTP_LOOPBACK",
    path: ["webhooks", "allowHttpLoopback"],
    relaxes: "webhook endpoints on localhost, 127.0.0.0/8 or [::1] may be plain http://",
  },
] as const;

/** Read by loadConfig itself rather than mapped into the schema. */
export const CONFIG_FILE_VAR = "VIGIL_CONFIG";

export function closestEnvVar(name: string): string | undefined {
  return closestName(name, [...Object.keys(ENV_VARS), CONFIG_FILE_VAR]);
}

/** Where each command-line override goes in the config, and the flag that set it. */
export const OVERRIDES: Record<string, { path: readonly string[]; flag: string }> = {
  dataDir: { path: ["dataDir"], flag: "--data-dir" },
  host: { path: ["host"], flag: "--host" },
  port: { path: ["port"], flag: "--port" },
  grpcPort: { path: ["grpc", "port"], flag: "--grpc-port" },
  role: { path: ["role"], flag: "--role" },
};
