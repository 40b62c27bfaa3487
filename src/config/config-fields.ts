import { availableParallelism } from "node:os";
import { z } from "zod";

// The field types and defaults the configuration schema (config-schema.ts) is built of.

/**
 * Which reverse proxies to believe about the client address and scheme: false (none), true
 * (every hop — only behind a proxy that overwrites X-Forwarded-For), a hop count, or a comma
 * list of addresses/CIDRs (`127.0.0.1,10.0.0.0/8`).
 */
export const trustProxy = z.preprocess(
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

export const integer = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

export const DEFAULT_INGEST = {
  maxBodyBytes: 32 * 1024 * 1024,
  maxAttributeLength: 8192,
  maxAttributes: 128,
  queueMaxRows: 250_000,
  perMinute: 12_000,
  maxInflightBytes: 256 * 1024 * 1024,
  writeIntervalMs: 250,
  serviceEdgeWaitSeconds: 10,
  serviceEdgeMaxPending: 50_000,
};

export const DEFAULT_HTTP = {
  requestTimeoutSeconds: 60,
  headersTimeoutSeconds: 10,
  keepAliveTimeoutSeconds: 72,
  idleTimeoutSeconds: 300,
  maxConnections: 10_000,
  maxConnectionsPerAddress: 64,
  bodyTimeoutSeconds: 10,
};

export const DEFAULT_TQL = {
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

export const DEFAULT_TELEMETRY = {
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
export const telemetryUrl = z
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

export const flag = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    const text = value.trim().toLowerCase();
    if (["true", "yes", "on", "1"].includes(text)) return true;
    if (["false", "no", "off", "0", ""].includes(text)) return false;
    return value;
  },
  z.boolean({ error: "must be true or false" }),
);

export const DEFAULT_MONITORS = {
  enabled: true,
  concurrency: 200,
  allowPrivateTargets: false,
  maxResponseBytes: 1024 * 1024,
  storedBodyBytes: 10 * 1024,
  resultRetentionDays: 90,
  heartbeatPingsPerMinute: 60,
  heartbeatPingsPerMinutePerAddress: 6000,
};

export const DEFAULT_ALERTS = {
  enabled: true,
  concurrency: 4,
  maxRulesPerProject: 500,
};

export const DEFAULT_WEBHOOKS = {
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
export function parseJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The OTLP/gRPC port used when grpc.port is unset. */
export const DEFAULT_GRPC_PORT = 4317;
