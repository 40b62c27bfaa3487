import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { z } from "zod";
import { Email, Password } from "./auth/users.js";
import { isLoopbackHost } from "./lib/http/address-policy.js";
import { closestName } from "./contracts/name-suggestion.js";

/**
 * Which reverse proxies to believe about the client address and scheme: false (none), true
 * (every hop — only behind a proxy that overwrites X-Forwarded-For), a hop count, or a comma
 * list of addresses/CIDRs (`127.0.0.1,10.0.0.0/8`).
 */
const trustProxy = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    const text = value.trim().toLowerCase();
    if (["true", "yes", "on"].includes(text)) return true;
    if (["false", "no", "off", ""].includes(text)) return false;
    if (/^\d+$/.test(text)) return Number(text);
    return text.split(",").map((part) => part.trim());
  },
  z.union([
    z.boolean(),
    z.number().int().min(0).max(100),
    z.array(
      z
        .string()
        .regex(/^[0-9a-f.:/]+$|^(loopback|linklocal|uniquelocal)$/, "must be an address or CIDR"),
    ),
  ]),
);

const integer = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

const DEFAULT_INGEST = {
  maxBodyBytes: 32 * 1024 * 1024,
  maxAttributeLength: 8192,
  maxAttributes: 128,
  queueMaxRows: 250_000,
  perMinute: 12_000,
  maxInflightBytes: 256 * 1024 * 1024,
  writeIntervalMs: 250,
};

const DEFAULT_HTTP = {
  requestTimeoutSeconds: 60,
  headersTimeoutSeconds: 10,
  keepAliveTimeoutSeconds: 72,
  idleTimeoutSeconds: 300,
  maxConnections: 10_000,
  maxConnectionsPerAddress: 64,
  bodyTimeoutSeconds: 10,
};

const DEFAULT_TQL = {
  maxExecutionSeconds: 30,
  maxMemoryBytes: 2 * 1024 * 1024 * 1024,
  maxRowsToRead: 2_000_000_000,
  maxConcurrentPerProject: 2,
  maxConcurrentPerOrganization: 3,
};

/**
 * Two write sessions, TQL-capable read sessions (one per core, and at least 4) and one kept for
 * the API's reads. With 4 for TQL, one organization at its limit (3) never makes another
 * organization's query wait, nor one project at its limit (2) another project's (ADR 0021).
 */
export const DEFAULT_TELEMETRY_SESSIONS = Math.max(7, availableParallelism() + 3);

const DEFAULT_TELEMETRY = {
  database: "vigil",
  retentionDays: 30,
  sessions: DEFAULT_TELEMETRY_SESSIONS,
  maxWriteWaitMs: 5000,
  maxPendingReads: 128,
  maxReadWaitMs: 1000,
  user: "default",
  asyncInsert: false,
  maxConnections: 16,
};

/** A ClickHouse server's HTTP URL; credentials go in their own settings so they are never logged. */
const telemetryUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .refine((text) => {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    return url === undefined || (url.username === "" && url.password === "");
  }, "must not hold credentials: set VIGIL_TELEMETRY_USER and VIGIL_TELEMETRY_PASSWORD")
  .refine((text) => {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    // The client reads a path as the database name and a query string as its own options.
    return url === undefined || (url.pathname === "/" && url.search === "" && url.hash === "");
  }, "must be the server's address only (scheme, host, port), without a path or query");

const flag = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    const text = value.trim().toLowerCase();
    if (["true", "yes", "on", "1"].includes(text)) return true;
    if (["false", "no", "off", "0", ""].includes(text)) return false;
    return value;
  },
  z.boolean({ error: "must be true or false" }),
);

const DEFAULT_MONITORS = {
  enabled: true,
  concurrency: 200,
  allowPrivateTargets: false,
  maxResponseBytes: 1024 * 1024,
  storedBodyBytes: 10 * 1024,
  resultRetentionDays: 90,
};

const DEFAULT_ALERTS = {
  enabled: true,
  concurrency: 4,
  maxRulesPerProject: 500,
};

const DEFAULT_WEBHOOKS = {
  enabled: true,
  concurrency: 64,
  allowPrivateTargets: false,
  allowHttpLoopback: false,
  logRetentionDays: 30,
  writesPerMinute: 30,
};

