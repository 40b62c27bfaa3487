/**
 * The fixed TQL conformance dataset: hand-written telemetry for project `proj_main` plus decoy
 * rows for `proj_other` in every table. Nothing here is random; every value is chosen so a
 * reader can work out query results by hand. Decoy rows carry distinctive markers
 * (`other-svc`, `OTHER-PROJECT`, …) and some share ids with the main project (a trace id, an
 * error fingerprint) so that a missing project guard shows up in joins and FINAL reads.
 */
import type { TelemetryExecutor } from "../../src/telemetry/executor.js";
import { HTTP_DURATION_BOUNDS_MS } from "../../src/telemetry/tables.js";

export const MAIN_PROJECT = "proj_main";
export const OTHER_PROJECT = "proj_other";

/** Text that only proj_other rows contain; no TQL result for proj_main may show any of it. */
export const OTHER_PROJECT_MARKERS = [
  "other-svc",
  "OTHER-PROJECT",
  "other-project",
  "fp-other",
  "other.metric",
  "other-model",
  "other-provider",
  "other-host",
  "f0f0f0f0",
] as const;

type Row = Record<string, unknown>;
type Attrs = Record<string, string>;

// ---------------------------------------------------------------------------------------------
// Time helpers: DateTime64(9) text `YYYY-MM-DD hh:mm:ss.nnnnnnnnn`, UTC.

const NS_PER_MS = 1_000_000n;

/** Nanoseconds since the epoch of an ISO time (UTC) plus an offset in (fractional) milliseconds. */
function nanos(iso: string, offsetMs = 0, extraNs = 0n): bigint {
  const base = BigInt(Date.parse(`${iso}Z`)) * NS_PER_MS;
  return base + BigInt(Math.round(offsetMs * 1000)) * 1000n + extraNs;
}

function ns9(value: bigint): string {
  const ms = Number(value / NS_PER_MS);
  const date = new Date(ms).toISOString();
  const fraction = (value % 1_000_000_000n).toString().padStart(9, "0");
  return `${date.slice(0, 10)} ${date.slice(11, 19)}.${fraction}`;
}

/** DateTime64(3) text. */
function ms3(iso: string): string {
  return new Date(`${iso}Z`).toISOString().slice(0, 23).replace("T", " ");
}

// ---------------------------------------------------------------------------------------------
// Ids: trace ids `a…NN` (32 hex), span ids `b…NN` (16 hex); proj_other uses `f0f0f0f0…`.

export const traceId = (n: number): string => `a${n.toString(16).padStart(31, "0")}`;
export const spanId = (n: number): string => `b${n.toString(16).padStart(15, "0")}`;
const otherTraceId = (n: number): string => `f0f0f0f0${n.toString(16).padStart(24, "0")}`;
const otherSpanId = (n: number): string => `f0f0f0f0${n.toString(16).padStart(8, "0")}`;

const SERVICE_VERSIONS: Readonly<Record<string, string>> = {
  "api-gateway": "2.3.1",
  checkout: "1.8.0",
  payments: "3.0.2",
  inventory: "1.2.0",
  "web-frontend": "5.0.0",
  "support-bot": "0.9.0",
  "other-svc": "9.9.9",
};

function resource(service: string, extra: Attrs = {}): Attrs {
  return {
    "service.name": service,
    "service.version": SERVICE_VERSIONS[service] ?? "",
    "deployment.environment": service === "other-svc" ? "OTHER-PROJECT" : "production",
    "host.name": service === "other-svc" ? "other-host" : `${service}-host-1`,
    ...extra,
  };
}

// ---------------------------------------------------------------------------------------------
// traces

interface Event {
  name: string;
  atMs: number;
  attributes?: Attrs;
}

type HttpColumns = [method: string, route: string, target: string, status: number];

interface SpanSpec {
  trace: number;
  span: number;
  parent?: number;
  service: string;
  name: string;
  kind: "server" | "client" | "internal" | "producer" | "consumer";
  /** Offset from the trace's start in ms. */
  at: number;
  durationMs: number;
  http?: HttpColumns;
  status?: "ok" | "error" | "unset";
  statusMessage?: string;
  attributes?: Attrs;
  events?: Event[];
  links?: { trace: number; span: number; attributes: Attrs }[];
  frontend?: boolean;
  session?: string;
  user?: string;
}

/** Start of each trace of proj_main. T1 starts at a time with nanosecond digits. */
const TRACE_STARTS: Readonly<Record<number, [iso: string, extraNs: bigint]>> = {
  1: ["2026-03-01T10:00:00.123", 456789n],
  2: ["2026-03-01T10:05:00", 0n],
  3: ["2026-03-01T10:10:00", 0n],
  4: ["2026-03-01T10:15:00", 0n],
  5: ["2026-03-01T10:20:00", 0n],
  6: ["2026-03-01T11:00:00", 0n],
  7: ["2026-03-01T11:30:00", 0n],
  8: ["2026-03-02T09:00:00", 0n],
  9: ["2026-03-02T09:30:00", 0n],
  10: ["2026-03-02T10:00:00", 0n],
  11: ["2026-03-02T10:30:00", 0n],
  12: ["2026-03-02T11:00:00", 0n],
  13: ["2026-03-02T12:00:00", 0n],
  14: ["2026-03-03T08:00:00", 0n],
};

const exception = (type: string, message: string, atMs: number, stack = ""): Event => ({
  name: "exception",
  atMs,
  attributes: {
    "exception.type": type,
    "exception.message": message,
    ...(stack ? { "exception.stacktrace": stack } : {}),
  },
});

const get = (route: string, target: string, status = 200): HttpColumns => [
  "GET",
  route,
  target,
  status,
];
const post = (route: string, target: string, status = 200): HttpColumns => [
  "POST",
  route,
  target,
  status,
];

