import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  DEFAULT_GRPC_PORT,
  DEFAULT_TELEMETRY_SESSIONS,
  DEV_SETTINGS,
  loadConfig,
} from "./config.js";

const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error("expected a ConfigError");
};

describe("loadConfig", () => {
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

  it("reads VIGIL_* variables, with flags winning over them", () => {
    const config = loadConfig({
      env: {
        VIGIL_PORT: "9000",
        VIGIL_HOST: "0.0.0.0",
        VIGIL_RETENTION_DAYS: "7",
        VIGIL_TRUST_PROXY: "yes",
        PATH: "/bin",
      },
      overrides: { port: 9100 },
    });
    expect(config).toMatchObject({
      port: 9100,
      host: "0.0.0.0",
      trustProxy: true,
      telemetry: { retentionDays: 7 },
    });
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

  it("keeps the SSRF guard and https-only webhooks by default; --dev relaxes exactly those settings", () => {
    const strict = loadConfig({ env: {} });
    expect(strict.monitors.allowPrivateTargets).toBe(false);
    expect(strict.webhooks.allowPrivateTargets).toBe(false);
    expect(strict.webhooks.allowHttpLoopback).toBe(false);
    const dev = loadConfig({ env: {}, overrides: { dev: true } });
    expect(dev.monitors.allowPrivateTargets).toBe(true);
    expect(dev.webhooks.allowPrivateTargets).toBe(true);
    expect(dev.webhooks.allowHttpLoopback).toBe(true);
    // The same settings as the variables, not a mechanism of its own.
    expect(DEV_SETTINGS.map((s) => s.variable)).toEqual([
      "VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS",
      "VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS",
      "VIGIL_WEBHOOKS_ALLOW_HTTP_LOOPBACK",
    ]);
    const byEnv = loadConfig({ env: { VIGIL_WEBHOOKS_ALLOW_HTTP_LOOPBACK: "true" } });
    expect(byEnv.webhooks.allowHttpLoopback).toBe(true);
    expect(byEnv.webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig({ env: {}, overrides: { dev: false } }).monitors.allowPrivateTargets).toBe(
      false,
    );
  });

  it("refuses --dev unless the HTTP host, and a gRPC host that is set, are loopback", () => {
    // deploy/Dockerfile sets VIGIL_HOST=0.0.0.0: --dev there would open the SSRF guard to the network.
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_HOST: "0.0.0.0" }, overrides: { dev: true } })),
    ).toEqual([expect.stringMatching(/^VIGIL_HOST: --dev .*loopback.*\(it is 0\.0\.0\.0\)/)]);
    expect(
      problemsOf(() => loadConfig({ env: {}, overrides: { dev: true, host: "192.168.1.5" } }))[0],
    ).toMatch(/^--host: /);
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_GRPC_HOST: "::" }, overrides: { dev: true } })),
    ).toEqual([expect.stringMatching(/^VIGIL_GRPC_HOST: --dev .*loopback/)]);
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1"])
      expect(
        loadConfig({ env: { VIGIL_HOST: host, VIGIL_GRPC_HOST: host }, overrides: { dev: true } })
          .host,
      ).toBe(host);
    // Without --dev any address may be bound, and a gRPC host nothing listens on is not judged.
    expect(loadConfig({ env: { VIGIL_HOST: "0.0.0.0" } }).host).toBe("0.0.0.0");
    expect(
      loadConfig({
        env: { VIGIL_GRPC_ENABLED: "false", VIGIL_GRPC_HOST: "0.0.0.0" },
        overrides: { dev: true },
      }).grpc.host,
    ).toBe("0.0.0.0");
  });

  it("names the variable of an invalid value", () => {
    expect(problemsOf(() => loadConfig({ env: { VIGIL_PORT: "70000" } }))[0]).toMatch(
      /^VIGIL_PORT: /,
    );
    expect(problemsOf(() => loadConfig({ env: { VIGIL_LOG_LEVEL: "loud" } }))[0]).toMatch(
      /^VIGIL_LOG_LEVEL: /,
    );
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_TELEMETRY_DATABASE: "Bad-Name" } }))[0],
    ).toMatch(/^VIGIL_TELEMETRY_DATABASE: must be a lowercase identifier/);
  });

  it("rejects unknown VIGIL_ variables with a suggestion", () => {
    expect(problemsOf(() => loadConfig({ env: { VIGIL_PROT: "1" } }))).toEqual([
      "VIGIL_PROT: not a Vigil setting (did you mean VIGIL_PORT?)",
    ]);
  });

  it("reads a JSON file, env winning over it, and names bad file fields with the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "vigil-config-"));
    const file = join(dir, "vigil.json");
    writeFileSync(
      file,
      JSON.stringify({
        port: 5000,
        rateLimit: { perMinute: 10 },
        meta: { url: "postgres://db/vigil" },
      }),
    );
    const config = loadConfig({ env: { VIGIL_CONFIG: file, VIGIL_PORT: "5001" } });
    expect(config).toMatchObject({
      port: 5001,
      rateLimit: { perMinute: 10 },
      meta: { url: "postgres://db/vigil" },
    });

    writeFileSync(file, JSON.stringify({ rateLimit: { perMinute: -1 }, extra: true }));
    const problems = problemsOf(() => loadConfig({ env: {}, configFile: file }));
    expect(problems).toContain(`extra (in ${file}): unknown setting`);
    expect(problems.some((p) => p.startsWith(`rateLimit.perMinute (in ${file})`))).toBe(true);

    writeFileSync(file, "{ not json");
    expect(problemsOf(() => loadConfig({ env: {}, configFile: file }))[0]).toContain(
      `config file ${file}`,
    );
  });

  it("requires the admin email and password together", () => {
    expect(problemsOf(() => loadConfig({ env: { VIGIL_ADMIN_EMAIL: "a@b.co" } }))[0]).toContain(
      "VIGIL_ADMIN_PASSWORD",
    );
    expect(
      problemsOf(() =>
        loadConfig({ env: { VIGIL_ADMIN_EMAIL: "a@b.co", VIGIL_ADMIN_PASSWORD: "short" } }),
      )[0],
    ).toMatch(/^VIGIL_ADMIN_PASSWORD: must be at least 8/);
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

  it("refuses timeouts and budgets that contradict each other, naming both settings", () => {
    expect(
      problemsOf(() =>
        loadConfig({
          env: {
            VIGIL_HTTP_HEADERS_TIMEOUT_SECONDS: "30",
            VIGIL_HTTP_REQUEST_TIMEOUT_SECONDS: "20",
          },
        }),
      ),
    ).toEqual([
      "VIGIL_HTTP_HEADERS_TIMEOUT_SECONDS: must not exceed VIGIL_HTTP_REQUEST_TIMEOUT_SECONDS (20)",
    ]);
    expect(
      problemsOf(() =>
        loadConfig({
          env: { VIGIL_HTTP_IDLE_TIMEOUT_SECONDS: "30", VIGIL_TQL_MAX_EXECUTION_SECONDS: "30" },
        }),
      ),
    ).toEqual([
      "VIGIL_HTTP_IDLE_TIMEOUT_SECONDS: must exceed VIGIL_TQL_MAX_EXECUTION_SECONDS (30), or be 0",
    ]);
    expect(
      problemsOf(() =>
        loadConfig({ env: { VIGIL_INGEST_MAX_BODY_BYTES: String(200 * 1024 * 1024) } }),
      ),
    ).toEqual([
      `VIGIL_INGEST_MAX_INFLIGHT_BYTES: must be at least twice VIGIL_INGEST_MAX_BODY_BYTES (${400 * 1024 * 1024})`,
    ]);
  });

  it("keeps the per-address cap below the global one, so a few addresses cannot hold every connection", () => {
    const { http } = loadConfig({ env: {} });
    // The measured attack came from 40 addresses: together they hold under a third.
    expect(40 * http.maxConnectionsPerAddress).toBeLessThan(http.maxConnections / 3);
    for (const perAddress of ["500", "600"])
      expect(
        problemsOf(() =>
          loadConfig({
            env: {
              VIGIL_HTTP_MAX_CONNECTIONS: "500",
              VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: perAddress,
            },
          }),
        ),
      ).toEqual([
        "VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: must be below VIGIL_HTTP_MAX_CONNECTIONS (500), or be 0",
      ]);
    // No global cap, or no per-address one (behind a proxy): nothing to compare.
    expect(
      loadConfig({
        env: { VIGIL_HTTP_MAX_CONNECTIONS: "0", VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: "600" },
      }).http.maxConnectionsPerAddress,
    ).toBe(600);
    expect(
      loadConfig({
        env: { VIGIL_HTTP_MAX_CONNECTIONS: "500", VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0" },
      }).http.maxConnectionsPerAddress,
    ).toBe(0);
  });

  it("refuses an admin port equal to the main port, and a short metrics token, without echoing it", () => {
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_PORT: "9000", VIGIL_ADMIN_PORT: "9000" } })),
    ).toEqual(["VIGIL_ADMIN_PORT: must differ from VIGIL_PORT"]);
    // Both ephemeral (tests): each gets its own port.
    expect(loadConfig({ env: { VIGIL_PORT: "0", VIGIL_ADMIN_PORT: "0" } }).http.adminPort).toBe(0);
    const problems = problemsOf(() => loadConfig({ env: { VIGIL_METRICS_TOKEN: "short-secret" } }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^VIGIL_METRICS_TOKEN: /);
    expect(problems[0]).not.toContain("short-secret");
  });
});

