// The read API's HTTP metrics view (GET /v1/http-metrics), shared with the dashboard
// (docs/read-api.md).
import { z } from "zod";

export const RESOLUTIONS = ["1m", "1h"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** 90 days of hours (or 36 hours of minutes): more points than any chart can show. */
export const MAX_HTTP_BUCKETS = 2160;

/** Routes in the breakdown, the busiest first. */
export const TOP_ROUTES = 20;

const Latency = {
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
};

export const HttpMetrics = z
  .object({
    from: z.string(),
    to: z.string(),
    resolution: z
      .enum(RESOLUTIONS)
      .describe("The bucket width used: the one asked for, unless it was too fine for the window"),
    requestedResolution: z
      .enum(RESOLUTIONS)
      .nullable()
      .describe("The `resolution` parameter as given, null when none was"),
    notice: z
      .string()
      .nullable()
      .describe(
        `Why \`resolution\` differs from the one asked for (more than ${MAX_HTTP_BUCKETS} buckets), else null`,
      ),
    bucketSeconds: z.number().int(),
    series: z
      .array(
        z.object({
          time: z.string().describe("Bucket start, ISO 8601 UTC"),
          count: z.number().int(),
          errors: z.number().int(),
          errorRate: z.number().describe("errors / count, 0 for an empty bucket"),
          ...Latency,
        }),
      )
      .describe("Every bucket of the window, empty ones with zero counts and null latencies"),
    totals: z.object({
      count: z.number().int(),
      errors: z.number().int(),
      errorRate: z.number(),
      avgMs: z.number().nullable(),
      minMs: z.number().nullable(),
      maxMs: z.number().nullable(),
      ...Latency,
      requestsPerMinute: z.number().describe("count / minutes in the window"),
    }),
    routes: z
      .array(
        z.object({
          method: z.string(),
          route: z.string(),
          service: z.string(),
          count: z.number().int(),
          errors: z.number().int(),
          errorRate: z.number(),
          avgMs: z.number(),
          ...Latency,
        }),
      )
      .describe(`The ${TOP_ROUTES} busiest (method, route, service), by count`),
    routeCount: z.number().int().describe("Distinct (method, route, service) in the window"),
    statusClasses: z
      .object({
        "2xx": z.number().int(),
        "3xx": z.number().int(),
        "4xx": z.number().int(),
        "5xx": z.number().int(),
        other: z.number().int().describe("1xx and requests without a status code"),
      })
      .describe("Request counts by status class"),
  })
  .meta({ id: "HttpMetrics" });
export type HttpMetrics = z.infer<typeof HttpMetrics>;