const SPANS: readonly SpanSpec[] = [
  // T1: GET an order, all fine.
  {
    trace: 1,
    span: 1,
    service: "api-gateway",
    name: "GET /api/orders/{id}",
    kind: "server",
    at: 0,
    durationMs: 120,
    http: get("/api/orders/{id}", "/api/orders/42"),
    status: "ok",
    user: "user-1",
    attributes: { "http.method": "GET", "net.peer.ip": "10.0.0.1", "user.tier": "gold" },
  },
  {
    trace: 1,
    span: 2,
    parent: 1,
    service: "checkout",
    name: "GET /orders/{id}",
    kind: "server",
    at: 5,
    durationMs: 80,
    http: get("/orders/{id}", "/orders/42"),
    status: "ok",
    attributes: { "http.method": "GET", "order.id": "42" },
  },
  {
    trace: 1,
    span: 3,
    parent: 2,
    service: "checkout",
    name: "SELECT orders",
    kind: "client",
    at: 10,
    durationMs: 30,
    attributes: { "db.system": "postgresql", "db.statement": "SELECT * FROM orders WHERE id = $1" },
  },
  {
    trace: 1,
    span: 4,
    parent: 2,
    service: "inventory",
    name: "GET /stock/{sku}",
    kind: "server",
    at: 45,
    durationMs: 25,
    http: get("/stock/{sku}", "/stock/sku-123"),
    status: "ok",
    attributes: { "http.method": "GET", sku: "sku-123" },
  },
  // T2: POST checkout fails in payments.
  {
    trace: 2,
    span: 5,
    service: "api-gateway",
    name: "POST /api/checkout",
    kind: "server",
    at: 0,
    durationMs: 950,
    http: post("/api/checkout", "/api/checkout", 500),
    status: "error",
    statusMessage: "upstream error",
    user: "user-2",
    session: "sess-2",
    attributes: { "http.method": "POST", "user.tier": "silver" },
  },
  {
    trace: 2,
    span: 6,
    parent: 5,
    service: "checkout",
    name: "POST /checkout",
    kind: "server",
    at: 10,
    durationMs: 900,
    http: post("/checkout", "/checkout", 500),
    status: "error",
    statusMessage: "payment failed",
    attributes: { "http.method": "POST", "order.id": "45" },
    events: [exception("PaymentDeclinedError", "card declined", 500)],
  },
  {
    trace: 2,
    span: 7,
    parent: 6,
    service: "payments",
    name: "POST /charge",
    kind: "client",
    at: 20,
    durationMs: 850,
    http: post("/charge", "/charge", 502),
    status: "error",
    statusMessage: "bad gateway",
    attributes: { "http.method": "POST" },
    events: [exception("TimeoutError", "upstream timed out after 800ms", 600)],
  },
  {
    trace: 2,
    span: 8,
    parent: 7,
    service: "payments",
    name: "charge card",
    kind: "internal",
    at: 30,
    durationMs: 800,
    status: "error",
    statusMessage: "timeout",
    events: [
      { name: "retry", atMs: 300, attributes: { attempt: "1" } },
      { name: "retry", atMs: 550, attributes: { attempt: "2" } },
      exception("TimeoutError", "upstream timed out after 800ms", 800),
    ],
  },
  // T3: a page load in the browser.
  {
    trace: 3,
    span: 9,
    service: "web-frontend",
    name: "documentLoad",
    kind: "internal",
    at: 0,
    durationMs: 1500,
    status: "ok",
    frontend: true,
    session: "sess-1",
    user: "user-1",
    attributes: { "http.url": "https://shop.example.com/products", "browser.name": "Chrome" },
  },
  {
    trace: 3,
    span: 10,
    parent: 9,
    service: "web-frontend",
    name: "GET /api/products",
    kind: "client",
    at: 200,
    durationMs: 300,
    http: get("", "/api/products"),
    status: "ok",
    frontend: true,
    session: "sess-1",
    user: "user-1",
    attributes: { "http.method": "GET" },
  },
  {
    trace: 3,
    span: 11,
    parent: 10,
    service: "api-gateway",
    name: "GET /api/products",
    kind: "server",
    at: 210,
    durationMs: 280,
    http: get("/api/products", "/api/products"),
    status: "ok",
    attributes: { "http.method": "GET" },
  },
  {
    trace: 3,
    span: 12,
    parent: 11,
    service: "inventory",
    name: "GET /products",
    kind: "server",
    at: 220,
    durationMs: 250,
    http: get("/products", "/products"),
    status: "ok",
    attributes: { "http.method": "GET" },
  },
  {
    trace: 3,
    span: 13,
    parent: 12,
    service: "inventory",
    name: "cache.get",
    kind: "internal",
    at: 225,
    durationMs: 0.5,
    status: "ok",
    attributes: { "cache.hit": "true" },
  },
  // T4: DELETE a missing cart.
  {
    trace: 4,
    span: 14,
    service: "api-gateway",
    name: "DELETE /api/cart/{id}",
    kind: "server",
    at: 0,
    durationMs: 15,
    http: ["DELETE", "/api/cart/{id}", "/api/cart/7", 404],
    attributes: { "http.method": "DELETE" },
  },
  {
    trace: 4,
    span: 15,
    parent: 14,
    service: "checkout",
    name: "DELETE /cart/{id}",
    kind: "server",
    at: 3,
    durationMs: 10,
    http: ["DELETE", "/cart/{id}", "/cart/7", 404],
    attributes: { "http.method": "DELETE" },
  },
  // T5: PUT an order with a refund.
  {
    trace: 5,
    span: 16,
    service: "api-gateway",
    name: "PUT /api/orders/{id}",
    kind: "server",
    at: 0,
    durationMs: 400,
    http: ["PUT", "/api/orders/{id}", "/api/orders/43", 200],
    status: "ok",
    attributes: { "http.method": "PUT", "user.tier": "gold" },
  },
  {
    trace: 5,
    span: 17,
    parent: 16,
    service: "checkout",
    name: "PUT /orders/{id}",
    kind: "server",
    at: 5,
    durationMs: 380,
    http: ["PUT", "/orders/{id}", "/orders/43", 200],
    status: "ok",
    attributes: { "http.method": "PUT", "order.id": "43" },
  },
  {
    trace: 5,
    span: 18,
    parent: 17,
    service: "checkout",
    name: "validate order",
    kind: "internal",
    at: 10,
    durationMs: 20,
    status: "ok",
    attributes: { "order.id": "43", "order.items": "3" },
  },
  {
    trace: 5,
    span: 19,
    parent: 17,
    service: "payments",
    name: "POST /refund",
    kind: "server",
    at: 40,
    durationMs: 300,
    http: post("/refund", "/refund"),
    status: "ok",
    attributes: { "http.method": "POST" },
  },
  {
    trace: 5,
    span: 20,
    parent: 19,
    service: "payments",
    name: "ledger.write",
    kind: "internal",
    at: 50,
    durationMs: 250,
    status: "ok",
    events: [
      { name: "lock.acquired", atMs: 51, attributes: { lock: "ledger" } },
      { name: "lock.released", atMs: 299, attributes: { lock: "ledger" } },
    ],
  },
  // T6: health check.
  {
    trace: 6,
    span: 21,
    service: "api-gateway",
    name: "GET /health",
    kind: "server",
    at: 0,
    durationMs: 2,
    http: get("/health", "/health"),
    status: "ok",
    attributes: { "http.method": "GET" },
  },
  // T7: messaging.
  {
    trace: 7,
    span: 22,
    service: "inventory",
    name: "publish stock.updated",
    kind: "producer",
    at: 0,
    durationMs: 5,
    status: "ok",
    attributes: { "messaging.system": "kafka", "messaging.destination.name": "stock.updated" },
  },
  {
    trace: 7,
    span: 23,
    parent: 22,
    service: "checkout",
    name: "consume stock.updated",
    kind: "consumer",
    at: 50,
    durationMs: 45,
    status: "ok",
    attributes: { "messaging.system": "kafka", "messaging.destination.name": "stock.updated" },
    links: [{ trace: 1, span: 1, attributes: { "link.reason": "follows" } }],
  },
  {
    trace: 7,
    span: 24,
    parent: 22,
    service: "inventory",
    name: "reindex",
    kind: "internal",
    at: 100,
    durationMs: 5000,
    status: "ok",
  },
  // T8: a frontend error.
  {
    trace: 8,
    span: 25,
    service: "web-frontend",
    name: "click checkout",
    kind: "internal",
    at: 0,
    durationMs: 600,
    status: "error",
    statusMessage: "TypeError: cart is undefined",
    frontend: true,
    session: "sess-3",
    user: "user-3",
    events: [exception("TypeError", "cart is undefined", 590, "at checkout.js:10")],
  },
  {
    trace: 8,
    span: 26,
    parent: 25,
    service: "web-frontend",
    name: "POST /api/checkout",
    kind: "client",
    at: 10,
    durationMs: 550,
    http: post("", "/api/checkout", 503),
    status: "error",
    frontend: true,
    session: "sess-3",
    user: "user-3",
    attributes: { "http.method": "POST" },
  },
  {
    trace: 8,
    span: 27,
    parent: 26,
    service: "api-gateway",
    name: "POST /api/checkout",
    kind: "server",
    at: 20,
    durationMs: 520,
    http: post("/api/checkout", "/api/checkout", 503),
    status: "error",
    statusMessage: "service unavailable",
    attributes: { "http.method": "POST" },
  },
  // T9: the assistant calls an LLM (its ai_spans rows share these ids).
  {
    trace: 9,
    span: 28,
    service: "checkout",
    name: "POST /api/assistant",
    kind: "server",
    at: 0,
    durationMs: 2500,
    http: post("/api/assistant", "/api/assistant"),
    status: "ok",
    user: "user-2",
    attributes: { "http.method": "POST" },
  },
  {
    trace: 9,
    span: 29,
    parent: 28,
    service: "checkout",
    name: "chat gpt-4o",
    kind: "client",
    at: 100,
    durationMs: 1800,
    status: "ok",
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o",
    },
  },
  {
    trace: 9,
    span: 30,
    parent: 28,
    service: "checkout",
    name: "embeddings text-embedding-3-small",
    kind: "client",
    at: 1950,
    durationMs: 120,
    status: "ok",
    attributes: {
      "gen_ai.operation.name": "embeddings",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "text-embedding-3-small",
    },
  },
  // T10: GET an order again, slower.
  {
    trace: 10,
    span: 31,
    service: "api-gateway",
    name: "GET /api/orders/{id}",
    kind: "server",
    at: 0,
    durationMs: 240,
    http: get("/api/orders/{id}", "/api/orders/44"),
    status: "ok",
    user: "user-4",
    attributes: { "http.method": "GET", "user.tier": "bronze" },
  },
  {
    trace: 10,
    span: 32,
    parent: 31,
    service: "checkout",
    name: "GET /orders/{id}",
    kind: "server",
    at: 5,
    durationMs: 200,
    http: get("/orders/{id}", "/orders/44"),
    status: "ok",
    attributes: { "http.method": "GET", "order.id": "44" },
  },
  {
    trace: 10,
    span: 33,
    parent: 32,
    service: "checkout",
    name: "SELECT orders",
    kind: "client",
    at: 10,
    durationMs: 150,
    attributes: { "db.system": "postgresql", "db.statement": "SELECT * FROM orders WHERE id = $1" },
  },
  {
    trace: 10,
    span: 34,
    parent: 32,
    service: "inventory",
    name: "GET /stock/{sku}",
    kind: "server",
    at: 170,
    durationMs: 20,
    http: get("/stock/{sku}", "/stock/sku-456"),
    status: "ok",
    attributes: { "http.method": "GET", sku: "sku-456" },
  },
  // T11: a checkout that succeeds after a retry; inventory answers 409.
  {
    trace: 11,
    span: 35,
    service: "api-gateway",
    name: "POST /api/checkout",
    kind: "server",
    at: 0,
    durationMs: 700,
    http: post("/api/checkout", "/api/checkout"),
    status: "ok",
    user: "user-2",
    session: "sess-2",
    attributes: { "http.method": "POST", "user.tier": "silver" },
  },
  {
    trace: 11,
    span: 36,
    parent: 35,
    service: "checkout",
    name: "POST /checkout",
    kind: "server",
    at: 10,
    durationMs: 650,
    http: post("/checkout", "/checkout"),
    status: "ok",
    attributes: { "http.method": "POST", "order.id": "46" },
  },
  {
    trace: 11,
    span: 37,
    parent: 36,
    service: "payments",
    name: "POST /charge",
    kind: "client",
    at: 20,
    durationMs: 600,
    http: post("/charge", "/charge"),
    status: "ok",
    attributes: { "http.method": "POST" },
  },
  {
    trace: 11,
    span: 38,
    parent: 37,
    service: "payments",
    name: "charge card",
    kind: "internal",
    at: 25,
    durationMs: 550,
    status: "ok",
    events: [{ name: "retry", atMs: 200, attributes: { attempt: "1" } }],
  },
  {
    trace: 11,
    span: 39,
    parent: 36,
    service: "inventory",
    name: "POST /stock/reserve",
    kind: "server",
    at: 630,
    durationMs: 15,
    http: post("/stock/reserve", "/stock/reserve", 409),
    attributes: { "http.method": "POST", sku: "sku-777" },
  },
  // T12: health check.
  {
    trace: 12,
    span: 40,
    service: "api-gateway",
    name: "GET /health",
    kind: "server",
    at: 0,
    durationMs: 1.5,
    http: get("/health", "/health"),
    status: "ok",
    attributes: { "http.method": "GET" },
  },
  // T13: another page load, cache miss.
  {
    trace: 13,
    span: 41,
    service: "web-frontend",
    name: "documentLoad",
    kind: "internal",
    at: 0,
    durationMs: 2200,
    status: "ok",
    frontend: true,
    session: "sess-4",
    user: "user-4",
    attributes: { "http.url": "https://shop.example.com/products", "browser.name": "Firefox" },
  },
  {
    trace: 13,
    span: 42,
    parent: 41,
    service: "web-frontend",
    name: "GET /api/products",
    kind: "client",
    at: 300,
    durationMs: 400,
    http: get("", "/api/products"),
    status: "ok",
    frontend: true,
    session: "sess-4",
    user: "user-4",
    attributes: { "http.method": "GET" },
  },
  {
    trace: 13,
    span: 43,
    parent: 42,
    service: "api-gateway",
    name: "GET /api/products",
    kind: "server",
    at: 310,
    durationMs: 380,
    http: get("/api/products", "/api/products"),
    status: "ok",
    attributes: { "http.method": "GET" },
  },
  {
    trace: 13,
    span: 44,
    parent: 43,
    service: "inventory",
    name: "GET /products",
    kind: "server",
    at: 320,
    durationMs: 350,
    http: get("/products", "/products"),
    status: "ok",
    attributes: { "http.method": "GET" },
  },
  {
    trace: 13,
    span: 45,
    parent: 44,
    service: "inventory",
    name: "cache.get",
    kind: "internal",
    at: 325,
    durationMs: 1,
    status: "ok",
    attributes: { "cache.hit": "false" },
  },
  {
    trace: 13,
    span: 46,
    parent: 44,
    service: "inventory",
    name: "SELECT products",
    kind: "client",
    at: 330,
    durationMs: 300,
    attributes: { "db.system": "postgresql", "db.statement": "SELECT * FROM products" },
  },
  // T14: inventory breaks.
  {
    trace: 14,
    span: 47,
    service: "inventory",
    name: "GET /stock/{sku}",
    kind: "server",
    at: 0,
    durationMs: 35,
    http: get("/stock/{sku}", "/stock/sku-999", 500),
    status: "error",
    statusMessage: "NullPointerException",
    attributes: { "http.method": "GET", sku: "sku-999" },
    events: [exception("NullPointerException", "stock is null", 30)],
  },
  {
    trace: 14,
    span: 48,
    parent: 47,
    service: "inventory",
    name: "db.query",
    kind: "internal",
    at: 5,
    durationMs: 28,
    status: "error",
    statusMessage: "connection reset",
    attributes: { "db.system": "postgresql" },
    events: [exception("ConnectionResetError", "connection reset by peer", 32)],
  },
];

