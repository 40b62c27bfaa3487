import { mapMetrics } from "../../src/ingest/map-metrics.js";
import type { MetricsRequest } from "../../src/ingest/otlp/otlp-messages.js";
import { createChdbExecutor } from "../../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../../src/telemetry/schema.js";
import { UnixTime } from "../../src/telemetry/unix-time.js";
import { createTqlService, type TqlService } from "../../src/tql/tql-service.js";
import { makeTempDir } from "./temp-dir.js";

/*
 * Metric points for the metrics explorer's engine tests: OTLP JSON built from times written as
 * "10:01:30" on one day, mapped by the ingest mapping (src/ingest/map-metrics.ts) and inserted
 * into chDB, then read through the real TQL service.
 */

export const DAY = "2026-03-01";
/** OTLP nanoseconds of a time of DAY ("10:01:30"). */
export const ns = (time: string) => String(BigInt(Date.parse(`${DAY}T${time}Z`)) * 1_000_000n);
/** A row's bucket as TQL answers it. */
export const bucket = (time: string) => `${DAY} ${time}`;

type Attrs = Record<string, string>;
export const kv = (values: Attrs) =>
  Object.entries(values).map(([key, value]) => ({ key, value: { stringValue: value } }));

/** A number point: [time, value, start time?, attributes?]. */
export type NumberPoint = [string, number, (string | undefined)?, Attrs?];
export const numberPoints = (points: readonly NumberPoint[]) =>
  points.map(([time, value, start, attributes]) => ({
    timeUnixNano: ns(time),
    ...(start ? { startTimeUnixNano: ns(start) } : {}),
    asDouble: value,
    attributes: kv(attributes ?? {}),
  }));

export const CUMULATIVE = 2;
export const DELTA = 1;

/** One resource's metrics (`host.name` and `service.name` on the resource). */
export const resource = (host: string, metrics: object[]) => ({
  resource: { attributes: kv({ "service.name": "app", "host.name": host }) },
  scopeMetrics: [{ scope: { name: "test" }, metrics }],
});

export const PROJECT = "prj_metric_queries";
export const OTHER_PROJECT = "prj_metric_queries_other";

/** A chDB store holding the requests' points (and another project's), and TQL over it. */
export async function metricStore(
  requests: { project?: string; resourceMetrics: object[] }[],
): Promise<{ tql: TqlService; close: () => Promise<void> }> {
  const dir = makeTempDir("vigil-metric-queries-");
  const executor: TelemetryExecutor = createChdbExecutor({ path: dir.path, database: "vigil" });
  await ensureTelemetrySchema(executor, { retentionDays: 3650 });
  for (const { project = PROJECT, resourceMetrics } of requests) {
    const mapped = mapMetrics({ resourceMetrics } as MetricsRequest, {
      projectId: project,
      limits: { maxValueLength: 4096, maxAttributes: 128 },
      received: new UnixTime(Math.floor(Date.parse(`${DAY}T12:00:00Z`) / 1000), 0),
    });
    if (mapped.rejected > 0) throw new Error(`rejected: ${mapped.reasons.join("; ")}`);
    await executor.insert("metrics", mapped.batch.metrics);
  }
  const tql = createTqlService({
    executor,
    limits: { maxExecutionSeconds: 30, maxMemoryBytes: 1024 ** 3, maxRowsToRead: 1e8 },
  });
  return {
    tql,
    close: async () => {
      await executor.close();
      dir.remove();
    },
  };
}

/** The window every chart query of these tests reads: 10:00 to 10:10, one-minute buckets. */
export const WINDOW = { from: `${DAY}T10:00:00Z`, to: `${DAY}T10:10:00Z`, bucket_seconds: 60 };
