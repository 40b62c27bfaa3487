/**
 * A realistic, deterministic multi-service dataset as OTLP export requests: a browser frontend
 * with sessions, an API gateway, an orders service with its PostgreSQL queries (and an N+1
 * pattern), an LLM-calling assistant, exceptions (one that stops and comes back), slow
 * endpoints, logs, and host metrics (host-metrics.ts). Ids are bytes and 64-bit values decimal strings, so the
 * objects encode as protobuf with protobufjs `fromObject`.
 */

import { hostMetrics } from "./host-metrics.js";
import { attrs, createRandom, ns, type Obj, resource, type SpanSpec, toSpan } from "./otlp-json.js";
import {
  AGENTS,
  COUNTRIES,
  PAGES,
  REFERRERS,
  requestTrace,
  type Session,
} from "./request-trace.js";

export interface DemoOptions {
  /** Spans to generate, about. */
  spans: number;
  /** Spans per export request. */
  batchSpans: number;
  /** Data ends now and starts this many ms earlier. */
  windowMs: number;
  nowMs: number;
  seed?: number;
}

export interface DemoRequest {
  signal: "traces" | "logs" | "metrics";
  body: Obj;
  /** Spans, log records or data points in the request. */
  items: number;
}

/** Root spans start no later than this before the window's end (a slow trace lasts ~20 s). */
const ROOT_END_MARGIN_MS = 30_000;
/** About how many spans one request trace has (browser, gateway, service, its queries). */
const TYPICAL_SPANS_PER_TRACE = 8;

/** Yields export requests (traces of about batchSpans spans, with their logs, then metrics). */
export function* demoRequests(options: DemoOptions): Generator<DemoRequest> {
  const rng = createRandom(options.seed ?? 42);
  const start = options.nowMs - options.windowMs;
  const sessions: Session[] = Array.from(
    { length: Math.max(5, Math.ceil(options.spans / 400)) },
    (_, i) => ({
      id: `sess_${i.toString(36).padStart(6, "0")}${rng.int(1000, 9999)}`,
      userId: `user_${rng.int(1, 500)}`,
      agent: rng.pick(AGENTS),
      page: rng.pick(PAGES),
      country: rng.pick(COUNTRIES),
      referrer: rng.pick(REFERRERS),
    }),
  );
  let made = 0;
  // Traces start in order over the window, each placed by the share of spans made before it
  // (the trace count is not known up front), jittered by about one trace's share; the last
  // seconds stay free so that slow traces end before now.
  const spreadMs = Math.max(1, options.windowMs - ROOT_END_MARGIN_MS);
  const jitter = (TYPICAL_SPANS_PER_TRACE / options.spans) * spreadMs;
  while (made < options.spans) {
    const spansByService = new Map<string, ReturnType<typeof toSpan>[]>();
    const logsByService = new Map<string, Obj[]>();
    let inBatch = 0;
    while (inBatch < options.batchSpans && made + inBatch < options.spans) {
      const t = start + ((made + inBatch) / options.spans) * spreadMs + rng.next() * jitter;
      const session = rng.pick(sessions);
      const trace = requestTrace(
        rng,
        Math.min(t, start + spreadMs),
        options.nowMs,
        session,
        options.windowMs,
      );
      for (const [service, specs] of trace.byService) {
        const list = spansByService.get(service) ?? [];
        for (const spec of specs) list.push(toSpan(spec));
        spansByService.set(service, list);
        inBatch += specs.length;
      }
      const orders = trace.byService.get("orders-service")?.[0] as SpanSpec;
      const logs = logsByService.get("orders-service") ?? [];
      logs.push(
        logRecord(
          orders,
          trace.error ? 17 : 9,
          trace.error
            ? `request failed: ${trace.error.message}`
            : `${trace.routeName} answered ${trace.status}`,
          session,
          trace.error,
        ),
      );
      logsByService.set("orders-service", logs);
    }
    made += inBatch;
    yield {
      signal: "traces",
      items: inBatch,
      body: {
        resourceSpans: [...spansByService].map(([service, spans]) => ({
          resource: resource(
            service,
            service === "web-frontend"
              ? { "telemetry.sdk.language": "webjs", "browser.platform": "web" }
              : { "host.name": `${service}-1` },
          ),
          scopeSpans: [{ scope: { name: `${service}-instrumentation`, version: "1.0.0" }, spans }],
        })),
      },
    };
    const logs = [...logsByService].flatMap(([, records]) => records);
    yield {
      signal: "logs",
      items: logs.length,
      body: {
        resourceLogs: [...logsByService].map(([service, logRecords]) => ({
          resource: resource(service, { "host.name": `${service}-1` }),
          scopeLogs: [{ scope: { name: "app-logger" }, logRecords }],
        })),
      },
    };
  }
  yield* hostMetrics(rng, options);
}

function logRecord(
  span: SpanSpec,
  severity: number,
  message: string,
  session: Session,
  error?: SpanSpec["error"],
): Obj {
  return {
    timeUnixNano: ns(span.startMs + span.durationMs),
    severityNumber: severity,
    severityText: severity >= 17 ? "ERROR" : "INFO",
    body: { stringValue: message },
    traceId: span.traceId,
    spanId: span.spanId,
    attributes: attrs({
      "session.id": session.id,
      "client.geo.country.iso_code": session.country,
      ...(session.referrer ? { "http.request.header.referer": [session.referrer] } : {}),
      ...(error
        ? {
            "exception.type": error.type,
            "exception.message": error.message,
            "exception.stacktrace": error.stack,
          }
        : {}),
    }),
  };
}