const usdPerMillion = z.number().min(0).max(1_000_000);
/** Prices of one model in US dollars per million tokens. */
export const ModelPrice = z
  .object({
    input: usdPerMillion,
    output: usdPerMillion,
    cacheRead: usdPerMillion.optional(),
    cacheWrite: usdPerMillion.optional(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPrice>;

/** Env vars carry structured settings as JSON text; anything else passes through unchanged. */
function parseJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Everything Vigil can be configured with; one schema over env vars and the config file. */
export const Config = z
  .object({
    dataDir: z.string().min(1).default("./data"),
    host: z.string().min(1).default("127.0.0.1"),
    port: integer(0, 65535).default(4318),
    logLevel: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
    /** The URL users reach the service at; decides Secure cookies and the CSRF origin. */
    publicUrl: z.url({ protocol: /^https?$/ }).optional(),
    trustProxy: trustProxy.default(false),
    shutdownTimeoutSeconds: integer(1, 600).default(30),
    /**
     * What this process runs: `api` (HTTP API, OTLP ingestion, dashboard), `worker` (monitors,
     * alert rules, notifications, webhook delivery, sweeps; HTTP only for health and metrics),
     * or `all` of it (one machine). See docs/deploy.md.
     */
    role: z.enum(["all", "api", "worker"], { error: "must be all, api or worker" }).default("all"),
    /**
     * How long a worker's lease on a monitor or alert rule lasts unrenewed: a stopped worker's
     * share moves to the others within it. Renewed every third of it.
     */
    leaseSeconds: integer(3, 600).default(20),
    http: z
      .object({
        /** Time to receive a whole request, headers and body; a slower one gets 408. */
        requestTimeoutSeconds: integer(1, 3600).default(DEFAULT_HTTP.requestTimeoutSeconds),
        /** Time to receive a request's headers; at most requestTimeoutSeconds. */
        headersTimeoutSeconds: integer(1, 3600).default(DEFAULT_HTTP.headersTimeoutSeconds),
        /** An idle keep-alive connection is closed after this; above a proxy's own idle timeout. */
        keepAliveTimeoutSeconds: integer(1, 3600).default(DEFAULT_HTTP.keepAliveTimeoutSeconds),
        /**
         * A connection with no bytes moving either way for this long is closed (slow readers);
         * 0 turns it off. Must exceed tql.maxExecutionSeconds, as a running query sends nothing.
         */
        idleTimeoutSeconds: integer(0, 86_400).default(DEFAULT_HTTP.idleTimeoutSeconds),
        /** Open connections at once; beyond it new ones are dropped. 0 = no limit. */
        maxConnections: integer(0, 1_000_000).default(DEFAULT_HTTP.maxConnections),
        /**
         * Open connections per client address; beyond it new ones are closed at once. 0 = no
         * limit. Counts the direct peer, so behind a reverse proxy every client is the proxy.
         */
        maxConnectionsPerAddress: integer(0, 1_000_000).default(
          DEFAULT_HTTP.maxConnectionsPerAddress,
        ),
        /**
         * Time to receive a request body once its headers are in, on every route but OTLP
         * ingestion (which keeps requestTimeoutSeconds); a slower one gets 408 and is closed.
         */
        bodyTimeoutSeconds: integer(1, 3600).default(DEFAULT_HTTP.bodyTimeoutSeconds),
        /** A second port serving only /healthz, /readyz and /metrics; /metrics then leaves the main port. */
        adminPort: integer(0, 65535).optional(),
        /** Address the admin port binds; unset means the HTTP host. */
        adminHost: z.string().min(1).optional(),
        /** When set, /metrics answers only `Authorization: Bearer <token>` (on either port). */
        metricsToken: z.string().min(16).max(1024).optional(),
      })
      .strict()
      .default(DEFAULT_HTTP),
    grpc: z
      .object({
        /** Serve OTLP/gRPC (trace, logs and metrics Export) beside the HTTP port. */
        enabled: flag.default(true),
        /** Address to bind; unset means the HTTP host. */
        host: z.string().min(1).optional(),
        /**
         * Unset: 4317, the port SDKs default to, and when it is busy (a second instance, a local
         * Collector) the service starts without OTLP/gRPC and warns. Set (0 picks a free one):
         * it must bind, or the service stops.
         */
        port: integer(0, 65535).optional(),
      })
      .strict()
      .default({ enabled: true }),
    meta: z
      .object({
        /** `postgres://…` for PostgreSQL; otherwise a SQLite file path (default `<dataDir>/meta.sqlite`). */
        url: z.string().min(1).optional(),
      })
      .strict()
      .default({}),
    redis: z
      .object({
        /**
         * `redis://[:password@]host:6379[/db]` or `rediss://…` (TLS): rate-limit counters shared
         * by every API node. Unset: counted in this process (one node). Never logged whole.
         */
        url: z
          .url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" })
          .optional(),
      })
      .strict()
      .default({}),
    telemetry: z
      .object({
        database: z
          .string()
          .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lowercase identifier")
          .default("vigil"),
        retentionDays: integer(1, 3650).default(30),
        /** Engine sessions: 1-2 for writes, the rest for reads; 1 runs everything in one queue. */
        sessions: integer(1, 256).default(DEFAULT_TELEMETRY.sessions),
        /** A write waiting longer than this makes /readyz answer 503 degraded. */
        maxWriteWaitMs: integer(100, 600_000).default(DEFAULT_TELEMETRY.maxWriteWaitMs),
        /**
         * Read API statements admitted at once (running or waiting for the engine), and as many
         * trace lookups waiting for their batch, one project's half of either at most; more get
         * 503 + Retry-After at once.
         */
        maxPendingReads: integer(1, 100_000).default(DEFAULT_TELEMETRY.maxPendingReads),
        /**
         * Milliseconds a read API statement may wait for the engine, unless it is among its
         * project's next to run; one that waits, or would wait, longer gets 503 + Retry-After
         * instead of a late answer.
         */
        maxReadWaitMs: integer(1, 600_000).default(DEFAULT_TELEMETRY.maxReadWaitMs),
        /**
         * `http(s)://host:8123` of a ClickHouse server (its HTTP interface): telemetry goes there
         * instead of the embedded chDB. No credentials, path or query in it: see user/password.
         */
        url: telemetryUrl.optional(),
        /** The ClickHouse user Vigil connects as. */
        user: z.string().min(1).max(256).default(DEFAULT_TELEMETRY.user),
        /** That user's password; sent in the Authorization header only, never logged. */
        password: z.string().max(1024).optional(),
        /**
         * A cluster of the server's `remote_servers`: tables become Replicated `<name>_local`
         * tables on every node behind a Distributed `<name>` (created ON CLUSTER).
         */
        cluster: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/, "must be a cluster name from remote_servers")
          .optional(),
        /** A PEM file of CA certificates to trust for an https:// server (an internal CA). */
        caFile: z.string().min(1).optional(),
        /** Server-side batching of inserts (async_insert, waiting for the flush); see ADR 0012. */
        asyncInsert: flag.default(DEFAULT_TELEMETRY.asyncInsert),
        /** HTTP connections to the server at once, writes and reads together. */
        maxConnections: integer(2, 1024).default(DEFAULT_TELEMETRY.maxConnections),
      })
      .strict()
      .default(DEFAULT_TELEMETRY),
    auth: z
      .object({
        sessionTtlHours: integer(1, 24 * 90).default(24 * 7),
        adminEmail: Email.optional(),
        adminPassword: Password.optional(),
        /** Failed sign-ins one client address may make per window, whatever the emails (429 beyond). */
        loginFailuresPerAddress: integer(1, 100_000).default(20),
        loginAddressWindowMinutes: integer(1, 24 * 60).default(5),
        /** Failed sign-ins for one email from all addresses per window; its known addresses are exempt. */
        loginFailuresPerAccount: integer(1, 100_000).default(10),
        loginAccountWindowMinutes: integer(1, 24 * 60).default(15),
        /** How long an address that signed in to an account stays exempt from that account's limit. */
        knownAddressDays: integer(1, 365).default(30),
        /** Password hashes (scrypt, on libuv's 4-thread pool) at once: the rest stay free for zlib. */
        maxConcurrentHashes: integer(1, 64).default(2),
        /** Hashes waiting for a turn; beyond them a sign-in gets 503 + Retry-After. */
        maxQueuedHashes: integer(0, 10_000).default(32),
      })
      .strict()
      // Parsed, so every field's default applies when `auth` is absent.
      .prefault({}),
    rateLimit: z
      .object({ perMinute: integer(1, 1_000_000).default(100) })
      .strict()
      .default({ perMinute: 100 }),
    ingest: z
      .object({
        /** Largest request body after decompression; beyond it OTLP requests get 413. */
        maxBodyBytes: integer(1024, 512 * 1024 * 1024).default(DEFAULT_INGEST.maxBodyBytes),
        /** Strings (attribute keys and values, log bodies, names) longer than this are cut, in characters. */
        maxAttributeLength: integer(64, 1024 * 1024).default(DEFAULT_INGEST.maxAttributeLength),
        /** Attributes kept per span, event, link, log record, data point and resource. */
        maxAttributes: integer(1, 10_000).default(DEFAULT_INGEST.maxAttributes),
        /** Rows waiting for the engine beyond which new requests get 503 + Retry-After. */
        queueMaxRows: integer(1000, 10_000_000).default(DEFAULT_INGEST.queueMaxRows),
        /** OTLP requests per minute per API key, counted apart from the read API's limit. */
        perMinute: integer(1, 10_000_000).default(DEFAULT_INGEST.perMinute),
        /**
         * OTLP body bytes held at once across requests, as received plus decompressed; a request
         * that does not fit gets 503 + Retry-After. At least twice maxBodyBytes.
         */
        maxInflightBytes: integer(1024 * 1024, 64 * 1024 ** 3).default(
          DEFAULT_INGEST.maxInflightBytes,
        ),
        /**
         * The shortest time between the starts of two engine writes while requests keep coming;
         * 0 writes as soon as the engine is free. Larger writes cost the engine less per row, for
         * up to this much more latency before a request is acknowledged; a write that no other
         * sender can join goes at once (docs/ingestion.md, Write cadence).
         */
        writeIntervalMs: integer(0, 10_000).default(DEFAULT_INGEST.writeIntervalMs),
      })
      .strict()
      .default(DEFAULT_INGEST),
    tql: z
      .object({
        /** A TQL query running longer than this is stopped (422 query_timeout). */
        maxExecutionSeconds: integer(1, 3600).default(DEFAULT_TQL.maxExecutionSeconds),
        /** Memory one TQL query may use in the engine (422 query_limit_exceeded beyond). */
        maxMemoryBytes: integer(16 * 1024 * 1024, 1024 ** 4).default(DEFAULT_TQL.maxMemoryBytes),
        /** Rows one TQL query may read from the tables (422 query_limit_exceeded beyond). */
        maxRowsToRead: integer(1000, 1e15).default(DEFAULT_TQL.maxRowsToRead),
        /**
         * Engine queries one project may have running or waiting at once (TQL, previews, alert
         * evaluations); one more TQL query gets 429 + Retry-After.
         */
        maxConcurrentPerProject: integer(1, 1000).default(DEFAULT_TQL.maxConcurrentPerProject),
        /**
         * The same, for all projects of one organization together. An organization also runs
         * at most one query fewer than the engine's TQL sessions at once, so another always
         * finds one (ADR 0021).
         */
        maxConcurrentPerOrganization: integer(1, 1000).default(
          DEFAULT_TQL.maxConcurrentPerOrganization,
        ),
      })
      .strict()
      .default(DEFAULT_TQL),
    monitors: z
      .object({
        /** Run the monitor scheduler in this process (turn off on API-only nodes). */
        enabled: flag.default(DEFAULT_MONITORS.enabled),
        /** Checks in flight at once across all monitors. */
        concurrency: integer(1, 10_000).default(DEFAULT_MONITORS.concurrency),
        /**
         * Let monitors and Slack channels reach loopback and private addresses. Off by default
         * (SSRF guard); turn on for a self-hosted install that watches internal services.
         */
        allowPrivateTargets: flag.default(DEFAULT_MONITORS.allowPrivateTargets),
        /** Response bytes read per request; assertions see at most this much of a body. */
        maxResponseBytes: integer(1024, 64 * 1024 * 1024).default(
          DEFAULT_MONITORS.maxResponseBytes,
        ),
        /** Bytes of a failed step's response body kept with its result. */
        storedBodyBytes: integer(0, 1024 * 1024).default(DEFAULT_MONITORS.storedBodyBytes),
        /** Check results older than this are deleted (spec: 90 days). */
        resultRetentionDays: integer(1, 3650).default(DEFAULT_MONITORS.resultRetentionDays),
      })
      .strict()
      .default(DEFAULT_MONITORS),
    alerts: z
      .object({
        /** Evaluate alert rules in this process (turn off on API-only nodes). */
        enabled: flag.default(DEFAULT_ALERTS.enabled),
        /**
         * Alert evaluations in flight at once, half of them for one project at most; due rules
         * beyond take turns by project. Their queries pass TQL's engine admission, waiting their
         * turn (never refused for tql.maxConcurrentPerProject) within tql.maxExecutionSeconds.
         */
        concurrency: integer(1, 1000).default(DEFAULT_ALERTS.concurrency),
        /** Alert rules one project may have; creating one more gets 409 naming this limit. */
        maxRulesPerProject: integer(1, 100_000).default(DEFAULT_ALERTS.maxRulesPerProject),
      })
      .strict()
      .default(DEFAULT_ALERTS),
    webhooks: z
      .object({
        /** Deliver webhooks from this process (turn off on API-only nodes). */
        enabled: flag.default(DEFAULT_WEBHOOKS.enabled),
        /** Delivery attempts in flight at once. */
        concurrency: integer(1, 10_000).default(DEFAULT_WEBHOOKS.concurrency),
        /**
         * Let webhook endpoints be loopback or private addresses. Off by default (SSRF guard);
         * for self-hosted setups whose receivers are internal, and for tests.
         */
        allowPrivateTargets: flag.default(DEFAULT_WEBHOOKS.allowPrivateTargets),
        /**
         * Accept plain http:// endpoints on a loopback host (localhost, 127.0.0.0/8, [::1]), for
         * local development; any other endpoint must still be https://.
         */
        allowHttpLoopback: flag.default(DEFAULT_WEBHOOKS.allowHttpLoopback),
        /** A PEM file of extra CA certificates to trust for endpoints (an internal CA, tests). */
        caFile: z.string().min(1).optional(),
        /** Delivery records and finished deliveries older than this are deleted. */
        logRetentionDays: integer(1, 3650).default(DEFAULT_WEBHOOKS.logRetentionDays),
        /** Per user: endpoint creations, edits and test pings (each makes the server POST). */
        writesPerMinute: integer(1, 100_000).default(DEFAULT_WEBHOOKS.writesPerMinute),
      })
      .strict()
      .default(DEFAULT_WEBHOOKS),
    smtp: z
      .object({
        /** `smtp://user:pass@host:587` or `smtps://…:465`; email channels need it. */
        url: z.url({ protocol: /^smtps?$/ }).optional(),
        /** The From address of notification emails. */
        from: z.string().min(3).max(320).default("Vigil <vigil@localhost>"),
      })
      .strict()
      .default({ from: "Vigil <vigil@localhost>" }),
    /**
     * Key that encrypts stored secrets (channel URLs, webhook secrets): 32 bytes as base64 or
     * 64 hex chars. Without it a key is generated once into `<dataDir>/secret.key`.
     */
    secretKey: z.string().min(32).max(256).optional(),
    ai: z
      .object({
        /** Per-million-token USD prices by model name prefix; merged over the shipped table. */
        prices: z.preprocess(parseJsonText, z.record(z.string().min(1), ModelPrice)).default({}),
      })
      .strict()
      .default({ prices: {} }),
  })
  .strict();
export type Config = z.infer<typeof Config>;

/** Each environment variable and the config path it sets. */
const ENV_VARS: Record<string, readonly string[]> = {
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
  VIGIL_AI_PRICES: ["ai", "prices"],
  VIGIL_MONITORS_ENABLED: ["monitors", "enabled"],
  VIGIL_MONITORS_CONCURRENCY: ["monitors", "concurrency"],
  VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: ["monitors", "allowPrivateTargets"],
  VIGIL_MONITORS_MAX_RESPONSE_BYTES: ["monitors", "maxResponseBytes"],
  VIGIL_MONITORS_STORED_BODY_BYTES: ["monitors", "storedBodyBytes"],
  VIGIL_MONITORS_RESULT_RETENTION_DAYS: ["monitors", "resultRetentionDays"],
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
/** The OTLP/gRPC port used when grpc.port is unset. */
export const DEFAULT_GRPC_PORT = 4317;

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
const CONFIG_FILE_VAR = "VIGIL_CONFIG";

/** Configuration that cannot be used; the message names every offending field. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** A PEM file a setting names (extra CA certificates), read once at start; undefined when unset. */
export function readPemSetting(variable: string, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError([`${variable}: cannot read ${path} (${(error as Error).message})`]);
  }
}

type Raw = Record<string, unknown>;

function setPath(target: Raw, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const child = node[key];
    if (typeof child !== "object" || child === null || Array.isArray(child)) node[key] = {};
    node = node[key] as Raw;
  }
  const last = path.at(-1);
  if (last !== undefined) node[last] = value;
}

function readConfigFile(path: string): Raw {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError([
      `${CONFIG_FILE_VAR}: cannot read ${path} (${(error as Error).message})`,
    ]);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error("not an object");
    return parsed as Raw;
  } catch {
    // JSON.parse messages quote the file's text, which may hold secrets: say only what is wrong.
    throw new ConfigError([`config file ${path}: must hold one valid JSON object`]);
  }
}

