import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { problemsOf } from "../../test/helpers/config-problems.js";
import { DEFAULT_GRPC_PORT, DEFAULT_TELEMETRY_SESSIONS } from "./config-fields.js";
import { loadConfig } from "./load-config.js";

describe("loadConfig: defaults and settings", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({ env: {} });
    expect(config).toMatchObject({
      dataDir: resolve("./data"),
      host: "127.0.0.1",
      port: 4318,
      telemetry: { database: "vigil", retentionDays: 30 },
      rateLimit: { perMinute: 100 },
      auth: { sessionTtlHours: 168 },
    });
    expect(config.meta.url).toBeUndefined();
  });

  it("reads the sign-in limits and the password-hash bound", () => {
    expect(loadConfig({ env: {} }).auth).toEqual({
      sessionTtlHours: 168,
      loginFailuresPerAddress: 20,
      loginAddressWindowMinutes: 5,
      loginFailuresPerAccount: 10,
      loginAccountWindowMinutes: 15,
      knownAddressDays: 30,
      maxConcurrentHashes: 2,
      maxQueuedHashes: 32,
    });
    const set = loadConfig({
      env: {
        VIGIL_AUTH_LOGIN_FAILURES_PER_ADDRESS: "50",
        VIGIL_AUTH_LOGIN_ADDRESS_WINDOW_MINUTES: "10",
        VIGIL_AUTH_LOGIN_FAILURES_PER_ACCOUNT: "5",
        VIGIL_AUTH_LOGIN_ACCOUNT_WINDOW_MINUTES: "60",
        VIGIL_AUTH_KNOWN_ADDRESS_DAYS: "7",
        VIGIL_AUTH_MAX_CONCURRENT_HASHES: "1",
        VIGIL_AUTH_MAX_QUEUED_HASHES: "0",
      },
    });
    expect(set.auth).toMatchObject({
      loginFailuresPerAddress: 50,
      loginAddressWindowMinutes: 10,
      loginFailuresPerAccount: 5,
      loginAccountWindowMinutes: 60,
      knownAddressDays: 7,
      maxConcurrentHashes: 1,
      maxQueuedHashes: 0,
    });
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_AUTH_MAX_CONCURRENT_HASHES: "0" } }))[0],
    ).toMatch(/VIGIL_AUTH_MAX_CONCURRENT_HASHES/);
  });

  it("reads the heartbeat ping limits", () => {
    expect(loadConfig({ env: {} }).monitors).toMatchObject({
      heartbeatPingsPerMinute: 60,
      heartbeatPingsPerMinutePerAddress: 6000,
    });
    const set = loadConfig({
      env: {
        VIGIL_HEARTBEAT_PINGS_PER_MINUTE: "5",
        VIGIL_HEARTBEAT_PINGS_PER_MINUTE_PER_ADDRESS: "100000",
      },
    });
    expect(set.monitors).toMatchObject({
      heartbeatPingsPerMinute: 5,
      heartbeatPingsPerMinutePerAddress: 100_000,
    });
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_HEARTBEAT_PINGS_PER_MINUTE: "0" } }))[0],
    ).toMatch(/VIGIL_HEARTBEAT_PINGS_PER_MINUTE/);
  });

  it("reads the alert evaluation settings", () => {
    expect(loadConfig({ env: {} }).alerts).toEqual({
      enabled: true,
      concurrency: 4,
      maxRulesPerProject: 500,
    });
    const set = loadConfig({
      env: {
        VIGIL_ALERTS_ENABLED: "false",
        VIGIL_ALERTS_CONCURRENCY: "16",
        VIGIL_ALERTS_MAX_RULES_PER_PROJECT: "50",
      },
    });
    expect(set.alerts).toEqual({ enabled: false, concurrency: 16, maxRulesPerProject: 50 });
    expect(problemsOf(() => loadConfig({ env: { VIGIL_ALERTS_CONCURRENCY: "0" } }))[0]).toMatch(
      /VIGIL_ALERTS_CONCURRENCY/,
    );
  });

  it("sizes the telemetry engine and the TQL per-project limit", () => {
    const defaults = loadConfig({ env: {} });
    expect(defaults.telemetry).toMatchObject({
      sessions: DEFAULT_TELEMETRY_SESSIONS,
      maxWriteWaitMs: 5000,
      maxPendingReads: 128,
      maxReadWaitMs: 1000,
    });
    // 4 TQL sessions at least: an organization at its limit (3) leaves one to another.
    expect(DEFAULT_TELEMETRY_SESSIONS).toBeGreaterThanOrEqual(7);
    expect(defaults.tql.maxConcurrentPerProject).toBe(2);
    expect(defaults.tql.maxConcurrentPerOrganization).toBe(3);
    const set = loadConfig({
      env: {
        VIGIL_TELEMETRY_SESSIONS: "1",
        VIGIL_TELEMETRY_MAX_WRITE_WAIT_MS: "2500",
        VIGIL_TELEMETRY_MAX_PENDING_READS: "16",
        VIGIL_TELEMETRY_MAX_READ_WAIT_MS: "250",
        VIGIL_TQL_MAX_CONCURRENT_PER_PROJECT: "5",
        VIGIL_TQL_MAX_CONCURRENT_PER_ORGANIZATION: "8",
      },
    });
    expect(set.telemetry).toMatchObject({
      sessions: 1,
      maxWriteWaitMs: 2500,
      maxPendingReads: 16,
      maxReadWaitMs: 250,
    });
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_TELEMETRY_MAX_PENDING_READS: "0" } }))[0],
    ).toMatch(/^VIGIL_TELEMETRY_MAX_PENDING_READS: must be a whole number from 1 to 100000/);
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_TELEMETRY_MAX_READ_WAIT_MS: "1.5" } }))[0],
    ).toMatch(/^VIGIL_TELEMETRY_MAX_READ_WAIT_MS: must be a whole number from 1 to 600000/);
    expect(set.tql.maxConcurrentPerProject).toBe(5);
    expect(set.tql.maxConcurrentPerOrganization).toBe(8);
    expect(problemsOf(() => loadConfig({ env: { VIGIL_TELEMETRY_SESSIONS: "0" } }))[0]).toMatch(
      /^VIGIL_TELEMETRY_SESSIONS: must be a whole number from 1 to 256/,
    );
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_TQL_MAX_CONCURRENT_PER_PROJECT: "0" } }))[0],
    ).toMatch(/^VIGIL_TQL_MAX_CONCURRENT_PER_PROJECT: /);
  });

  it("serves OTLP/gRPC on 4317 of the HTTP host by default; env and --grpc-port set it", () => {
    // Unset means the default port, which may be busy (a warning); a chosen one must bind.
    expect(loadConfig({ env: {} }).grpc).toEqual({ enabled: true });
    expect(DEFAULT_GRPC_PORT).toBe(4317);
    expect(loadConfig({ env: { VIGIL_GRPC_PORT: "4317" } }).grpc).toEqual({
      enabled: true,
      port: 4317,
    });
    const config = loadConfig({
      env: { VIGIL_GRPC_ENABLED: "false", VIGIL_GRPC_HOST: "0.0.0.0", VIGIL_GRPC_PORT: "5317" },
      overrides: { grpcPort: 0 },
    });
    expect(config.grpc).toEqual({ enabled: false, host: "0.0.0.0", port: 0 });
    expect(problemsOf(() => loadConfig({ env: {}, overrides: { grpcPort: 70000 } }))).toEqual([
      "--grpc-port: must be a whole number from 0 to 65535",
    ]);
    expect(problemsOf(() => loadConfig({ env: { VIGIL_GRPC_PORT: "x" } }))[0]).toMatch(
      /^VIGIL_GRPC_PORT: /,
    );
  });

  it("has connection and in-flight defaults, and reads their variables", () => {
    expect(loadConfig({ env: {} })).toMatchObject({
      http: {
        requestTimeoutSeconds: 60,
        headersTimeoutSeconds: 10,
        keepAliveTimeoutSeconds: 72,
        idleTimeoutSeconds: 300,
        maxConnections: 10_000,
        maxConnectionsPerAddress: 64,
        bodyTimeoutSeconds: 10,
      },
      ingest: { maxInflightBytes: 256 * 1024 * 1024 },
    });
    const config = loadConfig({
      env: {
        VIGIL_HTTP_REQUEST_TIMEOUT_SECONDS: "20",
        VIGIL_HTTP_HEADERS_TIMEOUT_SECONDS: "5",
        VIGIL_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "65",
        VIGIL_HTTP_IDLE_TIMEOUT_SECONDS: "0",
        VIGIL_HTTP_MAX_CONNECTIONS: "0",
        VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0",
        VIGIL_HTTP_BODY_TIMEOUT_SECONDS: "4",
        VIGIL_ADMIN_PORT: "9464",
        VIGIL_ADMIN_HOST: "10.0.0.5",
        VIGIL_METRICS_TOKEN: "a-long-enough-metrics-token",
        VIGIL_INGEST_MAX_INFLIGHT_BYTES: String(64 * 1024 * 1024),
      },
    });
    expect(config.http).toEqual({
      requestTimeoutSeconds: 20,
      headersTimeoutSeconds: 5,
      keepAliveTimeoutSeconds: 65,
      idleTimeoutSeconds: 0,
      maxConnections: 0,
      maxConnectionsPerAddress: 0,
      bodyTimeoutSeconds: 4,
      adminPort: 9464,
      adminHost: "10.0.0.5",
      metricsToken: "a-long-enough-metrics-token",
    });
    expect(config.ingest.maxInflightBytes).toBe(64 * 1024 * 1024);
  });

  it("has the service map's pairing defaults, and reads their variables", () => {
    expect(loadConfig({ env: {} }).ingest).toMatchObject({
      serviceEdgeWaitSeconds: 10,
      serviceEdgeMaxPending: 50_000,
    });
    const config = loadConfig({
      env: {
        VIGIL_INGEST_SERVICE_EDGE_WAIT_SECONDS: "30",
        VIGIL_INGEST_SERVICE_EDGE_MAX_PENDING: "1000",
      },
    });
    expect(config.ingest).toMatchObject({
      serviceEdgeWaitSeconds: 30,
      serviceEdgeMaxPending: 1000,
    });
    expect(() => loadConfig({ env: { VIGIL_INGEST_SERVICE_EDGE_WAIT_SECONDS: "0" } })).toThrow(
      /VIGIL_INGEST_SERVICE_EDGE_WAIT_SECONDS/,
    );
  });
});
