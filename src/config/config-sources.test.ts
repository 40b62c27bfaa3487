import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { problemsOf } from "../../test/helpers/config-problems.js";
import { DEV_SETTINGS } from "./environment.js";
import { loadConfig } from "./load-config.js";

describe("loadConfig: sources (env, flags, file, --dev) and what they name", () => {
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
});
