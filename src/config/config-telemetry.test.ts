import { describe, expect, it } from "vitest";
import { problemsOf } from "../../test/helpers/config-problems.js";
import { loadConfig } from "./load-config.js";

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
