import type { TestService } from "./test-service.js";

/** OTLP/JSON builders for hand-made fixtures: exact times, ids and attributes. */

type AttrValue = string | number | boolean;
const attr = (key: string, value: AttrValue) => ({
  key,
  value:
    typeof value === "number"
      ? Number.isInteger(value)
        ? { intValue: value }
        : { doubleValue: value }
      : typeof value === "boolean"
        ? { boolValue: value }
        : { stringValue: value },
});
export const attrs = (values: Record<string, AttrValue>) =>
  Object.entries(values).map(([k, v]) => attr(k, v));

const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

export interface SpanSpec {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  durationMs: number;
  /** 1 internal, 2 server, 3 client. */
  kind?: number;
  error?: boolean;
  attributes?: Record<string, AttrValue>;
  events?: { name: string; timeMs: number; attributes: Record<string, AttrValue> }[];
}

export const otlpSpan = (s: SpanSpec) => ({
  traceId: s.traceId,
  spanId: s.spanId,
  ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
  name: s.name,
  kind: s.kind ?? 1,
  startTimeUnixNano: nanos(s.startMs),
  endTimeUnixNano: nanos(s.startMs + s.durationMs),
  attributes: attrs(s.attributes ?? {}),
  events: (s.events ?? []).map((e) => ({
    name: e.name,
    timeUnixNano: nanos(e.timeMs),
    attributes: attrs(e.attributes),
  })),
  status: { code: s.error ? 2 : 0 },
});

export const tracesBody = (
  service: string,
  spans: SpanSpec[],
  resource: Record<string, AttrValue> = {},
) => ({
  resourceSpans: [
    {
      resource: { attributes: attrs({ "service.name": service, ...resource }) },
      scopeSpans: [{ scope: { name: "fixture" }, spans: spans.map(otlpSpan) }],
    },
  ],
});

export interface LogSpec {
  timeMs: number;
  severityNumber: number;
  severityText?: string;
  body: string;
  traceId?: string;
  spanId?: string;
  attributes?: Record<string, AttrValue>;
}

export const logsBody = (
  service: string,
  records: LogSpec[],
  resource: Record<string, AttrValue> = {},
) => ({
  resourceLogs: [
    {
      resource: { attributes: attrs({ "service.name": service, ...resource }) },
      scopeLogs: [
        {
          scope: { name: "fixture", version: "1.0" },
          logRecords: records.map((r) => ({
            timeUnixNano: nanos(r.timeMs),
            observedTimeUnixNano: nanos(r.timeMs + 5),
            severityNumber: r.severityNumber,
            severityText: r.severityText ?? "",
            body: { stringValue: r.body },
            attributes: attrs(r.attributes ?? {}),
            ...(r.traceId ? { traceId: r.traceId, spanId: r.spanId ?? "" } : {}),
          })),
        },
      ],
    },
  ],
});

/** Well under the hooks' 60 s: an export that never answers fails with what the engine was doing. */
const EXPORT_TIMEOUT_MS = 40_000;

function stuckExport(service: TestService, signal: string, cause: unknown): Error {
  if (!(cause instanceof DOMException && cause.name === "TimeoutError")) return cause as Error;
  const { telemetry, ingest } = service.deps;
  return new Error(
    `The ${signal} export got no answer in ${EXPORT_TIMEOUT_MS / 1000} s. Engine: ${JSON.stringify(
      telemetry.stats?.(),
    )}; ingest queue: ${JSON.stringify(ingest.queue())}`,
    { cause },
  );
}

/** POSTs an OTLP/JSON body and fails loudly unless every item was accepted. */
export async function sendOtlp(
  service: TestService,
  key: string,
  signal: "traces" | "logs" | "metrics",
  body: unknown,
): Promise<void> {
  const response = await service
    .fetch(`/v1/${signal}`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS),
    })
    .catch((error: unknown) => {
      throw stuckExport(service, signal, error);
    });
  const text = await response.text();
  if (response.status !== 200 || text.includes("rejected"))
    throw new Error(`ingest ${signal} failed: ${response.status} ${text}`);
}

/** Hex ids from small numbers, so fixtures read well: hexId(3, 32) = 000…003. */
export const hexId = (n: number, chars: number) => n.toString(16).padStart(chars, "0");

/** ClickHouse's DateTime64 text of a time in ms. */
const engineTime = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");

/**
 * Rows of one trace with 50,005 spans (one more than the 50,000 a trace read returns): a root
 * at `baseMs + 50,004` ms with every other span its child, one ms apart, inserted latest first
 * so a cut must come from time order, not insertion order. For the engine's `insert`.
 */
export function oversizedTraceRows(projectId: string, traceId: string, baseMs: number) {
  const root = hexId(0x100000 + 50_004, 16);
  return Array.from({ length: 50_005 }, (_, i) => ({
    project_id: projectId,
    trace_id: traceId,
    span_id: hexId(0x100000 + i, 16),
    parent_span_id: i === 50_004 ? "" : root,
    operation_name: i === 50_004 ? "root" : "child",
    service_name: "bulk",
    timestamp: engineTime(baseMs + (50_004 - i)),
    end_timestamp: engineTime(baseMs + (50_004 - i) + 1),
  }));
}
