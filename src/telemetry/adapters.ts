import { join } from "node:path";
import type { Config } from "../config/config-schema.js";
import { readPemSetting } from "../config/load-config.js";
import type { TelemetryExecutor } from "./executor.js";

/**
 * Builds one engine's executor from the configuration. Each adapter loads its module when used:
 * an API node on a ClickHouse server never loads chDB's native engine (~160 MB of RSS).
 */
type TelemetryAdapter = (config: Config) => Promise<TelemetryExecutor>;

/**
 * The telemetry engines, by the name their executors report as `engine`. Adding one is one entry
 * here and one line in telemetryEngineOf; nothing else asks which engine runs.
 */
export const TELEMETRY_ADAPTERS = {
  /** ClickHouse embedded in this process, tables under the data directory. */
  chdb: async (config) => {
    const { createChdbExecutor } = await import("./chdb/chdb-executor.js");
    return createChdbExecutor({
      path: join(config.dataDir, "telemetry"),
      database: config.telemetry.database,
      sessions: config.telemetry.sessions,
    });
  },
  /** A ClickHouse server or cluster over HTTP. */
  clickhouse: async (config) => {
    const { telemetry, tql } = config;
    const { createClickHouseExecutor } = await import("./clickhouse/clickhouse-executor.js");
    return createClickHouseExecutor({
      url: telemetry.url ?? "",
      database: telemetry.database,
      user: telemetry.user,
      password: telemetry.password,
      ca: readPemSetting("VIGIL_TELEMETRY_CA_FILE", telemetry.caFile),
      maxConnections: telemetry.maxConnections,
      asyncInsert: telemetry.asyncInsert,
      cluster: telemetry.cluster,
      // A TQL query may run up to its limit, and ON CLUSTER DDL waits for every node (180 s).
      requestTimeoutMs: Math.max(300, tql.maxExecutionSeconds + 60) * 1000,
    });
  },
} satisfies Record<string, TelemetryAdapter>;

export type TelemetryEngineName = keyof typeof TELEMETRY_ADAPTERS;

/** The engine the configuration asks for: a ClickHouse server when it names one, else chDB. */
export function telemetryEngineOf(config: Config): TelemetryEngineName {
  return config.telemetry.url === undefined ? "chdb" : "clickhouse";
}

/** Opens the configured engine's executor (the schema is not touched). */
export function createTelemetryExecutor(config: Config): Promise<TelemetryExecutor> {
  return TELEMETRY_ADAPTERS[telemetryEngineOf(config)](config);
}
