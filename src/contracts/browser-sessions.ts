// The read API's browser-session views (GET /v1/sessions…, /v1/sessions/traffic), shared with
// the dashboard (docs/read-api.md).
import { z } from "zod";

/** Entries a session timeline shows at most; a longer session keeps its earliest. */
export const TIMELINE_LIMIT = 2000;

/** Log messages are cut to this many characters in a timeline; /v1/logs/:logId has the whole record. */
export const TIMELINE_MESSAGE_CHARS = 2000;

const Time = z.string().describe("ISO 8601 UTC; the start for spans");

const Page = z
  .string()
  .nullable()
  .describe(
    "The page the user was on (`page.path`, else the path of `page.url`; a browser's documentLoad span: its URL's path), as the session's pages count it",
  );

const SpanFields = {
  time: Time,
  traceId: z.string(),
  spanId: z.string(),
  name: z.string(),
  service: z.string(),
  durationMs: z.number(),
  status: z.string().describe("ok, error or unset"),
  page: Page,
};

const SpanEntry = z.object({
  ...SpanFields,
  kind: z.literal("span"),
  parentSpanId: z.string().nullable(),
});

const AiEntry = z.object({
  ...SpanFields,
  kind: z.literal("ai"),
  operation: z.string().describe("gen_ai.operation.name, e.g. chat"),
  provider: z.string(),
  model: z.string().describe("The response model, else the requested one"),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  totalTokens: z.number().int(),
  costUsd: z.number(),
});

const LogEntry = z.object({
  time: Time,
  kind: z.literal("log"),
  logId: z.string(),
  level: z.string(),
  message: z.string().describe(`The first ${TIMELINE_MESSAGE_CHARS} characters`),
  service: z.string(),
  traceId: z.string().nullable(),
  spanId: z.string().nullable(),
  page: Page,
});

const ErrorEntry = z.object({
  time: Time,
  kind: z.literal("error"),
  source: z
    .enum(["exception", "span_status", "log"])
    .describe(
      "An exception event of a span (with its log, if one recorded the same error), a span with status error and no error recorded in it, or an error/fatal log",
    ),
  errorId: z
    .string()
    .nullable()
    .describe("The error group (/v1/errors/:errorId); null for a span status without exception"),
  type: z.string().nullable(),
  message: z.string(),
  service: z.string(),
  traceId: z.string().nullable(),
  spanId: z.string().nullable(),
  logId: z
    .string()
    .nullable()
    .describe(
      "The error log; on an exception too when a log of the same span recorded the same type and message (one occurrence, one entry)",
    ),
});

export const TimelineEntry = z
  .discriminatedUnion("kind", [SpanEntry, AiEntry, LogEntry, ErrorEntry])
  .meta({ id: "SessionTimelineEntry" });
export type TimelineEntry = z.infer<typeof TimelineEntry>;

export const SESSION_SORTS = ["started_at", "last_seen", "duration", "errors", "spans"] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];
/** The device types the list filters by. */
export const DEVICES = ["desktop", "mobile", "tablet", "tv", "bot"] as const;

export const SessionSummary = z
  .object({
    id: z.string(),
    userId: z.string().nullable(),
    startedAt: z.string().describe("Time of the session's first span or log, ISO 8601 UTC"),
    lastSeen: z.string().describe("Time of its latest span or log (their start times)"),
    durationMs: z.number().int().describe("lastSeen − startedAt"),
    counts: z.object({
      spans: z.number().int().describe("Spans, AI spans included"),
      logs: z.number().int(),
      errors: z
        .number()
        .int()
        .describe(
          "Error occurrences (exception events and error/fatal logs; an exception event and a log of the same span, type and message are one), plus failed spans (status error) in which no error was recorded",
        ),
      aiSpans: z.number().int().describe("Spans carrying gen_ai.* attributes"),
    }),
    services: z.array(z.string()).describe("Services that sent its telemetry, sorted"),
    browser: z.string().nullable(),
    browserVersion: z.string().nullable(),
    os: z.string().nullable(),
    device: z.string().nullable().describe("desktop, mobile, tablet, tv or bot"),
    country: z.string().nullable().describe("ISO 3166-1 alpha-2"),
    referrer: z.string().nullable().describe("Referrer of the session's first page, as sent"),
    entryPage: z.string().nullable().describe("Path of the first page seen"),
    pageCount: z.number().int().describe("Distinct pages visited"),
  })
  .meta({ id: "SessionSummary" });
export type SessionSummary = z.infer<typeof SessionSummary>;

export const SessionDetail = SessionSummary.extend({
  userAgent: z.string().nullable(),
  pages: z.array(z.string()).describe("Distinct pages visited, sorted"),
  timeline: z
    .array(TimelineEntry)
    .describe("Spans, AI spans, logs and errors in time order (see the endpoint description)"),
  truncated: z
    .boolean()
    .describe(
      `True when the session has more than ${TIMELINE_LIMIT} entries; the earliest are kept`,
    ),
}).meta({ id: "SessionDetail" });
export type SessionDetail = z.infer<typeof SessionDetail>;

/** Entries per breakdown; the rest are left out (shares then sum to less than 1). */
export const BREAKDOWN_LIMIT = 20;

/** The label of sessions whose browser, OS, device or country is not known. */
export const UNKNOWN = "unknown";

/** The label of sessions without a referrer. */
export const DIRECT = "direct";

export const Share = (of: string) =>
  z.object({
    name: z.string(),
    sessions: z.number().int(),
    share: z.number().describe(`sessions / totals.sessions (${of})`),
  });

const Breakdown = (of: string) =>
  z.array(Share(of)).describe(`Most sessions first, then by name; at most ${BREAKDOWN_LIMIT}`);

export const Traffic = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    totals: z.object({
      sessions: z.number().int().describe("Sessions overlapping the window"),
      uniqueUsers: z
        .number()
        .int()
        .describe("Distinct user.id among them (sessions without one are not counted)"),
      sessionsWithErrors: z.number().int(),
      avgDurationMs: z.number().describe("Mean of lastSeen − startedAt; 0 without sessions"),
      uniquePageViews: z
        .number()
        .int()
        .describe("Distinct pages per session, summed: each page counts once per session"),
      bounceRate: z
        .number()
        .nullable()
        .describe(
          "Share of sessions with a known page that saw exactly one distinct page; null when none has a page",
        ),
    }),
    browsers: Breakdown(`'${UNKNOWN}' when no user agent was sent`),
    operatingSystems: Breakdown(`'${UNKNOWN}' when not known`),
    devices: Breakdown(`desktop, mobile, tablet, tv, bot or '${UNKNOWN}'`),
    countries: Breakdown(`ISO 3166-1 alpha-2, '${UNKNOWN}' when not known`),
    referrers: Breakdown(`the referrer's host; '${DIRECT}' without a referrer`),
    entryPages: Breakdown("sessions without a page are not listed"),
    topPages: Breakdown(
      "sessions that visited the page; a session counts once for each page it visited",
    ),
    series: z
      .array(
        z.object({
          time: z.string(),
          activeSessions: z.number().int().describe("Sessions overlapping the bucket"),
          startedSessions: z
            .number()
            .int()
            .describe("Sessions that began in the bucket (and the window)"),
        }),
      )
      .describe("Every bucket of the window, zeros included"),
  })
  .meta({ id: "Traffic" });
export type Traffic = z.infer<typeof Traffic>;
