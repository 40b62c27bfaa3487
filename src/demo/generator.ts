/**
 * A realistic, deterministic multi-service dataset as OTLP export requests: a browser frontend
 * with sessions, an API gateway, an orders service with its PostgreSQL queries (and an N+1
 * pattern), an LLM-calling assistant, exceptions (one that stops and comes back), slow
 * endpoints, logs, and host metrics. Ids are bytes and 64-bit values decimal strings, so the
 * objects encode as protobuf with protobufjs `fromObject`.
 */

type Attr = { key: string; value: Record<string, unknown> };
type Obj = Record<string, unknown>;

/** A small seeded PRNG (mulberry32): the same seed gives the same dataset. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
    bytes: (n: number) => {
      const out = Buffer.alloc(n);
      for (let i = 0; i < n; i += 4) out.writeUInt32BE((next() * 2 ** 32) >>> 0, i);
      return out;
    },
  };
}
export type Random = ReturnType<typeof createRandom>;

/** OTLP JSON attributes of plain values. */
export const attrs = (values: Obj): Attr[] =>
  Object.entries(values).map(([key, v]) => ({
    key,
    value:
      typeof v === "number"
        ? Number.isInteger(v)
          ? { intValue: v }
          : { doubleValue: v }
        : typeof v === "boolean"
          ? { boolValue: v }
          : Array.isArray(v)
            ? { arrayValue: { values: v.map((s) => ({ stringValue: String(s) })) } }
            : { stringValue: String(v) },
  }));

const resource = (service: string, extra: Obj = {}) => ({
  attributes: attrs({
    "service.name": service,
    "service.version": "2.4.1",
    "deployment.environment.name": "production",
    ...extra,
  }),
});

const ns = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

const ROUTES = [
  { route: "/api/orders", method: "GET", weight: 5, ms: 40 },
  { route: "/api/orders/:id", method: "GET", weight: 4, ms: 25 },
  { route: "/api/orders", method: "POST", weight: 2, ms: 120 },
  { route: "/api/reports/monthly", method: "GET", weight: 1, ms: 1800 },
  { route: "/api/assistant/ask", method: "POST", weight: 1, ms: 900 },
] as const;
const WEIGHTED_ROUTES = ROUTES.flatMap((r) => Array<(typeof ROUTES)[number]>(r.weight).fill(r));
const PAGES = ["/", "/orders", "/orders/checkout", "/reports", "/assistant"];
const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
];
const COUNTRIES = ["US", "DE", "FR", "GB", "IN", "BR", "JP"];
const REFERRERS = ["https://www.google.com/", "https://news.ycombinator.com/", "", "https://t.co/"];
const MODELS = [
  { provider: "openai", model: "gpt-4o-mini-2024-07-18" },
  { provider: "openai", model: "gpt-4o-2024-08-06" },
  { provider: "anthropic", model: "claude-sonnet-4-5-20250929" },
];

const STACK_NULL_ORDER = `TypeError: Cannot read properties of undefined (reading 'total')
    at computeTotals (/srv/orders/src/orders/totals.ts:42:17)
    at OrdersService.create (/srv/orders/src/orders/service.ts:88:12)
    at async handler (/srv/orders/src/http/routes.ts:31:5)
    at async Router.handle (/srv/orders/node_modules/fastify/lib/route.js:512:9)`;
const STACK_TIMEOUT = `QueryTimeoutError: canceling statement due to statement timeout
    at Reports.monthly (/srv/orders/src/reports/monthly.ts:19:11)
    at async handler (/srv/orders/src/http/routes.ts:58:5)
    at async Pool.query (/srv/orders/node_modules/pg-pool/index.js:45:11)`;
const STACK_REGRESSION = `RangeError: Invalid currency code: XBT
    at formatMoney (/srv/orders/src/money/format.ts:12:9)
    at OrdersService.render (/srv/orders/src/orders/service.ts:140:20)`;

/** One span to send, in milliseconds and plain attributes. */
export interface SpanSpec {
  traceId: Buffer;
  spanId: Buffer;
  parentSpanId?: Buffer;
  name: string;
  kind: number;
  startMs: number;
  durationMs: number;
  attributes: Obj;
  error?: { type: string; message: string; stack: string };
}

/** A span as OTLP JSON; an error becomes its status and an exception event. */
export const toSpan = (s: SpanSpec) => ({
  traceId: s.traceId,
  spanId: s.spanId,
  ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
  name: s.name,
  kind: s.kind,
  startTimeUnixNano: ns(s.startMs),
  endTimeUnixNano: ns(s.startMs + s.durationMs),
  attributes: attrs(s.attributes),
  status: s.error ? { code: 2, message: s.error.message } : { code: 0 },
  events: s.error
    ? [
        {
          name: "exception",
          timeUnixNano: ns(s.startMs + s.durationMs),
          attributes: attrs({
            "exception.type": s.error.type,
            "exception.message": s.error.message,
            "exception.stacktrace": s.error.stack,
          }),
        },
      ]
    : [],
});