function closestEnvVar(name: string): string | undefined {
  return closestName(name, [...Object.keys(ENV_VARS), CONFIG_FILE_VAR]);
}

export interface ConfigSources {
  env: Readonly<Record<string, string | undefined>>;
  /** A config file path given on the command line; wins over VIGIL_CONFIG. */
  configFile?: string | undefined;
  /** Values from command-line flags; they win over env and file. */
  overrides?: Readonly<{
    dataDir?: string | undefined;
    host?: string | undefined;
    port?: number | undefined;
    grpcPort?: number | undefined;
    role?: string | undefined;
    /** `--dev`: turns on each of DEV_SETTINGS. */
    dev?: boolean | undefined;
  }>;
}

/** Settings that are each valid alone but not together. */
function crossFieldProblems(
  config: Config,
  describe: (path: readonly PropertyKey[]) => string,
): string[] {
  const { http, ingest, tql } = config;
  const problems: string[] = [];
  if (http.headersTimeoutSeconds > http.requestTimeoutSeconds)
    problems.push(
      `${describe(["http", "headersTimeoutSeconds"])}: must not exceed ${describe(["http", "requestTimeoutSeconds"])} (${http.requestTimeoutSeconds})`,
    );
  // A per-address cap at the global one lets a few addresses hold every connection.
  if (
    http.maxConnections > 0 &&
    http.maxConnectionsPerAddress > 0 &&
    http.maxConnectionsPerAddress >= http.maxConnections
  )
    problems.push(
      `${describe(["http", "maxConnectionsPerAddress"])}: must be below ${describe(["http", "maxConnections"])} (${http.maxConnections}), or be 0`,
    );
  if (http.adminPort !== undefined && http.adminPort !== 0 && http.adminPort === config.port)
    problems.push(`${describe(["http", "adminPort"])}: must differ from ${describe(["port"])}`);
  if (http.idleTimeoutSeconds > 0 && http.idleTimeoutSeconds <= tql.maxExecutionSeconds)
    problems.push(
      `${describe(["http", "idleTimeoutSeconds"])}: must exceed ${describe(["tql", "maxExecutionSeconds"])} (${tql.maxExecutionSeconds}), or be 0`,
    );
  if (ingest.maxInflightBytes < 2 * ingest.maxBodyBytes)
    problems.push(
      `${describe(["ingest", "maxInflightBytes"])}: must be at least twice ${describe(["ingest", "maxBodyBytes"])} (${2 * ingest.maxBodyBytes})`,
    );
  problems.push(...telemetryProblems(config.telemetry, describe));
  if (config.role !== "all") {
    // Split roles share their work through the stores: per-process ones would divide nothing.
    const meta = config.meta.url?.startsWith("postgres") === true;
    const missing = [
      ...(meta ? [] : [`${describe(["meta", "url"])} (PostgreSQL)`]),
      ...(config.telemetry.url ? [] : [`${describe(["telemetry", "url"])} (a ClickHouse server)`]),
    ];
    if (missing.length > 0)
      problems.push(
        `${describe(["role"])}: ${config.role} nodes share metadata and telemetry with the other nodes: set ${missing.join(" and ")}, or run one process with role all`,
      );
  }
  return problems;
}

