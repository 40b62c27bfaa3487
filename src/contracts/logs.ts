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

export const LogVolume = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().describe("Width of each bucket, in seconds"),
    total: z.number().int().describe("Records matching every filter in the window"),
    byLevel: LevelCounts,
    series: z
      .array(LevelCounts.extend({ time: z.string(), total: z.number().int() }))
      .describe("Counts per level in each bucket, every bucket of the window present"),
  })
  .meta({ id: "LogVolume" });
export type LogVolume = z.infer<typeof LogVolume>;

export const LogFacet = z
  .object({
    field: z
      .string()
      .describe(
        "A filter field: `service_name`, `level`, `source`, `attributes.<key>` or `resource.<key>`",
      ),
    count: z.number().int().describe("Records (of those counted) that have the field"),
    distinct: z.number().int().describe("How many different values they have"),
    values: z
      .array(z.object({ value: z.string(), count: z.number().int() }))
      .describe("The most frequent values, most first"),
    sampled: z
      .boolean()
      .describe("Counted over the newest matching records (`sampleSize`), not over every one"),
  })
  .meta({ id: "LogFacet" });
export type LogFacet = z.infer<typeof LogFacet>;

export const LogFacets = z
  .object({
    from: z.string(),
    to: z.string(),
    total: z.number().int().describe("Records matching every filter in the window"),
    facets: z
      .array(LogFacet)
      .describe("service_name, level and source, then the most frequent attribute keys"),
    sampled: z.boolean().describe("Whether some facets were counted over a sample"),
    sampleSize: z
      .number()
      .int()
      .describe("How many of the newest matching records the attribute facets were counted over"),
    keySource: z
      .enum(["catalog", "sample"])
      .describe("Where the attribute keys came from: the attribute catalog, or the sample"),
  })
  .meta({ id: "LogFacets" });
export type LogFacets = z.infer<typeof LogFacets>;

export const LogContext = z
  .object({
    logId: z.string(),
    service: z.string(),
    instance: z
      .object({
        field: z.string().describe("`resource.service.instance.id` or `resource.host.name`"),
        value: z.string(),
      })
      .nullable()
      .describe("What the records share besides the service; null when the record names neither"),
    data: z
      .array(LogSummary.extend({ current: z.boolean().describe("The record asked about") }))
      .describe("The records before, the record itself, the records after, oldest first"),
    hasBefore: z.boolean().describe("There are older records of the same service and instance"),
    hasAfter: z.boolean().describe("There are newer records of the same service and instance"),
  })
  .meta({ id: "LogContext" });
export type LogContext = z.infer<typeof LogContext>;

const SEARCH_TERM = /"([^"]*)"|(\S+)/g;

/**
 * The terms of a logs search box: words, and "quoted phrases" kept whole (as the read API's
 * search splits them), for highlighting them in messages.
 */
export function logSearchTerms(search: string): string[] {
  return [...search.matchAll(SEARCH_TERM)]
    .map((m) => (m[1] ?? m[2] ?? "").trim())
    .filter((t) => t.length > 0);
}