/** The spans of one user request through every tier, grouped by service. */
function requestTrace(
  rng: Random,
  startMs: number,
  endMs: number,
  session: Session,
  windowMs: number,
) {
  const traceId = rng.bytes(16);
  const route = rng.pick(WEIGHTED_ROUTES);
  const id = () => rng.bytes(8);
  const byService = new Map<string, SpanSpec[]>();
  const add = (service: string, span: SpanSpec) => {
    const list = byService.get(service) ?? [];
    list.push(span);
    byService.set(service, list);
  };
  const slow = route.route === "/api/reports/monthly";
  const serverMs = route.ms * (0.5 + rng.next()) * (rng.chance(0.02) ? 8 : 1);
  const t0 = startMs;
  const browserId = id();
  const gatewayId = id();
  const ordersId = id();
  const path = route.route.replace(":id", String(rng.int(1000, 99999)));
  // Which error, if any: a steady null-order bug, report timeouts, and a regression that
  // happens early in the window, stops, and comes back in the last fifth.
  const phase = (startMs - (endMs - windowMs)) / windowMs;
  let error: SpanSpec["error"];
  if (route.method === "POST" && route.route === "/api/orders" && rng.chance(0.08)) {
    error = {
      type: "TypeError",
      message: `Cannot read properties of undefined (reading 'total') for order ord_${rng.int(10000, 99999)}`,
      stack: STACK_NULL_ORDER,
    };
  } else if (slow && rng.chance(0.15)) {
    error = {
      type: "QueryTimeoutError",
      message: `canceling statement due to statement timeout (report ${rng.int(1, 500)})`,
      stack: STACK_TIMEOUT,
    };
  } else if ((phase < 0.3 || phase > 0.8) && rng.chance(0.01)) {
    error = { type: "RangeError", message: "Invalid currency code: XBT", stack: STACK_REGRESSION };
  }
  const status = error ? 500 : route.method === "POST" ? 201 : rng.chance(0.01) ? 404 : 200;
  const httpServer = {
    "http.request.method": route.method,
    "http.route": route.route,
    "url.path": path,
    "url.scheme": "https",
    "http.response.status_code": status,
    "server.address": "api.shop.example",
    "user_agent.original": session.agent,
    "session.id": session.id,
    "user.id": session.userId,
  };
  add("web-frontend", {
    traceId,
    spanId: browserId,
    name: `${route.method} ${path}`,
    kind: 3,
    startMs: t0,
    durationMs: serverMs + 30,
    attributes: {
      "http.request.method": route.method,
      "url.full": `https://api.shop.example${path}`,
      "http.response.status_code": status,
      "session.id": session.id,
      "user.id": session.userId,
      "page.path": session.page,
    },
  });
  add("api-gateway", {
    traceId,
    spanId: gatewayId,
    parentSpanId: browserId,
    name: `${route.method} ${route.route}`,
    kind: 2,
    startMs: t0 + 5,
    durationMs: serverMs + 15,
    attributes: { ...httpServer },
  });
  add("orders-service", {
    traceId,
    spanId: ordersId,
    parentSpanId: gatewayId,
    name: `${route.method} ${route.route}`,
    kind: 2,
    startMs: t0 + 10,
    durationMs: serverMs,
    attributes: { ...httpServer, "http.method": route.method, "http.status_code": status },
    ...(error ? { error } : {}),
  });
  // Database calls: the order list does one query per order (N+1).
  const queries =
    route.route === "/api/orders" && route.method === "GET" ? rng.int(5, 12) : slow ? 1 : 2;
  const step = serverMs / (queries + 1);
  for (let i = 0; i < queries; i++) {
    const statement =
      i === 0 || route.route !== "/api/orders"
        ? "SELECT * FROM orders WHERE customer_id = $1"
        : "SELECT * FROM order_items WHERE order_id = $1";
    add("orders-service", {
      traceId,
      spanId: id(),
      parentSpanId: ordersId,
      name: `SELECT shop.${i === 0 ? "orders" : "order_items"}`,
      kind: 3,
      startMs: t0 + 12 + i * step,
      durationMs: slow ? serverMs * 0.9 : step * 0.6,
      attributes: {
        "db.system.name": "postgresql",
        "db.namespace": "shop",
        "db.query.text": statement,
        "db.operation.name": "SELECT",
        "server.address": "db-1.internal",
      },
    });
  }
  if (route.route === "/api/assistant/ask") {
    const { provider, model } = rng.pick(MODELS);
    const input = rng.int(300, 4000);
    const output = rng.int(50, 900);
    add("assistant", {
      traceId,
      spanId: id(),
      parentSpanId: ordersId,
      name: `chat ${model}`,
      kind: 3,
      startMs: t0 + 20,
      durationMs: serverMs * 0.85,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": model.replace(/-\d{4}-?\d{2}-?\d{2,}$/, ""),
        "gen_ai.response.model": model,
        "gen_ai.usage.input_tokens": input,
        "gen_ai.usage.output_tokens": output,
        "gen_ai.usage.cache_read.input_tokens": rng.chance(0.5) ? Math.floor(input / 2) : 0,
        "gen_ai.response.finish_reasons": ["stop"],
        "session.id": session.id,
      },
    });
  }
  return { byService, error, routeName: route.route, status };
}

interface Session {
  id: string;
  userId: string;
  agent: string;
  page: string;
  country: string;
  referrer: string;
}

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
