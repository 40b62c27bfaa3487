// The read API's log views (GET /v1/logs…), shared with the dashboard (docs/read-api.md).
import { z } from "zod";
import { countsOf } from "./counts.js";
import { SOURCES } from "./telemetry-sources.js";

export const LOG_LEVELS = ["debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const LogSummary = z
  .object({
    id: z.string(),
    timestamp: z.string().describe("ISO 8601, UTC"),
    level: z.enum(LOG_LEVELS),
    severityText: z.string(),
    severityNumber: z.number().int(),
    service: z.string(),
    message: z.string(),
    source: z.enum(SOURCES),
    traceId: z.string().nullable(),
    spanId: z.string().nullable(),
    sessionId: z.string().nullable(),
    userId: z.string().nullable(),
  })
  .meta({ id: "LogSummary" });
export type LogSummary = z.infer<typeof LogSummary>;

export const LogDetail = LogSummary.extend({
  observedTimestamp: z.string(),
  traceFlags: z.number().int(),
  attributes: z.record(z.string(), z.string()),
  resource: z.record(z.string(), z.string()).describe("Resource attributes of the emitter"),
  scope: z.object({ name: z.string(), version: z.string() }),
  trace: z
    .object({ traceId: z.string(), spanId: z.string().nullable(), href: z.string() })
    .nullable()
    .describe("The trace this record was logged in, with the read API path of its tree"),
}).meta({ id: "LogDetail" });
export type LogDetail = z.infer<typeof LogDetail>;

const LevelCounts = countsOf(LOG_LEVELS);

export const LogsDashboard = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    total: z.number().int(),
    byLevel: LevelCounts,
    errorRate: z.number().describe("(error + fatal) / total, 0 when there are no records"),
    series: z
      .array(LevelCounts.extend({ time: z.string(), total: z.number().int() }))
      .describe("Counts per level in each bucket, every bucket present"),
    topServices: z.array(
      z.object({ service: z.string(), count: z.number().int(), errors: z.number().int() }),
    ),
    topMessages: z
      .array(
        z.object({
          pattern: z.string().describe("The message with numbers and ids replaced by <n>/<id>"),
          sample: z.string(),
          level: z.enum(LOG_LEVELS).describe("The most frequent level of the pattern"),
          count: z.number().int(),
          lastSeen: z.string(),
        }),
      )
      .describe("The most frequent message patterns"),
  })
  .meta({ id: "LogsDashboard" });
export type LogsDashboard = z.infer<typeof LogsDashboard>;