function traceStart(trace: number): bigint {
  const start = TRACE_STARTS[trace];
  if (!start) throw new Error(`No start for trace ${trace}`);
  return nanos(start[0], 0, start[1]);
}

function spanRow(spec: SpanSpec, ids: { trace: string; span: string; parent: string }): Row {
  const start = traceStart(spec.trace) + BigInt(Math.round(spec.at * 1000)) * 1000n;
  const durationNs = BigInt(Math.round(spec.durationMs * 1000)) * 1000n;
  const [method, route, target, status] = spec.http ?? ["", "", "", 0];
  const events = spec.events ?? [];
  const links = spec.links ?? [];
  const frontend = spec.frontend === true;
  return {
    timestamp: ns9(start),
    end_timestamp: ns9(start + durationNs),
    trace_id: ids.trace,
    span_id: ids.span,
    parent_span_id: ids.parent,
    trace_state: spec.trace === 1 ? "vendor=acme" : "",
    operation_name: spec.name,
    span_kind: spec.kind,
    service_name: spec.service,
    service_version: SERVICE_VERSIONS[spec.service] ?? "",
    duration_ns: Number(durationNs),
    duration_ms: spec.durationMs,
    status: spec.status ?? "unset",
    status_message: spec.statusMessage ?? "",
    http_method: method,
    http_route: route,
    http_target: target,
    http_status_code: status,
    source: frontend ? "frontend" : "backend",
    session_id: spec.session ?? "",
    user_id: spec.user ?? "",
    scope_name: frontend
      ? "@opentelemetry/instrumentation-fetch"
      : "@opentelemetry/instrumentation-http",
    scope_version: frontend ? "0.57.0" : "0.50.0",
    resource_attributes: resource(
      spec.service,
      frontend ? { "telemetry.sdk.language": "webjs" } : {},
    ),
    attributes: spec.attributes ?? {},
    events_timestamp: events.map((event) => ns9(start + BigInt(event.atMs) * NS_PER_MS)),
    events_name: events.map((event) => event.name),
    events_attributes: events.map((event) => event.attributes ?? {}),
    links_trace_id: links.map((link) => traceId(link.trace)),
    links_span_id: links.map((link) => spanId(link.span)),
    links_attributes: links.map((link) => link.attributes),
  };
}

function mainSpans(): Row[] {
  return SPANS.map((spec) => ({
    project_id: MAIN_PROJECT,
    ...spanRow(spec, {
      trace: traceId(spec.trace),
      span: spanId(spec.span),
      parent: spec.parent === undefined ? "" : spanId(spec.parent),
    }),
  }));
}

/** Decoy spans: one shares trace T1's id, so a join by trace_id without the guard would leak. */
function otherSpans(): Row[] {
  const specs: [SpanSpec, { trace: string; span: string; parent: string }][] = [
    [
      {
        trace: 1,
        span: 0,
        service: "other-svc",
        name: "OTHER-PROJECT GET /other-project",
        kind: "server",
        at: 1,
        durationMs: 31337,
        http: get("/other-project", "/other-project", 500),
        status: "error",
        statusMessage: "OTHER-PROJECT failure",
        user: "user-1",
        session: "sess-1",
        attributes: { "http.method": "GET", marker: "OTHER-PROJECT", "user.tier": "gold" },
        events: [exception("OtherProjectError", "OTHER-PROJECT boom", 5)],
      },
      { trace: traceId(1), span: otherSpanId(1), parent: "" },
    ],
    [
      {
        trace: 2,
        span: 0,
        service: "other-svc",
        name: "OTHER-PROJECT child",
        kind: "internal",
        at: 0,
        durationMs: 31.337,
        status: "ok",
        attributes: { marker: "OTHER-PROJECT" },
      },
      { trace: otherTraceId(1), span: otherSpanId(2), parent: spanId(1) },
    ],
    [
      {
        trace: 8,
        span: 0,
        service: "other-svc",
        name: "documentLoad",
        kind: "internal",
        at: 0,
        durationMs: 3133.7,
        status: "error",
        frontend: true,
        session: "sess-other",
        user: "user-other",
        attributes: { marker: "OTHER-PROJECT" },
      },
      { trace: otherTraceId(2), span: otherSpanId(3), parent: "" },
    ],
  ];
  return specs.map(([spec, ids]) => ({ project_id: OTHER_PROJECT, ...spanRow(spec, ids) }));
}

// ---------------------------------------------------------------------------------------------
// logs

const LEVELS = {
  debug: [5, "DEBUG"],
  info: [9, "INFO"],
  warn: [13, "WARN"],
  error: [17, "ERROR"],
  fatal: [21, "FATAL"],
} as const;
type Level = keyof typeof LEVELS;

