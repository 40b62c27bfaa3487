import { describe, expect, it } from "vitest";
import { problemsOf } from "../../test/helpers/config-problems.js";
import { loadConfig } from "./load-config.js";

describe("loadConfig: settings that contradict each other", () => {
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
