import { HTTP_DURATION_BOUNDS_MS } from "../../src/telemetry/tables.js";

/** Row builders for the AI dashboard fixtures: one row of a telemetry table from a short spec. */

export const MIN = 60_000;
const seconds = (ms: number) => (ms / 1000).toFixed(3);
export const hex = (n: number, length: number) => n.toString(16).padStart(length, "0");
export const traceId = (n: number) => hex(n, 32);
export const logId = (ms: number, n: number) => `log_${hex(ms, 12)}${hex(n, 16)}`;

export interface AiSpan {
  at: number;
  trace: number;
  provider: string;
  requestModel: string;
  responseModel: string;
  operation: string;
  aiOperation?: string;
  input: number;
  output: number;
  cacheRead?: number;
  cacheCreation?: number;
  cost: number;
  durationMs: number;
  error?: boolean;
  finish?: string[];
  attributes?: Record<string, string>;
}

export const aiRow = (project: string, s: AiSpan) => ({
  project_id: project,
  timestamp: seconds(s.at),
  trace_id: traceId(s.trace),
  span_id: hex(s.trace, 16),
  parent_span_id: "",
  service_name: "assistant",
  operation_name: s.operation,
  ai_operation: s.aiOperation ?? "chat",
  provider: s.provider,
  request_model: s.requestModel,
  response_model: s.responseModel,
  input_tokens: s.input,
  output_tokens: s.output,
  cache_read_tokens: s.cacheRead ?? 0,
  cache_creation_tokens: s.cacheCreation ?? 0,
  total_tokens: s.input + s.output,
  cost_usd: s.cost,
  duration_ms: s.durationMs,
  status: s.error ? "error" : "ok",
  status_message: s.error ? "429 rate limited" : "",
  finish_reasons: s.finish ?? (s.error ? [] : ["stop"]),
  attributes: s.attributes ?? {},
});

export interface SpanSpec {
  at: number;
  trace: number;
  span: number;
  parent?: number;
  name: string;
  service?: string;
  kind?: string;
  durationMs?: number;
  error?: boolean;
  method?: string;
  route?: string;
  target?: string;
  status?: number;
  attributes?: Record<string, string>;
}

export const spanRow = (project: string, s: SpanSpec) => ({
  project_id: project,
  timestamp: seconds(s.at),
  end_timestamp: seconds(s.at + (s.durationMs ?? 1)),
  trace_id: traceId(s.trace),
  span_id: hex(s.span, 16),
  parent_span_id: s.parent === undefined ? "" : hex(s.parent, 16),
  operation_name: s.name,
  span_kind: s.kind ?? "internal",
  service_name: s.service ?? "orders-service",
  duration_ms: s.durationMs ?? 1,
  duration_ns: Math.round((s.durationMs ?? 1) * 1e6),
  status: s.error ? "error" : "unset",
  http_method: s.method ?? "",
  http_route: s.route ?? "",
  http_target: s.target ?? "",
  http_status_code: s.status ?? 0,
  attributes: s.attributes ?? {},
});

export interface Endpoint {
  at: number;
  service: string;
  method: string;
  route: string;
  status: number;
  count: number;
  errors?: number;
  avgMs: number;
  maxMs?: number;
}

/** One http_requests row with every request in the histogram bucket of its average. */
export const requestRow = (project: string, e: Endpoint) => {
  const buckets = new Array<number>(HTTP_DURATION_BOUNDS_MS.length + 1).fill(0);
  const index = HTTP_DURATION_BOUNDS_MS.findIndex((bound) => e.avgMs <= bound);
  buckets[index < 0 ? HTTP_DURATION_BOUNDS_MS.length : index] = e.count;
  return {
    project_id: project,
    timestamp: Math.floor(e.at / 1000),
    service_name: e.service,
    method: e.method,
    route: e.route,
    status_code: e.status,
    request_count: e.count,
    error_count: e.errors ?? 0,
    duration_sum_ms: e.count * e.avgMs,
    duration_min_ms: e.avgMs,
    duration_max_ms: e.maxMs ?? e.avgMs,
    duration_buckets: buckets,
  };
};

export interface LogSpec {
  at: number;
  n: number;
  message: string;
  service?: string;
  trace?: number;
  attributes?: Record<string, string>;
}

export const logRow = (project: string, l: LogSpec) => ({
  project_id: project,
  id: logId(l.at, l.n),
  timestamp: seconds(l.at),
  observed_timestamp: seconds(l.at),
  trace_id: l.trace === undefined ? "" : traceId(l.trace),
  span_id: "",
  severity_number: 9,
  severity_text: "INFO",
  level: "info",
  service_name: l.service ?? "orders-service",
  message: l.message,
  source: "backend",
  attributes: l.attributes ?? {},
});

/** `n` items made by `make(i)`. */
export const times = <T>(n: number, make: (i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) => make(i));
