/** The shapes of GET /v1/traces and /v1/traces/:traceId (src/server/routes/v1/traces-routes.ts). */

export interface TraceSummary {
  traceId: string;
  rootService: string;
  rootOperation: string;
  startTime: string;
  durationMs: number;
  spanCount: number;
  errorCount: number;
  status: "ok" | "error";
  services: string[];
  hasRoot: boolean;
}

export type Attributes = Record<string, string>;

export interface TraceErrorGroup {
  errorId: string;
  spanId: string | null;
  type: string;
  message: string;
  occurrences: number;
}

/** GET /v1/traces/:traceId/spans: the tree depth first, one array per field. */
export interface TraceSpans extends TraceSummary {
  endTime: string;
  orphanCount: number;
  truncated: boolean;
  serviceBreakdown: { service: string; spanCount: number; errorCount: number }[];
  errorGroups: TraceErrorGroup[];
  names: string[];
  kinds: string[];
  statuses: string[];
  /** Indexes of spans whose parent is not in the trace. */
  orphans: number[];
  spans: {
    spanId: string[];
    /** Index of the parent, -1 for the root; parents come before their children. */
    parent: number[];
    name: number[];
    service: number[];
    kind: number[];
    status: number[];
    startOffsetMs: number[];
    durationMs: number[];
    selfTimeMs: number[];
  };
}

/** GET /v1/traces/:traceId/spans/:spanId. */
export interface SpanDetail {
  spanId: string;
  parentSpanId: string | null;
  name: string;
  service: string;
  kind: string;
  startTime: string;
  startOffsetMs: number;
  durationMs: number;
  status: string;
  statusMessage: string;
  http: { method: string; route: string; target: string; statusCode: number } | null;
  attributes: Attributes;
  resource: Attributes;
  events: { time: string; name: string; attributes: Attributes }[];
  links: { traceId: string; spanId: string; attributes: Attributes }[];
  errorGroups: TraceErrorGroup[];
}

/** The sorts GET /v1/traces accepts. */
export const TRACE_SORTS = [
  { key: "start_time", label: "Start time" },
  { key: "duration", label: "Duration" },
  { key: "span_count", label: "Span count" },
  { key: "error_count", label: "Error count" },
] as const;