interface LogSpec {
  at: string;
  service: string;
  level: Level;
  message: string;
  trace?: number;
  span?: number;
  attributes?: Attrs;
  frontend?: boolean;
  session?: string;
  user?: string;
}

const LOGS: readonly LogSpec[] = [
  {
    at: "2026-03-01T09:59:00",
    service: "api-gateway",
    level: "info",
    message: "server started on port 8080",
    attributes: { port: "8080" },
  },
  {
    at: "2026-03-01T10:00:00.200",
    service: "api-gateway",
    level: "info",
    message: "GET /api/orders/42 200",
    trace: 1,
    span: 1,
    attributes: { "http.method": "GET", "http.status_code": "200" },
  },
  {
    at: "2026-03-01T10:00:00.210",
    service: "checkout",
    level: "debug",
    message: "loading order 42",
    trace: 1,
    span: 2,
    attributes: { "order.id": "42" },
  },
  {
    at: "2026-03-01T10:00:00.230",
    service: "checkout",
    level: "debug",
    message: "SELECT * FROM orders WHERE id = 42",
    trace: 1,
    span: 3,
    attributes: { "db.system": "postgresql" },
  },
  {
    at: "2026-03-01T10:00:00.250",
    service: "inventory",
    level: "info",
    message: "stock level for sku-123: 17",
    trace: 1,
    span: 4,
    attributes: { sku: "sku-123" },
  },
  {
    at: "2026-03-01T10:05:00.100",
    service: "api-gateway",
    level: "warn",
    message: "slow upstream response",
    trace: 2,
    span: 5,
    attributes: { duration_ms: "950" },
  },
  {
    at: "2026-03-01T10:05:00.500",
    service: "checkout",
    level: "error",
    message: "payment failed: card declined",
    trace: 2,
    span: 6,
    attributes: { "error.type": "PaymentDeclinedError", "order.id": "45" },
  },
  {
    at: "2026-03-01T10:05:00.600",
    service: "payments",
    level: "error",
    message: "charge timed out after 800ms",
    trace: 2,
    span: 7,
    attributes: { "error.type": "TimeoutError" },
  },
  {
    at: "2026-03-01T10:05:00.700",
    service: "payments",
    level: "warn",
    message: "retrying charge (attempt 1)",
    trace: 2,
    span: 8,
    attributes: { attempt: "1" },
  },
  {
    at: "2026-03-01T10:05:00.750",
    service: "payments",
    level: "warn",
    message: "retrying charge (attempt 2)",
    trace: 2,
    span: 8,
    attributes: { attempt: "2" },
  },
  {
    at: "2026-03-01T10:10:00",
    service: "web-frontend",
    level: "info",
    message: "page view /products",
    trace: 3,
    span: 9,
    frontend: true,
    session: "sess-1",
    user: "user-1",
    attributes: { page: "/products" },
  },
  {
    at: "2026-03-01T10:10:00.300",
    service: "api-gateway",
    level: "info",
    message: "GET /api/products 200",
    trace: 3,
    span: 11,
    attributes: { "http.method": "GET", "http.status_code": "200" },
  },
  {
    at: "2026-03-01T10:10:00.400",
    service: "inventory",
    level: "debug",
    message: "cache hit for products",
    trace: 3,
    span: 13,
    attributes: { "cache.hit": "true" },
  },
  {
    at: "2026-03-01T10:15:00.010",
    service: "api-gateway",
    level: "warn",
    message: "cart 7 not found",
    trace: 4,
    span: 14,
    attributes: { "http.status_code": "404" },
  },
  {
    at: "2026-03-01T10:15:00.012",
    service: "checkout",
    level: "info",
    message: "it's already gone",
    trace: 4,
    span: 15,
  },
  {
    at: "2026-03-01T10:20:00.100",
    service: "checkout",
    level: "info",
    message:
      '{"event":"order.updated","order_id":43,"amount":129.5,"items":["sku-1","sku-2","sku-3"]}',
    trace: 5,
    span: 17,
  },
  {
    at: "2026-03-01T10:20:00.200",
    service: "payments",
    level: "info",
    message: '{"event":"refund.issued","order_id":43,"amount":20.25,"currency":"EUR"}',
    trace: 5,
    span: 19,
  },
  {
    at: "2026-03-01T10:20:00.300",
    service: "payments",
    level: "debug",
    message: "ledger locked",
    trace: 5,
    span: 20,
  },
  {
    at: "2026-03-01T11:00:00.001",
    service: "api-gateway",
    level: "debug",
    message: "health check ok",
    trace: 6,
    span: 21,
  },
  {
    at: "2026-03-01T11:30:00",
    service: "inventory",
    level: "info",
    message: "published stock.updated",
    trace: 7,
    span: 22,
    attributes: { "messaging.system": "kafka" },
  },
  {
    at: "2026-03-01T11:30:05",
    service: "inventory",
    level: "info",
    message: "reindex finished in 5000 ms",
    trace: 7,
    span: 24,
  },
  {
    at: "2026-03-01T11:45:00",
    service: "checkout",
    level: "warn",
    message: "queue depth high: 1200",
    attributes: { queue: "orders" },
  },
  {
    at: "2026-03-01T12:00:00",
    service: "payments",
    level: "info",
    message: "daily settlement started",
  },
  {
    at: "2026-03-01T12:00:30",
    service: "payments",
    level: "info",
    message: "daily settlement finished: 1,234 transactions",
  },
  {
    at: "2026-03-02T09:00:00.010",
    service: "web-frontend",
    level: "error",
    message: "TypeError: cart is undefined",
    trace: 8,
    span: 25,
    frontend: true,
    session: "sess-3",
    user: "user-3",
    attributes: { "error.type": "TypeError" },
  },
  {
    at: "2026-03-02T09:00:00.560",
    service: "api-gateway",
    level: "error",
    message: "upstream checkout unavailable (503)",
    trace: 8,
    span: 27,
    attributes: { "http.status_code": "503" },
  },
  {
    at: "2026-03-02T09:30:00.100",
    service: "checkout",
    level: "info",
    message: '{"event":"assistant.request","model":"gpt-4o","tokens":{"input":1200,"output":350}}',
    trace: 9,
    span: 28,
  },
  {
    at: "2026-03-02T09:30:01.900",
    service: "checkout",
    level: "debug",
    message: "multi-line\nsecond line",
    trace: 9,
    span: 29,
  },
  {
    at: "2026-03-02T10:00:00.100",
    service: "api-gateway",
    level: "info",
    message: "GET /api/orders/44 200",
    trace: 10,
    span: 31,
    attributes: { "http.method": "GET", "http.status_code": "200" },
  },
  {
    at: "2026-03-02T10:00:00.200",
    service: "checkout",
    level: "debug",
    message: "SELECT * FROM orders WHERE id = 44",
    trace: 10,
    span: 33,
    attributes: { "db.system": "postgresql" },
  },
  {
    at: "2026-03-02T10:30:00.100",
    service: "payments",
    level: "info",
    message: "charge ok for order 46",
    trace: 11,
    span: 37,
  },
  {
    at: "2026-03-02T10:30:00.640",
    service: "inventory",
    level: "warn",
    message: "reservation conflict for sku-777",
    trace: 11,
    span: 39,
    attributes: { sku: "sku-777" },
  },
  {
    at: "2026-03-02T11:00:00",
    service: "api-gateway",
    level: "debug",
    message: "health check ok",
    trace: 12,
    span: 40,
  },
  {
    at: "2026-03-02T12:00:00",
    service: "web-frontend",
    level: "info",
    message: "page view /products",
    trace: 13,
    span: 41,
    frontend: true,
    session: "sess-4",
    user: "user-4",
    attributes: { page: "/products" },
  },
  {
    at: "2026-03-02T12:00:00.500",
    service: "inventory",
    level: "debug",
    message: "cache miss for products",
    trace: 13,
    span: 45,
    attributes: { "cache.hit": "false" },
  },
  {
    at: "2026-03-03T08:00:00.010",
    service: "inventory",
    level: "error",
    message: "NullPointerException: stock is null",
    trace: 14,
    span: 47,
    attributes: { "error.type": "NullPointerException" },
  },
  {
    at: "2026-03-03T08:00:00.020",
    service: "inventory",
    level: "fatal",
    message: "database connection reset",
    trace: 14,
    span: 48,
    attributes: { "db.system": "postgresql" },
  },
  {
    at: "2026-03-03T08:00:01",
    service: "inventory",
    level: "fatal",
    message: "shutting down: too many errors",
  },
  {
    at: "2026-03-03T08:05:00",
    service: "api-gateway",
    level: "info",
    message: "path C:\\temp\\vigil.log rotated",
  },
  {
    at: "2026-03-03T08:10:00",
    service: "checkout",
    level: "info",
    message: "discount 50% applied",
    attributes: { "discount.pct": "50" },
  },
  {
    at: "2026-03-03T08:15:00",
    service: "payments",
    level: "warn",
    message: "  padded message  ",
  },
  {
    at: "2026-03-03T08:20:00",
    service: "web-frontend",
    level: "debug",
    message: "Ünïcödé test ✓",
    frontend: true,
    session: "sess-4",
    user: "user-4",
  },
];

