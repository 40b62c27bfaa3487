import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.js";
import { createTelemetryExecutor, TELEMETRY_ADAPTERS, telemetryEngineOf } from "./adapters.js";

describe("telemetry adapters", () => {
  it("picks the embedded engine by default and a ClickHouse server when the config names one", () => {
    expect(telemetryEngineOf(loadConfig({ env: {} }))).toBe("chdb");
    const server = loadConfig({ env: { VIGIL_TELEMETRY_URL: "http://127.0.0.1:8123" } });
    expect(telemetryEngineOf(server)).toBe("clickhouse");
    expect(Object.keys(TELEMETRY_ADAPTERS).sort()).toEqual(["chdb", "clickhouse"]);
  });

  it("builds the server's executor under its registry name, without connecting", async () => {
    const config = loadConfig({
      env: { VIGIL_TELEMETRY_URL: "http://127.0.0.1:8123", VIGIL_TELEMETRY_DATABASE: "tel" },
    });
    const executor = await createTelemetryExecutor(config);
    expect(executor.engine).toBe("clickhouse");
    expect(executor.database).toBe("tel");
    expect(executor.stats?.()).toEqual({
      sessions: 16,
      busySessions: 0,
      writeWaitMs: 0,
      running: [],
    });
    await executor.close();
  });

  it("names the CA file it cannot read", async () => {
    const config = loadConfig({
      env: {
        VIGIL_TELEMETRY_URL: "https://127.0.0.1:8443",
        VIGIL_TELEMETRY_CA_FILE: "/nonexistent/ca.pem",
      },
    });
    await expect(createTelemetryExecutor(config)).rejects.toThrow(
      /VIGIL_TELEMETRY_CA_FILE: cannot read/,
    );
  });
});
