import { z } from "zod";
import { Email, Password } from "../contracts/auth.js";
import {
  DEFAULT_ALERTS,
  DEFAULT_HTTP,
  DEFAULT_INGEST,
  DEFAULT_MONITORS,
  DEFAULT_TELEMETRY,
  DEFAULT_TQL,
  DEFAULT_WEBHOOKS,
  flag,
  integer,
  ModelPrice,
  parseJsonText,
  telemetryUrl,
  trustProxy,
} from "./config-fields.js";

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
        /**
         * How long a client span waits for the server span it caused (or the reverse) to find a
         * service map edge; a client span still alone then is a call to the peer it names
         * (docs/services.md).
         */
        serviceEdgeWaitSeconds: integer(1, 600).default(DEFAULT_INGEST.serviceEdgeWaitSeconds),
        /** Spans waiting for their other half at most; beyond, a span finds no edge (counted). */
        serviceEdgeMaxPending: integer(100, 10_000_000).default(
          DEFAULT_INGEST.serviceEdgeMaxPending,
        ),
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
        /** Pings one heartbeat token may send per minute (docs/heartbeats.md); beyond, 429. */
        heartbeatPingsPerMinute: integer(1, 1_000_000).default(
          DEFAULT_MONITORS.heartbeatPingsPerMinute,
        ),
        /** Pings (to any token, known or not) one client address may send per minute. */
        heartbeatPingsPerMinutePerAddress: integer(1, 10_000_000).default(
          DEFAULT_MONITORS.heartbeatPingsPerMinutePerAddress,
        ),
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