const OTHER_LOGS: readonly LogSpec[] = [
  {
    at: "2026-03-01T10:00:00.200",
    service: "other-svc",
    level: "error",
    message: "OTHER-PROJECT secret log",
    trace: 1,
    span: 1,
    session: "sess-1",
    user: "user-1",
    attributes: { marker: "OTHER-PROJECT", "http.method": "GET" },
  },
  {
    at: "2026-03-02T09:30:00.100",
    service: "other-svc",
    level: "info",
    message: '{"event":"OTHER-PROJECT","order_id":31337,"amount":31337.5}',
  },
  {
    at: "2026-03-03T08:00:01",
    service: "other-svc",
    level: "fatal",
    message: "OTHER-PROJECT it's already gone",
  },
];

function logRow(project: string, spec: LogSpec, index: number): Row {
  const time = nanos(spec.at);
  const [severityNumber, severityText] = LEVELS[spec.level];
  const frontend = spec.frontend === true;
  const prefix = project === MAIN_PROJECT ? "log" : "other-project-log";
  return {
    project_id: project,
    id: `${prefix}_${String(index + 1).padStart(4, "0")}`,
    timestamp: ns9(time),
    observed_timestamp: ns9(time + 5n * NS_PER_MS),
    trace_id: spec.trace === undefined ? "" : traceId(spec.trace),
    span_id: spec.span === undefined ? "" : spanId(spec.span),
    trace_flags: spec.trace === undefined ? 0 : 1,
    severity_number: severityNumber,
    severity_text: severityText,
    level: spec.level,
    service_name: spec.service,
    message: spec.message,
    source: frontend ? "frontend" : "backend",
    session_id: spec.session ?? "",
    user_id: spec.user ?? "",
    scope_name: frontend ? "browser-logger" : "pino",
    scope_version: frontend ? "1.1.0" : "9.0.0",
    resource_attributes: resource(spec.service),
    attributes: spec.attributes ?? {},
  };
}

// ---------------------------------------------------------------------------------------------
// metrics

interface MetricSpec {
  at: string;
  name: string;
  type: "gauge" | "sum" | "histogram" | "exponential_histogram" | "summary";
  service: string;
  unit: string;
  description: string;
  temporality?: "delta" | "cumulative" | "unspecified";
  monotonic?: boolean;
  value?: number;
  count?: number;
  sum?: number;
  min?: number;
  max?: number;
  buckets?: number[];
  bounds?: number[];
  exp?: { scale: number; zero: number; offset: number; positive: number[] };
  quantiles?: [number, number][];
  attributes?: Attrs;
}

const cpu = (at: string, service: string, value: number): MetricSpec => ({
  at,
  name: "system.cpu.utilization",
  type: "gauge",
  service,
  unit: "1",
  description: "CPU utilization",
  value,
  attributes: { "host.name": `${service}-host-1`, cpu: "total" },
});

const requests = (at: string, service: string, value: number, route: string): MetricSpec => ({
  at,
  name: "http.server.request.count",
  type: "sum",
  service,
  unit: "{request}",
  description: "Requests served",
  temporality: "cumulative",
  monotonic: true,
  value,
  attributes: { "http.route": route },
});

const METRICS: readonly MetricSpec[] = [
  cpu("2026-03-01T10:00:00", "api-gateway", 0.25),
  cpu("2026-03-01T10:01:00", "api-gateway", 0.5),
  cpu("2026-03-01T10:02:00", "api-gateway", 0.75),
  cpu("2026-03-01T10:00:00", "checkout", 0.125),
  cpu("2026-03-01T10:01:00", "checkout", 0.375),
  cpu("2026-03-01T10:02:00", "checkout", 0.875),
  requests("2026-03-01T10:00:00", "api-gateway", 100, "/api/orders/{id}"),
  requests("2026-03-01T10:01:00", "api-gateway", 150, "/api/orders/{id}"),
  requests("2026-03-01T10:02:00", "api-gateway", 225, "/api/orders/{id}"),
  requests("2026-03-01T10:00:00", "checkout", 40, "/orders/{id}"),
  requests("2026-03-01T10:01:00", "checkout", 55, "/orders/{id}"),
  requests("2026-03-01T10:02:00", "checkout", 60, "/orders/{id}"),
  ...[5, -2, 3].map(
    (value, i): MetricSpec => ({
      at: `2026-03-01T10:0${i}:30`,
      name: "jobs.pending",
      type: "sum",
      service: "checkout",
      unit: "{job}",
      description: "Change in pending jobs",
      temporality: "delta",
      monotonic: false,
      value,
      attributes: { queue: "orders" },
    }),
  ),
  {
    at: "2026-03-01T10:00:00",
    name: "http.server.duration",
    type: "histogram",
    service: "api-gateway",
    unit: "ms",
    description: "Request duration",
    temporality: "delta",
    count: 10,
    sum: 1234.5,
    min: 2,
    max: 950,
    buckets: [1, 2, 3, 3, 1],
    bounds: [10, 50, 100, 500],
    attributes: { "http.route": "/api/orders/{id}" },
  },
  {
    at: "2026-03-01T10:01:00",
    name: "http.server.duration",
    type: "histogram",
    service: "api-gateway",
    unit: "ms",
    description: "Request duration",
    temporality: "delta",
    count: 6,
    sum: 880.25,
    min: 12,
    max: 600,
    buckets: [0, 1, 2, 2, 1],
    bounds: [10, 50, 100, 500],
    attributes: { "http.route": "/api/orders/{id}" },
  },
  {
    at: "2026-03-01T10:00:00",
    name: "http.server.duration",
    type: "histogram",
    service: "payments",
    unit: "ms",
    description: "Request duration",
    temporality: "delta",
    count: 4,
    sum: 2100,
    min: 90,
    max: 850,
    buckets: [0, 0, 1, 2, 1],
    bounds: [10, 50, 100, 500],
    attributes: { "http.route": "/charge" },
  },
  {
    at: "2026-03-01T10:00:00",
    name: "rpc.latency",
    type: "summary",
    service: "payments",
    unit: "ms",
    description: "RPC latency",
    count: 20,
    sum: 500,
    quantiles: [
      [0.5, 20],
      [0.9, 45],
      [0.99, 80],
    ],
    attributes: { "rpc.method": "Charge" },
  },
  {
    at: "2026-03-01T10:00:00",
    name: "db.latency",
    type: "exponential_histogram",
    service: "inventory",
    unit: "ms",
    description: "Database latency",
    temporality: "delta",
    count: 8,
    sum: 64,
    min: 0,
    max: 20,
    exp: { scale: 2, zero: 1, offset: 3, positive: [1, 4, 2] },
    attributes: { "db.system": "postgresql" },
  },
];

const OTHER_METRICS: readonly MetricSpec[] = [
  {
    at: "2026-03-01T10:00:00",
    name: "other.metric",
    type: "gauge",
    service: "other-svc",
    unit: "1",
    description: "OTHER-PROJECT gauge",
    value: 31337,
    attributes: { marker: "OTHER-PROJECT" },
  },
  {
    ...cpu("2026-03-01T10:01:00", "other-svc", 0.99),
    attributes: { "host.name": "other-host", cpu: "total" },
  },
  {
    at: "2026-03-01T10:00:00",
    name: "http.server.duration",
    type: "histogram",
    service: "other-svc",
    unit: "ms",
    description: "OTHER-PROJECT duration",
    temporality: "delta",
    count: 31337,
    sum: 31337,
    min: 1,
    max: 31337,
    buckets: [31337, 0, 0, 0, 0],
    bounds: [10, 50, 100, 500],
    attributes: { "http.route": "/other-project" },
  },
];

function metricRow(project: string, spec: MetricSpec): Row {
  const time = nanos(spec.at);
  const start =
    spec.temporality === "cumulative" ? nanos("2026-03-01T09:00:00") : time - 60_000n * NS_PER_MS;
  return {
    project_id: project,
    timestamp: ns9(time),
    start_timestamp: spec.type === "gauge" ? ns9(time) : ns9(start),
    metric_name: spec.name,
    description: spec.description,
    unit: spec.unit,
    metric_type: spec.type,
    aggregation_temporality: spec.temporality ?? "unspecified",
    is_monotonic: spec.monotonic ?? false,
    service_name: spec.service,
    value: spec.value ?? 0,
    count: spec.count ?? 0,
    sum: spec.sum ?? 0,
    min: spec.min ?? 0,
    max: spec.max ?? 0,
    bucket_counts: spec.buckets ?? [],
    explicit_bounds: spec.bounds ?? [],
    exp_scale: spec.exp?.scale ?? 0,
    exp_zero_count: spec.exp?.zero ?? 0,
    exp_positive_offset: spec.exp?.offset ?? 0,
    exp_positive_bucket_counts: spec.exp?.positive ?? [],
    exp_negative_offset: 0,
    exp_negative_bucket_counts: [],
    quantiles: (spec.quantiles ?? []).map(([q]) => q),
    quantile_values: (spec.quantiles ?? []).map(([, v]) => v),
    scope_name: "@opentelemetry/sdk-metrics",
    scope_version: "1.25.0",
    resource_attributes: resource(spec.service),
    attributes: spec.attributes ?? {},
  };
}

