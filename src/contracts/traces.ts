// The read API's trace views (GET /v1/traces…), shared with the dashboard (docs/read-api.md).
import { z } from "zod";

/** Spans read for one trace at most; a larger trace is cut to its earliest spans and flagged. */
export const MAX_TRACE_SPANS = 50_000;

export const TRACE_SORTS = ["start_time", "duration", "span_count", "error_count"] as const;
export type TraceSort = (typeof TRACE_SORTS)[number];

export const TraceSummary = z
  .object({
    traceId: z.string(),
    rootService: z.string(),
    rootOperation: z.string(),
    startTime: z.string().describe("Start of the earliest span, ISO 8601 UTC"),
    durationMs: z.number().describe("From the earliest span start to the latest span end"),
    spanCount: z.number().int(),
    errorCount: z.number().int().describe("Spans with status error"),
    status: z.enum(["ok", "error"]),
    services: z.array(z.string()),
    hasRoot: z.boolean().describe("False while the root span has not arrived"),
  })
  .meta({ id: "TraceSummary" });
export type TraceSummary = z.infer<typeof TraceSummary>;

export const TraceErrorGroup = z
  .object({
    errorId: z.string().describe("The error group (`/v1/errors/{errorId}`)"),
    spanId: z
      .string()
      .nullable()
      .describe("The span it occurred in; null for an error log of the trace without a span"),
    type: z.string().describe("The group's exception type"),
    message: z.string().describe("Message of this trace's latest occurrence"),
    occurrences: z
      .number()
      .int()
      .describe(
        "Occurrences of the group in this span: an exception event and a log of the same message are one",
      ),
  })
  .meta({ id: "TraceErrorGroup" });
export type TraceErrorGroup = z.infer<typeof TraceErrorGroup>;

export const Attributes = z.record(z.string(), z.string());
export type Attributes = z.infer<typeof Attributes>;

const Indexes = (what: string) => z.array(z.number().int()).describe(what);

/** What a whole trace shows besides its summary: its end, orphans, cut and spans per service. */
export const TraceFields = TraceSummary.extend({
  endTime: z.string(),
  orphanCount: z.number().int(),
  truncated: z
    .boolean()
    .describe(
      `True when the trace has more than ${MAX_TRACE_SPANS} spans and only the earliest are shown`,
    ),
  serviceBreakdown: z.array(
    z.object({ service: z.string(), spanCount: z.number().int(), errorCount: z.number().int() }),
  ),
});

/**
 * What every span shows, in the tree of GET /v1/traces/{traceId} (where `resource` is an index
 * into the trace's resources) and alone from GET /v1/traces/{traceId}/spans/{spanId}.
 */
export const SpanFields = z.object({
  spanId: z.string(),
  parentSpanId: z.string().nullable(),
  name: z.string(),
  service: z.string(),
  kind: z.string(),
  startTime: z.string(),
  startOffsetMs: z.number().describe("Milliseconds after the trace's start"),
  durationMs: z.number(),
  status: z.string(),
  statusMessage: z.string(),
  http: z
    .object({
      method: z.string(),
      route: z.string(),
      target: z.string(),
      statusCode: z.number().int(),
    })
    .nullable(),
  attributes: Attributes,
  resource: Attributes.describe("Attributes of the resource (service, host…) that sent it"),
  events: z.array(z.object({ time: z.string(), name: z.string(), attributes: Attributes })),
  links: z.array(z.object({ traceId: z.string(), spanId: z.string(), attributes: Attributes })),
});

/**
 * A trace's spans in columns, for drawing a waterfall of tens of thousands of spans: one array
 * per field, spans in tree order (depth first, children by start), repeated text as indexes
 * into small tables. About 50 bytes a span instead of the ~500 of GET /v1/traces/{traceId};
 * attributes, events and links come per span from GET /v1/traces/{traceId}/spans/{spanId}.
 */
export const TraceSpans = TraceFields.extend({
  errorGroups: z.array(TraceErrorGroup).describe("Error groups that occurred in the trace"),
  names: z.array(z.string()).describe("Span names, referenced by `spans.name`"),
  kinds: z.array(z.string()).describe("Span kinds, referenced by `spans.kind`"),
  statuses: z.array(z.string()).describe("Statuses, referenced by `spans.status`"),
  orphans: Indexes("Spans (indexes) whose parent is not in the trace, attached under the root"),
  spans: z
    .object({
      spanId: z.array(z.string()),
      parent: Indexes("Index of the parent span in these arrays; -1 for the root"),
      name: Indexes("Index into `names`"),
      service: Indexes("Index into `services`"),
      kind: Indexes("Index into `kinds`"),
      status: Indexes("Index into `statuses`"),
      startOffsetMs: z.array(z.number()).describe("Milliseconds after the trace's start"),
      durationMs: z.array(z.number()),
      selfTimeMs: z.array(z.number()).describe("Duration not covered by any child span"),
    })
    .describe("One array per field, all of the same length, index 0 the root"),
}).meta({ id: "TraceSpans" });
export type TraceSpans = z.infer<typeof TraceSpans>;