/**
 * `--dev` turns the SSRF guard off, which is safe only when nobody else can reach the server:
 * the addresses it listens on (HTTP, and OTLP/gRPC's own host when set) must be loopback.
 */
function devModeProblems(
  config: Config,
  describe: (path: readonly PropertyKey[]) => string,
): string[] {
  const hosts: [readonly string[], string | undefined][] = [
    [["host"], config.host],
    [["grpc", "host"], config.grpc.enabled ? config.grpc.host : undefined],
  ];
  return hosts.flatMap(([path, host]) =>
    host === undefined || isLoopbackHost(host)
      ? []
      : [
          `${describe(path)}: --dev (local development, SSRF guard off) listens on a loopback address only: 127.0.0.1, ::1 or localhost (it is ${host}); start without --dev on an address others can reach`,
        ],
  );
}

/** Settings of the ClickHouse server adapter that mean nothing without its URL, or with http://. */
function telemetryProblems(
  telemetry: Config["telemetry"],
  describe: (path: readonly PropertyKey[]) => string,
): string[] {
  const name = (field: string) => describe(["telemetry", field]);
  const url = name("url");
  const problems: string[] = [];
  if (telemetry.url === undefined) {
    for (const field of ["cluster", "password", "caFile"] as const)
      if (telemetry[field] !== undefined)
        problems.push(
          `${name(field)}: applies to a ClickHouse server only; set ${url} too, or leave it unset for the embedded engine`,
        );
  } else if (telemetry.caFile !== undefined && !telemetry.url.startsWith("https:"))
    problems.push(`${name("caFile")}: needs an https:// ${url} (it is ${telemetry.url})`);
  return problems;
}