// ---------------------------------------------------------------------------------------------
// ai_spans

interface AiSpec {
  at: string;
  trace: number;
  span: number;
  parent?: number;
  service: string;
  name: string;
  operation: string;
  provider: string;
  requestModel: string;
  responseModel: string;
  input: number;
  output: number;
  cacheRead?: number;
  cacheCreation?: number;
  cost: number;
  durationMs: number;
  status?: "ok" | "error";
  statusMessage?: string;
  finish: string[];
  session?: string;
  user?: string;
}

const AI_SPANS: readonly AiSpec[] = [
  {
    at: "2026-03-02T09:30:00.100",
    trace: 9,
    span: 29,
    parent: 28,
    service: "checkout",
    name: "chat gpt-4o",
    operation: "chat",
    provider: "openai",
    requestModel: "gpt-4o",
    responseModel: "gpt-4o-2024-08-06",
    input: 1200,
    output: 350,
    cacheRead: 200,
    cost: 0.0065,
    durationMs: 1800,
    finish: ["stop"],
    user: "user-2",
  },
  {
    at: "2026-03-02T09:30:01.950",
    trace: 9,
    span: 30,
    parent: 28,
    service: "checkout",
    name: "embeddings text-embedding-3-small",
    operation: "embeddings",
    provider: "openai",
    requestModel: "text-embedding-3-small",
    responseModel: "text-embedding-3-small",
    input: 800,
    output: 0,
    cost: 0.000016,
    durationMs: 120,
    finish: [],
    user: "user-2",
  },
  {
    at: "2026-03-01T14:00:00",
    trace: 20,
    span: 101,
    service: "support-bot",
    name: "invoke_agent support",
    operation: "invoke_agent",
    provider: "anthropic",
    requestModel: "claude-sonnet-4",
    responseModel: "claude-sonnet-4-20250514",
    input: 5000,
    output: 1200,
    cacheRead: 3000,
    cacheCreation: 1000,
    cost: 0.033,
    durationMs: 12000,
    finish: ["end_turn"],
    session: "sess-10",
    user: "user-10",
  },
  {
    at: "2026-03-01T14:00:00.500",
    trace: 20,
    span: 102,
    parent: 101,
    service: "support-bot",
    name: "chat claude-sonnet-4",
    operation: "chat",
    provider: "anthropic",
    requestModel: "claude-sonnet-4",
    responseModel: "claude-sonnet-4-20250514",
    input: 3000,
    output: 800,
    cacheRead: 2000,
    cacheCreation: 1000,
    cost: 0.021,
    durationMs: 8000,
    finish: ["tool_use"],
    session: "sess-10",
    user: "user-10",
  },
  {
    at: "2026-03-01T14:00:08.600",
    trace: 20,
    span: 103,
    parent: 101,
    service: "support-bot",
    name: "execute_tool search_orders",
    operation: "execute_tool",
    provider: "",
    requestModel: "",
    responseModel: "",
    input: 0,
    output: 0,
    cost: 0,
    durationMs: 350,
    finish: [],
    session: "sess-10",
    user: "user-10",
  },
  {
    at: "2026-03-01T14:00:09",
    trace: 20,
    span: 104,
    parent: 101,
    service: "support-bot",
    name: "chat claude-sonnet-4",
    operation: "chat",
    provider: "anthropic",
    requestModel: "claude-sonnet-4",
    responseModel: "claude-sonnet-4-20250514",
    input: 2000,
    output: 400,
    cacheRead: 1000,
    cost: 0.0105,
    durationMs: 3000,
    finish: ["end_turn"],
    session: "sess-10",
    user: "user-10",
  },
  {
    at: "2026-03-01T15:00:00",
    trace: 21,
    span: 105,
    service: "support-bot",
    name: "chat claude-3-5-haiku",
    operation: "chat",
    provider: "anthropic",
    requestModel: "claude-3-5-haiku",
    responseModel: "claude-3-5-haiku-20241022",
    input: 900,
    output: 150,
    cost: 0.00132,
    durationMs: 700,
    finish: ["end_turn"],
    session: "sess-11",
    user: "user-11",
  },
  {
    at: "2026-03-01T15:05:00",
    trace: 21,
    span: 106,
    service: "support-bot",
    name: "chat gpt-4o-mini",
    operation: "chat",
    provider: "openai",
    requestModel: "gpt-4o-mini",
    responseModel: "gpt-4o-mini-2024-07-18",
    input: 1500,
    output: 300,
    cost: 0.000405,
    durationMs: 900,
    finish: ["stop"],
    session: "sess-11",
    user: "user-11",
  },
  {
    at: "2026-03-01T15:10:00",
    trace: 21,
    span: 107,
    service: "support-bot",
    name: "chat gpt-4o-mini",
    operation: "chat",
    provider: "openai",
    requestModel: "gpt-4o-mini",
    responseModel: "gpt-4o-mini-2024-07-18",
    input: 400,
    output: 4096,
    cost: 0.00252,
    durationMs: 15000,
    finish: ["length"],
    session: "sess-11",
    user: "user-11",
  },
  {
    at: "2026-03-01T15:15:00",
    trace: 21,
    span: 108,
    service: "support-bot",
    name: "chat gpt-4o",
    operation: "chat",
    provider: "openai",
    requestModel: "gpt-4o",
    responseModel: "",
    input: 0,
    output: 0,
    cost: 0,
    durationMs: 150,
    status: "error",
    statusMessage: "rate limit exceeded",
    finish: [],
    session: "sess-11",
    user: "user-11",
  },
  {
    at: "2026-03-02T16:00:00",
    trace: 22,
    span: 109,
    service: "checkout",
    name: "chat gemini-2.0-flash",
    operation: "chat",
    provider: "google",
    requestModel: "gemini-2.0-flash",
    responseModel: "gemini-2.0-flash",
    input: 2500,
    output: 600,
    cost: 0.00049,
    durationMs: 1100,
    finish: ["stop"],
  },
  {
    at: "2026-03-02T16:05:00",
    trace: 22,
    span: 110,
    service: "checkout",
    name: "chat gemini-2.0-flash",
    operation: "chat",
    provider: "google",
    requestModel: "gemini-2.0-flash",
    responseModel: "gemini-2.0-flash",
    input: 100,
    output: 20,
    cost: 0.000018,
    durationMs: 300,
    finish: ["stop", "content_filter"],
  },
  {
    at: "2026-03-03T09:00:00",
    trace: 23,
    span: 111,
    service: "checkout",
    name: "embeddings text-embedding-3-small",
    operation: "embeddings",
    provider: "openai",
    requestModel: "text-embedding-3-small",
    responseModel: "text-embedding-3-small",
    input: 12000,
    output: 0,
    cost: 0.00024,
    durationMs: 400,
    finish: [],
  },
  {
    at: "2026-03-03T09:01:00",
    trace: 23,
    span: 112,
    service: "support-bot",
    name: "chat claude-sonnet-4",
    operation: "chat",
    provider: "anthropic",
    requestModel: "claude-sonnet-4",
    responseModel: "",
    input: 100,
    output: 0,
    cost: 0.0003,
    durationMs: 5000,
    status: "error",
    statusMessage: "overloaded",
    finish: [],
    session: "sess-12",
    user: "user-12",
  },
];

const OTHER_AI_SPANS: readonly AiSpec[] = [
  {
    at: "2026-03-02T09:30:00.100",
    trace: 9,
    span: 29,
    service: "other-svc",
    name: "chat other-model",
    operation: "chat",
    provider: "other-provider",
    requestModel: "other-model",
    responseModel: "other-model",
    input: 31337,
    output: 31337,
    cost: 313.37,
    durationMs: 31337,
    finish: ["OTHER-PROJECT"],
    user: "user-2",
  },
  {
    at: "2026-03-01T14:00:00",
    trace: 20,
    span: 101,
    service: "other-svc",
    name: "chat gpt-4o",
    operation: "chat",
    provider: "openai",
    requestModel: "gpt-4o",
    responseModel: "other-model",
    input: 31337,
    output: 1,
    cost: 3.1337,
    durationMs: 1,
    finish: ["stop"],
  },
];

