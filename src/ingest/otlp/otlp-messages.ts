/**
 * The shape of decoded OTLP export requests, as both decoders produce it: protobufjs messages
 * (bytes as Uint8Array, 64-bit integers as Long) and OTLP/JSON (ids as hex strings, 64-bit
 * integers as decimal strings or numbers, enums as integers). Every field is optional because
 * proto3 leaves defaults unset and JSON senders omit them; the mappers read only what they use.
 */

/** A 64-bit integer: protobufjs Long, JSON string or JSON number. */
export type Int64 = number | string | { low: number; high: number; unsigned?: boolean };
/** Trace and span ids: raw bytes (protobuf) or lowercase hex (OTLP/JSON). */
export type IdBytes = Uint8Array | string;

export interface AnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: Int64 | null;
  doubleValue?: number | string | null;
  arrayValue?: { values?: AnyValue[] | null } | null;
  kvlistValue?: { values?: KeyValue[] | null } | null;
  bytesValue?: Uint8Array | string | null;
}

export interface KeyValue {
  key?: string | null;
  value?: AnyValue | null;
}

export interface Resource {
  attributes?: KeyValue[] | null;
}

export interface Scope {
  name?: string | null;
  version?: string | null;
}

export interface SpanEvent {
  timeUnixNano?: Int64 | null;
  name?: string | null;
  attributes?: KeyValue[] | null;
}

export interface SpanLink {
  traceId?: IdBytes | null;
  spanId?: IdBytes | null;
  attributes?: KeyValue[] | null;
}

export interface Span {
  traceId?: IdBytes | null;
  spanId?: IdBytes | null;
  traceState?: string | null;
  parentSpanId?: IdBytes | null;
  name?: string | null;
  kind?: number | string | null;
  startTimeUnixNano?: Int64 | null;
  endTimeUnixNano?: Int64 | null;
  attributes?: KeyValue[] | null;
  events?: SpanEvent[] | null;
  links?: SpanLink[] | null;
  status?: { code?: number | string | null; message?: string | null } | null;
}

export interface TracesRequest {
  resourceSpans?:
    | {
        resource?: Resource | null;
        scopeSpans?: { scope?: Scope | null; spans?: Span[] | null }[] | null;
      }[]
    | null;
}

export interface LogRecord {
  timeUnixNano?: Int64 | null;
  observedTimeUnixNano?: Int64 | null;
  severityNumber?: number | string | null;
  severityText?: string | null;
  body?: AnyValue | null;
  attributes?: KeyValue[] | null;
  flags?: number | null;
  traceId?: IdBytes | null;
  spanId?: IdBytes | null;
  eventName?: string | null;
}

export interface LogsRequest {
  resourceLogs?:
    | {
        resource?: Resource | null;
        scopeLogs?: { scope?: Scope | null; logRecords?: LogRecord[] | null }[] | null;
      }[]
    | null;
}

export interface NumberDataPoint {
  attributes?: KeyValue[] | null;
  startTimeUnixNano?: Int64 | null;
  timeUnixNano?: Int64 | null;
  asDouble?: number | string | null;
  asInt?: Int64 | null;
}

export interface HistogramDataPoint {
  attributes?: KeyValue[] | null;
  startTimeUnixNano?: Int64 | null;
  timeUnixNano?: Int64 | null;
  count?: Int64 | null;
  sum?: number | string | null;
  bucketCounts?: Int64[] | null;
  explicitBounds?: (number | string)[] | null;
  min?: number | string | null;
  max?: number | string | null;
}

export interface ExponentialBuckets {
  offset?: number | null;
  bucketCounts?: Int64[] | null;
}

export interface ExponentialHistogramDataPoint {
  attributes?: KeyValue[] | null;
  startTimeUnixNano?: Int64 | null;
  timeUnixNano?: Int64 | null;
  count?: Int64 | null;
  sum?: number | string | null;
  scale?: number | null;
  zeroCount?: Int64 | null;
  positive?: ExponentialBuckets | null;
  negative?: ExponentialBuckets | null;
  min?: number | string | null;
  max?: number | string | null;
}

export interface SummaryDataPoint {
  attributes?: KeyValue[] | null;
  startTimeUnixNano?: Int64 | null;
  timeUnixNano?: Int64 | null;
  count?: Int64 | null;
  sum?: number | string | null;
  quantileValues?: { quantile?: number | string | null; value?: number | string | null }[] | null;
}

export interface Metric {
  name?: string | null;
  description?: string | null;
  unit?: string | null;
  gauge?: { dataPoints?: NumberDataPoint[] | null } | null;
  sum?: {
    dataPoints?: NumberDataPoint[] | null;
    aggregationTemporality?: number | string | null;
    isMonotonic?: boolean | null;
  } | null;
  histogram?: {
    dataPoints?: HistogramDataPoint[] | null;
    aggregationTemporality?: number | string | null;
  } | null;
  exponentialHistogram?: {
    dataPoints?: ExponentialHistogramDataPoint[] | null;
    aggregationTemporality?: number | string | null;
  } | null;
  summary?: { dataPoints?: SummaryDataPoint[] | null } | null;
}

export interface MetricsRequest {
  resourceMetrics?:
    | {
        resource?: Resource | null;
        scopeMetrics?: { scope?: Scope | null; metrics?: Metric[] | null }[] | null;
      }[]
    | null;
}

/** The three OTLP signals, named as their URL paths. */
export type Signal = "traces" | "logs" | "metrics";

export interface SignalRequest {
  traces: TracesRequest;
  logs: LogsRequest;
  metrics: MetricsRequest;
}