describe("loadConfig: the telemetry server", () => {
  it("defaults to the embedded engine, with the server settings' defaults", () => {
    const { telemetry } = loadConfig({ env: {} });
    expect(telemetry.url).toBeUndefined();
    expect(telemetry).toMatchObject({ user: "default", asyncInsert: false, maxConnections: 16 });
    expect(telemetry.password).toBeUndefined();
    expect(telemetry.cluster).toBeUndefined();
  });

  it("reads the server's URL, credentials, cluster, CA file and insert settings", () => {
    const { telemetry } = loadConfig({
      env: {
        VIGIL_TELEMETRY_URL: "https://clickhouse.internal:8443",
        VIGIL_TELEMETRY_USER: "vigil",
        VIGIL_TELEMETRY_PASSWORD: "s3cret",
        VIGIL_TELEMETRY_CLUSTER: "vigil_cluster",
        VIGIL_TELEMETRY_CA_FILE: "/etc/vigil/ca.pem",
        VIGIL_TELEMETRY_ASYNC_INSERT: "true",
        VIGIL_TELEMETRY_MAX_CONNECTIONS: "32",
      },
    });
    expect(telemetry).toMatchObject({
      url: "https://clickhouse.internal:8443",
      user: "vigil",
      password: "s3cret",
      cluster: "vigil_cluster",
      caFile: "/etc/vigil/ca.pem",
      asyncInsert: true,
      maxConnections: 32,
    });
  });

  it("refuses URLs that are not a bare http(s) address, without echoing them", () => {
    const problem = (url: string) =>
      problemsOf(() => loadConfig({ env: { VIGIL_TELEMETRY_URL: url } }))[0] ?? "";
    expect(problem("clickhouse:8123")).toMatch(/^VIGIL_TELEMETRY_URL: must be an http/);
    expect(problem("ftp://host:21")).toMatch(/^VIGIL_TELEMETRY_URL: must be an http/);
    const withPassword = problem("http://vigil:hunter2@host:8123");
    expect(withPassword).toMatch(/must not hold credentials/);
    expect(withPassword).not.toContain("hunter2");
    expect(problem("http://host:8123/vigil")).toMatch(/without a path or query/);
    expect(problem("http://host:8123/?database=x")).toMatch(/without a path or query/);
    expect(
      problemsOf(() =>
        loadConfig({
          env: { VIGIL_TELEMETRY_URL: "http://host:8123", VIGIL_TELEMETRY_MAX_CONNECTIONS: "1" },
        }),
      )[0],
    ).toMatch(/^VIGIL_TELEMETRY_MAX_CONNECTIONS: must be a whole number from 2/);
  });

  it("refuses server settings without a server, naming both settings", () => {
    expect(problemsOf(() => loadConfig({ env: { VIGIL_TELEMETRY_CLUSTER: "c1" } }))).toEqual([
      "VIGIL_TELEMETRY_CLUSTER: applies to a ClickHouse server only; set VIGIL_TELEMETRY_URL too, or leave it unset for the embedded engine",
    ]);
    expect(
      problemsOf(() =>
        loadConfig({ env: { VIGIL_TELEMETRY_PASSWORD: "x", VIGIL_TELEMETRY_CA_FILE: "/ca.pem" } }),
      ),
    ).toEqual([
      "VIGIL_TELEMETRY_PASSWORD: applies to a ClickHouse server only; set VIGIL_TELEMETRY_URL too, or leave it unset for the embedded engine",
      "VIGIL_TELEMETRY_CA_FILE: applies to a ClickHouse server only; set VIGIL_TELEMETRY_URL too, or leave it unset for the embedded engine",
    ]);
    expect(
      problemsOf(() =>
        loadConfig({
          env: { VIGIL_TELEMETRY_URL: "http://host:8123", VIGIL_TELEMETRY_CA_FILE: "/ca.pem" },
        }),
      ),
    ).toEqual([
      "VIGIL_TELEMETRY_CA_FILE: needs an https:// VIGIL_TELEMETRY_URL (it is http://host:8123)",
    ]);
    expect(
      problemsOf(() => loadConfig({ env: { VIGIL_TELEMETRY_CLUSTER: "bad name; DROP" } }))[0],
    ).toMatch(/^VIGIL_TELEMETRY_CLUSTER: must be a cluster name/);
  });

  it("takes --role and VIGIL_ROLE; split roles need the shared stores", () => {
    const shared = {
      VIGIL_META_URL: "postgres://vigil@db/vigil",
      VIGIL_TELEMETRY_URL: "http://clickhouse:8123",
    };
    expect(loadConfig({ env: {} }).role).toBe("all");
    expect(loadConfig({ env: { ...shared, VIGIL_ROLE: "api" } }).role).toBe("api");
    expect(loadConfig({ env: shared, overrides: { role: "worker" } }).role).toBe("worker");
    expect(loadConfig({ env: { VIGIL_LEASE_SECONDS: "6" } }).leaseSeconds).toBe(6);
    expect(problemsOf(() => loadConfig({ env: { VIGIL_ROLE: "web" } }))[0]).toBe(
      "VIGIL_ROLE: must be all, api or worker",
    );
    expect(problemsOf(() => loadConfig({ env: { VIGIL_ROLE: "api" } }))[0]).toMatch(
      /^VIGIL_ROLE: api nodes share .*VIGIL_META_URL .*PostgreSQL.* and VIGIL_TELEMETRY_URL .*ClickHouse server/,
    );
    expect(
      problemsOf(() =>
        loadConfig({
          env: { VIGIL_TELEMETRY_URL: "http://c:8123" },
          overrides: { role: "worker" },
        }),
      )[0],
    ).toMatch(/^--role: worker nodes .* set VIGIL_META_URL/);
  });
});