/** Where each command-line override goes in the config, and the flag that set it. */
const OVERRIDES: Record<string, { path: readonly string[]; flag: string }> = {
  dataDir: { path: ["dataDir"], flag: "--data-dir" },
  host: { path: ["host"], flag: "--host" },
  port: { path: ["port"], flag: "--port" },
  grpcPort: { path: ["grpc", "port"], flag: "--grpc-port" },
  role: { path: ["role"], flag: "--role" },
};

/**
 * Builds the configuration: file, then VIGIL_* env vars, then command-line flags.
 * Throws ConfigError naming each bad field by where it came from (env var or file path).
 */
export function loadConfig(sources: ConfigSources): Config {
  const filePath = sources.configFile ?? sources.env[CONFIG_FILE_VAR];
  const raw: Raw = filePath ? readConfigFile(resolve(filePath)) : {};
  const origin = new Map<string, string>();
  // Names a field the way the user set it (or would): env var, flag, or field of the file.
  const describe = (path: readonly PropertyKey[]) => {
    const key = path.join(".");
    const envVar = Object.entries(ENV_VARS).find(([, p]) => p.join(".") === key)?.[0];
    return (
      origin.get(key) ?? (filePath ? `${key} (in ${filePath})` : (envVar ?? (key || "config")))
    );
  };

  const problems: string[] = [];
  for (const [name, value] of Object.entries(sources.env)) {
    if (!name.startsWith("VIGIL_") || name === CONFIG_FILE_VAR || value === undefined) continue;
    const path = ENV_VARS[name];
    if (!path) {
      const hint = closestEnvVar(name);
      problems.push(`${name}: not a Vigil setting${hint ? ` (did you mean ${hint}?)` : ""}`);
      continue;
    }
    setPath(raw, path, value);
    origin.set(path.join("."), name);
  }
  const { dev, ...overrides } = sources.overrides ?? {};
  if (dev)
    for (const setting of DEV_SETTINGS) {
      setPath(raw, setting.path, true);
      origin.set(setting.path.join("."), "--dev");
    }
  for (const [key, value] of Object.entries(overrides)) {
    const override = OVERRIDES[key];
    if (value === undefined || !override) continue;
    setPath(raw, override.path, value);
    origin.set(override.path.join("."), override.flag);
  }

  const parsed = Config.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys)
          problems.push(`${describe([...issue.path, key])}: unknown setting`);
      } else {
        problems.push(`${describe(issue.path)}: ${issue.message}`);
      }
    }
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const config = parsed.data;
  if (Boolean(config.auth.adminEmail) !== Boolean(config.auth.adminPassword)) {
    const fields = `${describe(["auth", "adminEmail"])} and ${describe(["auth", "adminPassword"])}`;
    throw new ConfigError([`${fields}: set both to create the first admin, or neither`]);
  }
  const crossField = [
    ...crossFieldProblems(config, describe),
    ...(dev ? devModeProblems(config, describe) : []),
  ];
  if (crossField.length > 0) throw new ConfigError(crossField);
  return { ...config, dataDir: resolve(config.dataDir) };
}
