// The shapes of GET /v1/sessions and /v1/sessions/:sessionId (src/read/sessions.ts and
// session-timeline.ts).

export interface SessionSummary {
  id: string;
  userId: string | null;
  startedAt: string;
  lastSeen: string;
  durationMs: number;
  counts: { spans: number; logs: number; errors: number; aiSpans: number };
  services: string[];
  browser: string | null;
  browserVersion: string | null;
  os: string | null;
  device: string | null;
  country: string | null;
  referrer: string | null;
  entryPage: string | null;
  pageCount: number;
}

interface SpanFields {
  time: string;
  traceId: string;
  spanId: string;
  name: string;
  service: string;
  durationMs: number;
  status: string;
  page: string | null;
}
export interface SpanEntry extends SpanFields {
  kind: "span";
  parentSpanId: string | null;
}
export interface AiEntry extends SpanFields {
  kind: "ai";
  operation: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costUsd: number;
}
export interface LogEntry {
  time: string;
  kind: "log";
  logId: string;
  level: string;
  message: string;
  service: string;
  traceId: string | null;
  spanId: string | null;
  page: string | null;
}
export interface ErrorEntry {
  time: string;
  kind: "error";
  source: "exception" | "span_status" | "log";
  errorId: string | null;
  type: string | null;
  message: string;
  service: string;
  traceId: string | null;
  spanId: string | null;
  logId: string | null;
}
export type TimelineEntry = SpanEntry | AiEntry | LogEntry | ErrorEntry;

export interface SessionDetail extends SessionSummary {
  userAgent: string | null;
  pages: string[];
  timeline: TimelineEntry[];
  truncated: boolean;
}

/** The sorts the list accepts (`sort_by`), with their column labels. */
export const SESSION_SORTS = ["started_at", "last_seen", "duration", "errors", "spans"] as const;
export const DEVICES = ["desktop", "mobile", "tablet", "tv", "bot"] as const;

/** The list's filters as URL parameters, which are also the API's names. */
export const FILTER_KEYS = ["user_id", "browser", "os", "device", "country", "has_errors"] as const;