function aiRow(project: string, spec: AiSpec): Row {
  const main = project === MAIN_PROJECT;
  const attributes: Attrs = {
    "gen_ai.operation.name": spec.operation,
    ...(spec.provider ? { "gen_ai.provider.name": spec.provider } : {}),
    ...(spec.requestModel ? { "gen_ai.request.model": spec.requestModel } : {}),
    ...(spec.responseModel ? { "gen_ai.response.model": spec.responseModel } : {}),
    "gen_ai.usage.input_tokens": String(spec.input),
    "gen_ai.usage.output_tokens": String(spec.output),
    ...(main ? {} : { marker: "OTHER-PROJECT" }),
  };
  return {
    project_id: project,
    timestamp: ns9(nanos(spec.at)),
    trace_id: main ? traceId(spec.trace) : otherTraceId(spec.trace),
    span_id: main ? spanId(spec.span) : otherSpanId(spec.span),
    parent_span_id: spec.parent === undefined ? "" : spanId(spec.parent),
    service_name: spec.service,
    operation_name: spec.name,
    ai_operation: spec.operation,
    provider: spec.provider,
    request_model: spec.requestModel,
    response_model: spec.responseModel,
    input_tokens: spec.input,
    output_tokens: spec.output,
    cache_read_tokens: spec.cacheRead ?? 0,
    cache_creation_tokens: spec.cacheCreation ?? 0,
    total_tokens: spec.input + spec.output,
    cost_usd: spec.cost,
    duration_ms: spec.durationMs,
    status: spec.status ?? "ok",
    status_message: spec.statusMessage ?? "",
    finish_reasons: spec.finish,
    session_id: spec.session ?? "",
    user_id: spec.user ?? "",
    resource_attributes: resource(spec.service),
    attributes,
  };
}

// ---------------------------------------------------------------------------------------------
// http_requests

interface HttpSpec {
  minute: string;
  service: string;
  method: string;
  route: string;
  status: number;
  count: number;
  errors: number;
  sum: number;
  min: number;
  max: number;
  /** Bucket index → count; the counts add up to `count`. */
  buckets: Record<number, number>;
}

const HTTP_REQUESTS: readonly HttpSpec[] = [
  {
    minute: "2026-03-01T10:00:00",
    service: "api-gateway",
    method: "GET",
    route: "/api/orders/{id}",
    status: 200,
    count: 12,
    errors: 0,
    sum: 1440,
    min: 40,
    max: 240,
    buckets: { 3: 2, 5: 4, 6: 3, 8: 3 },
  },
  {
    minute: "2026-03-01T10:00:00",
    service: "api-gateway",
    method: "GET",
    route: "/api/orders/{id}",
    status: 200,
    count: 3,
    errors: 0,
    sum: 330,
    min: 90,
    max: 130,
    buckets: { 5: 1, 6: 2 },
  },
  {
    minute: "2026-03-01T10:00:00",
    service: "api-gateway",
    method: "POST",
    route: "/api/checkout",
    status: 500,
    count: 2,
    errors: 2,
    sum: 1900,
    min: 900,
    max: 1000,
    buckets: { 12: 2 },
  },
  {
    minute: "2026-03-01T10:00:00",
    service: "checkout",
    method: "GET",
    route: "/orders/{id}",
    status: 200,
    count: 12,
    errors: 0,
    sum: 960,
    min: 30,
    max: 200,
    buckets: { 3: 3, 4: 4, 5: 3, 7: 2 },
  },
  {
    minute: "2026-03-01T10:01:00",
    service: "api-gateway",
    method: "GET",
    route: "/api/products",
    status: 200,
    count: 30,
    errors: 0,
    sum: 8400,
    min: 100,
    max: 600,
    buckets: { 5: 2, 6: 5, 7: 5, 8: 10, 9: 5, 10: 2, 11: 1 },
  },
  {
    minute: "2026-03-01T10:01:00",
    service: "api-gateway",
    method: "GET",
    route: "/health",
    status: 200,
    count: 6,
    errors: 0,
    sum: 12,
    min: 1,
    max: 3,
    buckets: { 0: 6 },
  },
  {
    minute: "2026-03-01T10:01:00",
    service: "api-gateway",
    method: "DELETE",
    route: "/api/cart/{id}",
    status: 404,
    count: 1,
    errors: 0,
    sum: 15,
    min: 15,
    max: 15,
    buckets: { 2: 1 },
  },
  {
    minute: "2026-03-01T10:01:00",
    service: "payments",
    method: "POST",
    route: "/charge",
    status: 502,
    count: 2,
    errors: 2,
    sum: 1700,
    min: 800,
    max: 900,
    buckets: { 12: 2 },
  },
  {
    minute: "2026-03-01T10:02:00",
    service: "api-gateway",
    method: "GET",
    route: "/api/orders/{id}",
    status: 200,
    count: 8,
    errors: 0,
    sum: 1200,
    min: 50,
    max: 400,
    buckets: { 3: 1, 5: 2, 6: 2, 8: 2, 9: 1 },
  },
  {
    minute: "2026-03-01T10:02:00",
    service: "api-gateway",
    method: "POST",
    route: "/api/checkout",
    status: 200,
    count: 5,
    errors: 0,
    sum: 3500,
    min: 500,
    max: 900,
    buckets: { 10: 1, 11: 3, 12: 1 },
  },
  {
    minute: "2026-03-01T10:02:00",
    service: "payments",
    method: "POST",
    route: "/refund",
    status: 200,
    count: 1,
    errors: 0,
    sum: 300,
    min: 300,
    max: 300,
    buckets: { 8: 1 },
  },
  {
    minute: "2026-03-01T10:02:00",
    service: "checkout",
    method: "PUT",
    route: "/orders/{id}",
    status: 200,
    count: 4,
    errors: 0,
    sum: 1520,
    min: 300,
    max: 450,
    buckets: { 8: 1, 9: 2, 10: 1 },
  },
  {
    minute: "2026-03-02T09:00:00",
    service: "api-gateway",
    method: "POST",
    route: "/api/checkout",
    status: 503,
    count: 3,
    errors: 3,
    sum: 1560,
    min: 500,
    max: 540,
    buckets: { 10: 1, 11: 2 },
  },
  {
    minute: "2026-03-02T09:30:00",
    service: "checkout",
    method: "POST",
    route: "/api/assistant",
    status: 200,
    count: 1,
    errors: 0,
    sum: 2500,
    min: 2500,
    max: 2500,
    buckets: { 15: 1 },
  },
  {
    minute: "2026-03-03T08:00:00",
    service: "inventory",
    method: "GET",
    route: "/stock/{sku}",
    status: 500,
    count: 2,
    errors: 2,
    sum: 70,
    min: 30,
    max: 40,
    buckets: { 3: 2 },
  },
  {
    minute: "2026-03-03T08:00:00",
    service: "inventory",
    method: "GET",
    route: "/stock/{sku}",
    status: 200,
    count: 10,
    errors: 0,
    sum: 250,
    min: 10,
    max: 50,
    buckets: { 1: 1, 2: 6, 3: 3 },
  },
];

const OTHER_HTTP_REQUESTS: readonly HttpSpec[] = [
  {
    minute: "2026-03-01T10:00:00",
    service: "other-svc",
    method: "GET",
    route: "/other-project",
    status: 500,
    count: 31337,
    errors: 31337,
    sum: 31337,
    min: 1,
    max: 31337,
    buckets: { 21: 31337 },
  },
  {
    minute: "2026-03-01T10:00:00",
    service: "api-gateway",
    method: "GET",
    route: "/api/orders/{id}",
    status: 200,
    count: 31337,
    errors: 0,
    sum: 31337,
    min: 1,
    max: 1,
    buckets: { 0: 31337 },
  },
];

function httpRow(project: string, spec: HttpSpec): Row {
  const buckets = Array.from(
    { length: HTTP_DURATION_BOUNDS_MS.length + 1 },
    (_, i) => spec.buckets[i] ?? 0,
  );
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total !== spec.count)
    throw new Error(`http_requests buckets of ${spec.route} add up to ${total}`);
  return {
    project_id: project,
    timestamp: spec.minute.replace("T", " "),
    service_name: spec.service,
    method: spec.method,
    route: spec.route,
    status_code: spec.status,
    request_count: spec.count,
    error_count: spec.errors,
    duration_sum_ms: spec.sum,
    duration_min_ms: spec.min,
    duration_max_ms: spec.max,
    duration_buckets: buckets,
  };
}

// ---------------------------------------------------------------------------------------------
// error_groups: several versions per fingerprint, inserted in separate batches (separate parts)
// so that only FINAL shows the current one. Versions are deliberately not inserted in order.

interface ErrorVersion {
  fingerprint: string;
  version: number | string;
  type: string;
  message: string;
  culprit: string;
  firstSeen: string;
  lastSeen: string;
  count: number;
  status: "active" | "resolved";
  resolvedAt?: string;
  severity: "low" | "medium" | "high" | "critical";
  services: string[];
  trace: string;
  span: string;
  frontend?: boolean;
}

/** 2^60: a version beyond 2^53, returned as a string by the 64-bit rule. */
export const BIG_VERSION = "1152921504606846976";