/** One span with everything it recorded. */
export const SpanDetail = SpanFields.extend({
  errorGroups: z.array(TraceErrorGroup).describe("Error groups that occurred in this span"),
}).meta({ id: "SpanDetail" });
export type SpanDetail = z.infer<typeof SpanDetail>;

/** A span node of GET /v1/traces/{traceId}, as far as its recursion needs naming. */
export interface SpanNodeShape {
  children: SpanNodeShape[];
}

/** A span in the tree, its children nested in start order (documentation of the hand-written JSON). */
export const SpanNode: z.ZodType<SpanNodeShape> = SpanFields.extend({
  resource: z.number().int().describe("Index into the trace's `resources`"),
  depth: z.number().int().describe("0 for the root"),
  selfTimeMs: z.number().describe("Duration not covered by any child span"),
  orphan: z.boolean().describe("Attached under the root because its parent is not in the trace"),
  get children() {
    return z.array(SpanNode);
  },
}).meta({ id: "SpanNode" });

export const TraceDetail = TraceFields.extend({
  resources: z.array(Attributes).describe("Distinct resource attribute sets, referenced by index"),
  errorGroups: z
    .array(TraceErrorGroup)
    .describe(
      "Error groups with an occurrence in this trace (exception events, error logs), per span, first occurred first",
    ),
  root: SpanNode,
}).meta({ id: "TraceDetail" });
export type TraceDetail = z.infer<typeof TraceDetail>;

/** Span kinds as stored (`span_kind`), the values of the `span_kind` filter. */
export const SPAN_KINDS = [
  "server",
  "client",
  "internal",
  "producer",
  "consumer",
  "unspecified",
] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];

const Percentiles = {
  p50Ms: z.number().nullable().describe("Median span duration in ms; null without spans"),
  p95Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
};

/** Spans, their rate, errors and durations over a stretch of time (a bucket, a window, a group). */
const SpanFigures = {
  count: z.number().int().describe("Spans"),
  rate: z.number().describe("Spans per second"),
  errors: z.number().int().describe("Spans with status error"),
  errorRate: z.number().describe("errors / count, 0 without spans"),
  ...Percentiles,
};

export const TraceStatsPoint = z.object({
  time: z.string().describe("Start of the bucket, ISO 8601"),
  ...SpanFigures,
});
export type TraceStatsPoint = z.infer<typeof TraceStatsPoint>;

/** GET /v1/traces/stats: the spans following the filters, per bucket and over the window. */
export const TraceStats = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    series: z.array(TraceStatsPoint).describe("Every bucket of the window, empty ones too"),
    totals: z.object(SpanFigures),
  })
  .meta({ id: "TraceStats" });
export type TraceStats = z.infer<typeof TraceStats>;

/** What GET /v1/traces/group-by can sort its groups by. */
export const TRACE_GROUP_SORTS = [
  "count",
  "rate",
  "errors",
  "error_rate",
  "p50",
  "p95",
  "p99",
  "value",
] as const;
export type TraceGroupSort = (typeof TRACE_GROUP_SORTS)[number];

export const TraceGroup = z.object({
  value: z
    .string()
    .describe("The field's value as text; '' for spans without it (an absent attribute)"),
  ...SpanFigures,
});
export type TraceGroup = z.infer<typeof TraceGroup>;

/** GET /v1/traces/group-by: the spans following the filters, per value of one field. */
export const TraceGroupBy = z
  .object({
    from: z.string(),
    to: z.string(),
    by: z.string().describe("The field grouped by"),
    groups: z.array(TraceGroup).describe("At most `limit`, in the order asked for"),
    groupCount: z.number().int().describe("Groups in all, beyond the limit too"),
    groupsCapped: z
      .boolean()
      .describe(
        "True when the field had more than 10,000 values in the window: the values met first are counted in full, later ones not at all",
      ),
    spanCount: z.number().int().describe("Spans in all groups"),
  })
  .meta({ id: "TraceGroupBy" });
export type TraceGroupBy = z.infer<typeof TraceGroupBy>;

/** The usual duration of one (service, operation) of a trace, over the hours before it. */
export const SpanBaseline = z.object({
  service: z.string(),
  operation: z.string().describe("Span name"),
  count: z.number().int().describe("Spans of this service and name in the baseline window"),
  p50Ms: z.number().nullable().describe("Their median duration; null when there were none"),
  p95Ms: z.number().nullable(),
});
export type SpanBaseline = z.infer<typeof SpanBaseline>;

/** GET /v1/traces/{traceId}/baselines. */
export const SpanBaselines = z
  .object({
    traceId: z.string(),
    from: z.string().describe("Start of the baseline window: 24 h before the trace"),
    to: z.string().describe("End of the baseline window: the trace's start"),
    operations: z
      .array(SpanBaseline)
      .describe("One per (service, span name) of the trace, by service then name"),
    truncated: z
      .boolean()
      .describe("True when the trace has more distinct operations than are compared"),
  })
  .meta({ id: "SpanBaselines" });
export type SpanBaselines = z.infer<typeof SpanBaselines>;
