// The read API's error-group views (GET /v1/errors…) and the triage input (PATCH
// /api/projects/:id/errors/:errorId), shared with the dashboard (docs/read-api.md).
import { z } from "zod";
import { countsOf } from "./counts.js";
import { SOURCES } from "./telemetry-sources.js";

export const ERROR_SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type ErrorSeverity = (typeof ERROR_SEVERITIES)[number];

export const ERROR_STATUSES = ["active", "resolved"] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

export const ERROR_SORTS = ["last_seen", "first_seen", "occurrences", "severity"] as const;
export type ErrorSort = (typeof ERROR_SORTS)[number];

/** Sample traces an error detail lists. */
export const SAMPLE_TRACES = 10;

export const ErrorSummary = z
  .object({
    id: z.string().describe("The group's fingerprint"),
    type: z.string(),
    message: z.string().describe("Message of the latest occurrence"),
    culprit: z.string().describe("Top in-app frame"),
    status: z.enum(ERROR_STATUSES),
    severity: z.enum(ERROR_SEVERITIES),
    occurrences: z.number().int(),
    firstSeen: z.string(),
    lastSeen: z.string(),
    resolvedAt: z.string().nullable(),
    services: z.array(z.string()),
    source: z.enum(SOURCES),
    sampleTraceId: z.string().nullable(),
  })
  .meta({ id: "ErrorSummary" });
export type ErrorSummary = z.infer<typeof ErrorSummary>;

export const ErrorDetail = ErrorSummary.extend({
  stacktrace: z.string(),
  stack: z
    .array(
      z.object({
        text: z.string(),
        frame: z
          .object({ file: z.string(), function: z.string(), inApp: z.boolean() })
          .nullable()
          .describe("Set on a frame line: the file and function the grouping reads from it"),
      }),
    )
    .describe(
      "The stack trace line by line; frame lines say whether they are the application's own code (in-app), as the fingerprint decides",
    ),
  window: z.object({ from: z.string(), to: z.string(), bucketSeconds: z.number().int() }),
  occurrencesInWindow: z.number().int(),
  occurrencesOverTime: z
    .array(z.object({ time: z.string(), count: z.number().int() }))
    .describe("Occurrences per bucket over the window (default: the last 30 days)"),
  affectedServices: z
    .array(z.object({ service: z.string(), occurrences: z.number().int(), lastSeen: z.string() }))
    .describe("Every service the error occurred in, with its occurrences over all time"),
  sampleTraces: z
    .array(
      z.object({
        traceId: z.string(),
        spanId: z.string().nullable(),
        service: z.string(),
        time: z.string(),
        message: z.string(),
        logId: z
          .string()
          .nullable()
          .describe(
            "The error log of this occurrence (`/v1/logs/{logId}`) when a log recorded it, beside or instead of the span's exception event",
          ),
      }),
    )
    .describe(`The ${SAMPLE_TRACES} latest occurrences that carry a trace, newest first`),
}).meta({ id: "ErrorDetail" });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

const SeverityCounts = countsOf(ERROR_SEVERITIES);

export const ErrorsDashboard = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    occurrences: z.number().int().describe("Occurrences in the window"),
    groupsSeen: z.number().int().describe("Groups with an occurrence in the window"),
    newGroups: z.number().int().describe("Groups first seen in the window"),
    active: z.number().int().describe("Groups currently active (all time)"),
    resolved: z.number().int().describe("Groups currently resolved (all time)"),
    activeBySeverity: SeverityCounts,
    series: z
      .array(z.object({ time: z.string(), occurrences: z.number().int() }))
      .describe("Occurrences per bucket, every bucket present"),
    byService: z.array(z.object({ service: z.string(), occurrences: z.number().int() })),
    topErrors: z
      .array(ErrorSummary.extend({ occurrencesInWindow: z.number().int() }))
      .describe("The groups with the most occurrences in the window"),
  })
  .meta({ id: "ErrorsDashboard" });
export type ErrorsDashboard = z.infer<typeof ErrorsDashboard>;

export const UpdateErrorInput = z
  .object({
    status: z.enum(ERROR_STATUSES).optional().describe("`resolved` to resolve, `active` to reopen"),
    severity: z.enum(ERROR_SEVERITIES).optional(),
  })
  .strict()
  .meta({ id: "UpdateErrorInput", example: { status: "resolved" } });
export type UpdateErrorInput = z.infer<typeof UpdateErrorInput>;

export const ErrorTrends = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    buckets: z.array(z.string()).describe("Start of each bucket, ISO 8601 UTC"),
    trends: z
      .array(
        z.object({
          errorId: z.string(),
          total: z.number().int().describe("Occurrences in the window"),
          counts: z.array(z.number().int()).describe("Occurrences per bucket, as `buckets`"),
        }),
      )
      .describe("One entry per group asked for, in the order asked, zero-filled"),
  })
  .meta({ id: "ErrorTrends" });
export type ErrorTrends = z.infer<typeof ErrorTrends>;