const fpA1 = {
  fingerprint: "fp-a1",
  type: "PaymentDeclinedError",
  culprit: "checkout/pay.ts in submitPayment",
  firstSeen: "2026-03-01T10:05:00.500",
  trace: traceId(2),
  span: spanId(6),
} as const;
const fpB2 = {
  fingerprint: "fp-b2",
  type: "TimeoutError",
  culprit: "payments/charge.go in Charge",
  firstSeen: "2026-03-01T10:05:00.600",
  trace: traceId(2),
  span: spanId(7),
} as const;

/** Batches in insertion order. */
const ERROR_BATCHES: readonly (readonly ErrorVersion[])[] = [
  [
    {
      ...fpA1,
      version: 1,
      message: "card declined",
      lastSeen: "2026-03-01T10:05:00.500",
      count: 1,
      status: "active",
      severity: "medium",
      services: ["checkout"],
    },
    {
      ...fpB2,
      version: 2,
      message: "upstream timed out after 800ms",
      lastSeen: "2026-03-01T10:05:00.800",
      count: 3,
      status: "active",
      severity: "high",
      services: ["payments"],
    },
    {
      fingerprint: "fp-c3",
      version: 1,
      type: "TypeError",
      message: "cart is undefined",
      culprit: "checkout.js in onClick",
      firstSeen: "2026-03-02T09:00:00.590",
      lastSeen: "2026-03-02T09:00:00.590",
      count: 1,
      status: "active",
      severity: "critical",
      services: ["web-frontend"],
      trace: traceId(8),
      span: spanId(25),
      frontend: true,
    },
    {
      fingerprint: "fp-d4",
      version: 1,
      type: "NullPointerException",
      message: "stock is null",
      culprit: "StockService.java in lookup",
      firstSeen: "2026-03-03T08:00:00.030",
      lastSeen: "2026-03-03T08:00:00.030",
      count: 1,
      status: "active",
      severity: "critical",
      services: ["inventory"],
      trace: traceId(14),
      span: spanId(47),
    },
    {
      fingerprint: "fp-e5",
      version: 1,
      type: "ConnectionResetError",
      message: "connection reset by peer",
      culprit: "db/pool.py in acquire",
      firstSeen: "2026-03-03T08:00:00.037",
      lastSeen: "2026-03-03T08:00:00.037",
      count: 1,
      status: "active",
      severity: "low",
      services: ["inventory"],
      trace: traceId(14),
      span: spanId(48),
    },
    {
      fingerprint: "fp-f6",
      version: 1,
      type: "error",
      message: "charge timed out after 800ms",
      culprit: "",
      firstSeen: "2026-03-01T10:05:00.600",
      lastSeen: "2026-03-01T10:05:00.600",
      count: 1,
      status: "active",
      severity: "medium",
      services: ["payments"],
      trace: traceId(2),
      span: spanId(7),
    },
  ],
  [
    {
      ...fpA1,
      version: 2,
      message: "card declined (insufficient funds)",
      lastSeen: "2026-03-02T10:00:00",
      count: 4,
      status: "active",
      severity: "high",
      services: ["checkout", "payments"],
    },
    {
      ...fpB2,
      version: 1,
      message: "upstream timed out",
      lastSeen: "2026-03-01T10:05:00.600",
      count: 2,
      status: "active",
      severity: "medium",
      services: ["payments"],
    },
    {
      fingerprint: "fp-d4",
      version: 2,
      type: "NullPointerException",
      message: "stock is null",
      culprit: "StockService.java in lookup",
      firstSeen: "2026-03-03T08:00:00.030",
      lastSeen: "2026-03-03T08:30:00",
      count: 2,
      status: "active",
      severity: "critical",
      services: ["inventory"],
      trace: traceId(14),
      span: spanId(47),
    },
    {
      fingerprint: "fp-f6",
      version: 2,
      type: "error",
      message: "charge timed out after 800ms",
      culprit: "",
      firstSeen: "2026-03-01T10:05:00.600",
      lastSeen: "2026-03-01T10:05:00.600",
      count: 1,
      status: "resolved",
      resolvedAt: "2026-03-01T18:00:00",
      severity: "medium",
      services: ["payments"],
      trace: traceId(2),
      span: spanId(7),
    },
    {
      fingerprint: "fp-g7",
      version: BIG_VERSION,
      type: "fatal",
      message: "shutting down: too many errors",
      culprit: "",
      firstSeen: "2026-03-03T08:00:01",
      lastSeen: "2026-03-03T08:00:01",
      count: 1,
      status: "active",
      severity: "critical",
      services: ["inventory"],
      trace: "",
      span: "",
    },
  ],
  [
    {
      ...fpA1,
      version: 3,
      message: "card declined (expired card)",
      lastSeen: "2026-03-03T07:00:00",
      count: 7,
      status: "resolved",
      resolvedAt: "2026-03-03T07:30:00",
      severity: "high",
      services: ["checkout", "payments"],
    },
    {
      fingerprint: "fp-f6",
      version: 3,
      type: "error",
      message: "charge timed out after 800ms",
      culprit: "",
      firstSeen: "2026-03-01T10:05:00.600",
      lastSeen: "2026-03-02T10:30:00",
      count: 2,
      status: "active",
      resolvedAt: "2026-03-01T18:00:00",
      severity: "high",
      services: ["payments"],
      trace: traceId(11),
      span: spanId(37),
    },
  ],
];

const OTHER_ERRORS: readonly ErrorVersion[] = [
  {
    ...fpA1,
    version: 99,
    message: "OTHER-PROJECT crash",
    culprit: "OTHER-PROJECT/main.rs",
    lastSeen: "2026-03-03T09:00:00",
    count: 31337,
    status: "active",
    severity: "critical",
    services: ["other-svc"],
  },
  {
    fingerprint: "fp-other-1",
    version: 1,
    type: "OtherProjectError",
    message: "OTHER-PROJECT boom",
    culprit: "other-svc",
    firstSeen: "2026-03-01T10:00:00",
    lastSeen: "2026-03-01T10:00:00",
    count: 31337,
    status: "resolved",
    resolvedAt: "2026-03-01T11:00:00",
    severity: "low",
    services: ["other-svc"],
    trace: otherTraceId(1),
    span: otherSpanId(1),
  },
];

function errorRow(project: string, spec: ErrorVersion): Row {
  return {
    project_id: project,
    fingerprint: spec.fingerprint,
    exception_type: spec.type,
    message: spec.message,
    stacktrace:
      spec.type === "error" || spec.type === "fatal"
        ? ""
        : `${spec.type}: ${spec.message}\n    at ${spec.culprit}`,
    culprit: spec.culprit,
    first_seen: ms3(spec.firstSeen),
    last_seen: ms3(spec.lastSeen),
    occurrence_count: spec.count,
    status: spec.status,
    resolved_at: spec.resolvedAt ? ms3(spec.resolvedAt) : "1970-01-01 00:00:00.000",
    severity: spec.severity,
    services: spec.services,
    sample_trace_id: spec.trace,
    sample_span_id: spec.span,
    source: spec.frontend ? "frontend" : "backend",
    version: spec.version,
  };
}

// ---------------------------------------------------------------------------------------------

/** Inserts the dataset (both projects) into the executor's telemetry tables. */
export async function loadTqlDataset(executor: TelemetryExecutor): Promise<void> {
  // Decoys first and last, so proj_other parts surround the main ones.
  await executor.insert("traces", otherSpans().slice(0, 1));
  await executor.insert("traces", mainSpans());
  await executor.insert("traces", otherSpans().slice(1));

  await executor.insert("logs", [
    ...LOGS.map((spec, i) => logRow(MAIN_PROJECT, spec, i)),
    ...OTHER_LOGS.map((spec, i) => logRow(OTHER_PROJECT, spec, i)),
  ]);

  await executor.insert("metrics", [
    ...METRICS.map((spec) => metricRow(MAIN_PROJECT, spec)),
    ...OTHER_METRICS.map((spec) => metricRow(OTHER_PROJECT, spec)),
  ]);

  await executor.insert("ai_spans", [
    ...OTHER_AI_SPANS.map((spec) => aiRow(OTHER_PROJECT, spec)),
    ...AI_SPANS.map((spec) => aiRow(MAIN_PROJECT, spec)),
  ]);

  await executor.insert("http_requests", [
    ...HTTP_REQUESTS.map((spec) => httpRow(MAIN_PROJECT, spec)),
    ...OTHER_HTTP_REQUESTS.map((spec) => httpRow(OTHER_PROJECT, spec)),
  ]);

  for (const [index, batch] of ERROR_BATCHES.entries()) {
    const rows = batch.map((spec) => errorRow(MAIN_PROJECT, spec));
    // The decoy shares fp-a1 with a higher version; it goes in with the second batch.
    if (index === 1) rows.push(...OTHER_ERRORS.map((spec) => errorRow(OTHER_PROJECT, spec)));
    await executor.insert("error_groups", rows);
  }
}
