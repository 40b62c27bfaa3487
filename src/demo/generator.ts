/**
 * A realistic, deterministic multi-service dataset as OTLP export requests: a browser frontend
 * with sessions, an API gateway, an orders service with its PostgreSQL queries (and an N+1
 * pattern), an LLM-calling assistant, exceptions (one that stops and comes back), slow
 * endpoints, logs, and host metrics. Ids are bytes and 64-bit values decimal strings, so the
 * objects encode as protobuf with protobufjs `fromObject`.
 */

import {
  attrs,
  createRandom,
  ns,
  type Obj,
  type Random,
  resource,
  type SpanSpec,
  toSpan,
} from "./otlp-json.js";
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
  yield hostMetrics(rng, options);
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

/** CPU, memory, disk and network gauges/sums per host, one point per minute over the window. */
function hostMetrics(rng: Random, options: DemoOptions): DemoRequest {
  const hosts = ["api-gateway-1", "orders-service-1", "assistant-1", "db-1"];
  const minutes = Math.min(180, Math.max(1, Math.round(options.windowMs / 60_000)));
  let points = 0;
  const resourceMetrics = hosts.map((host, h) => {
    const series = (
      name: string,
      unit: string,
      value: (m: number) => number,
      extra: Obj = {},
      sum = false,
    ) => {
      const dataPoints = Array.from({ length: minutes }, (_, m) => ({
        timeUnixNano: ns(options.nowMs - (minutes - m) * 60_000),
        asDouble: value(m),
        attributes: attrs(extra),
      }));
      points += dataPoints.length;
      return sum
        ? { name, unit, sum: { dataPoints, aggregationTemporality: 2, isMonotonic: true } }
        : { name, unit, gauge: { dataPoints } };
    };
    const busy = host === "db-1" ? 0.75 : 0.2 + h * 0.1;
    return {
      resource: resource(host.replace(/-\d$/, ""), { "host.name": host, "os.type": "linux" }),
      scopeMetrics: [
        {
          scope: { name: "hostmetricsreceiver" },
          metrics: [
            series("system.cpu.utilization", "1", (m) =>
              Math.min(1, busy + 0.1 * Math.sin(m / 7) + rng.next() * 0.05),
            ),
            series("system.memory.utilization", "1", (m) =>
              Math.min(1, 0.5 + h * 0.1 + m / (minutes * 20)),
            ),
            series("system.filesystem.utilization", "1", () => (host === "db-1" ? 0.91 : 0.4)),
            series(
              "system.network.io",
              "By",
              (m) => (m + 1) * 1_000_000 * (h + 1),
              { direction: "receive" },
              true,
            ),
          ],
        },
      ],
    };
  });
  return { signal: "metrics", items: points, body: { resourceMetrics } };
}
