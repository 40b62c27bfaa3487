import type { Logger } from "pino";
import type { Config } from "../config/config-schema.js";
import type { Metrics } from "../lib/metrics.js";
import { openMetaDatabase } from "../meta/database.js";
import { createMetaStore, type MetaStore } from "../meta/meta-store.js";
import { createTelemetryExecutor } from "../telemetry/adapters.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { instrumentExecutor } from "../telemetry/instrumented-executor.js";
import { ensureTelemetrySchema } from "../telemetry/schema.js";

/**
 * Opens and migrates the metadata store (SQLite under the data dir, or PostgreSQL). `onQuery`
 * sees every query's time besides the metrics (a benchmark counts them).
 */
export async function openMetaStore(
  config: Config,
  metrics?: Metrics,
  logger?: Logger,
  onQuery?: (seconds: number, failed: boolean) => void,
): Promise<MetaStore> {
  const observe =
    metrics &&
    ((seconds: number, failed: boolean) =>
      metrics.observeStore({ store: "meta", operation: "query", failed }, seconds));
  const database = openMetaDatabase({
    url: config.meta.url,
    dataDir: config.dataDir,
    onConnectionError: (error) =>
      logger?.warn({ err: error.message }, "metadata store connection lost; it will reconnect"),
    onQuery:
      onQuery && observe
        ? (seconds, failed) => {
            onQuery(seconds, failed);
            observe(seconds, failed);
          }
        : (onQuery ?? observe),
  });
  const store = createMetaStore(database);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** Opens the telemetry engine and makes sure the six tables exist with the configured retention. */
export async function openTelemetryStore(
  config: Config,
  metrics?: Metrics,
): Promise<TelemetryExecutor> {
  const raw = await createTelemetryExecutor(config);
  const executor = metrics
    ? instrumentExecutor(raw, (operation, seconds, failed) =>
        metrics.observeStore({ store: "telemetry", operation, failed }, seconds),
      )
    : raw;
  try {
    await ensureTelemetrySchema(executor, {
      retentionDays: config.telemetry.retentionDays,
      cluster: config.telemetry.cluster,
    });
  } catch (error) {
    await executor.close();
    throw error;
  }
  return executor;
}
