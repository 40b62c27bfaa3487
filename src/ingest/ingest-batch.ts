import type { ErrorSeverity } from "../contracts/error-groups.js";
import type { ServiceNodeKind } from "../contracts/services.js";
import type { UnixTime } from "../telemetry/unix-time.js";
import type { AttributeLimits } from "./otlp/values.js";

/** One row for a telemetry table, keyed by column name (JSONEachRow). */
export type Row = Record<string, unknown>;

export type Source = "frontend" | "backend";

/** One exception or error log, before grouping. */
export interface ErrorOccurrence {
  projectId: string;
  fingerprint: string;
  type: string;
  message: string;
  stacktrace: string;
  culprit: string;
  timestampMs: number;
  service: string;
  traceId: string;
  spanId: string;
  source: Source;
  /** The error log's id when a log record is the source; '' for a span's exception event. */
  logId: string;
  severity: ErrorSeverity;
}

/** One server span's contribution to the per-minute HTTP summaries. */
export interface HttpObservation {
  projectId: string;
  minute: number;
  service: string;
  method: string;
  route: string;
  statusCode: number;
  durationMs: number;
  failed: boolean;
}

/**
 * One call on the service map (derive/service-edges.ts): from a service to a service, database,
 * external host or message system, or (source '') one entry span of the target service.
 */
export interface EdgeObservation {
  projectId: string;
  /** Start of the minute, epoch seconds. */
  minute: number;
  source: string;
  target: string;
  targetKind: ServiceNodeKind;
  durationMs: number;
  failed: boolean;
}

/** One span, log, error or AI span seen in a browser or user session. */
export interface SessionTouch {
  projectId: string;
  sessionId: string;
  timestampMs: number;
  kind: "span" | "log";
  /** The errors it recorded, as keys that make two sources of one error one (sessionErrorKey). */
  errorKeys: string[];
  isAi: boolean;
  userId: string;
  service: string;
  userAgent: string;
  referrer: string;
  country: string;
  page: string;
}

/** Everything one export request produced, ready for the batch writer. */
export interface IngestBatch {
  traces: Row[];
  logs: Row[];
  metrics: Row[];
  aiSpans: Row[];
  http: HttpObservation[];
  errors: ErrorOccurrence[];
  sessions: SessionTouch[];
  edges: EdgeObservation[];
}

export const emptyBatch = (): IngestBatch => ({
  traces: [],
  logs: [],
  metrics: [],
  aiSpans: [],
  http: [],
  errors: [],
  sessions: [],
  edges: [],
});

/** Rows the batch will write, for queue accounting. */
export const batchSize = (batch: IngestBatch): number =>
  batch.traces.length + batch.logs.length + batch.metrics.length + batch.aiSpans.length;

/** The outcome of mapping one request: the rows, and what was rejected and why. */
export interface MappedRequest {
  batch: IngestBatch;
  rejected: number;
  /** One line per distinct reason, for partial_success.error_message. */
  reasons: string[];
  /** Who sent it, as its first resource tells (senderOf); '' when it has none. */
  sender: string;
}

export interface MappingOptions {
  projectId: string;
  limits: AttributeLimits;
  /** Receive time, used for items that carry no time of their own. */
  received: UnixTime;
}
