// The rows a trace is read as, shared by its two sources (trace_data and the span table) and
// the error groups read from them.

/** A span row as read (SPAN_COLUMNS of trace-lookup.ts, or unpacked from `trace_data`). */
export type SpanRow = Record<string, unknown>;

/** One error occurrence of a trace, as `trace_data` packs it. */
export interface ErrorItem {
  fingerprint: string;
  /** '' for an error log of the trace without a span. */
  spanId: string;
  message: string;
  timeMs: number;
}
