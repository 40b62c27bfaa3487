// One user request of the demo dataset through every tier (see generator.ts): browser, gateway,
// orders service and its queries, the assistant's LLM calls, and the exceptions they raise.
import type { Random, SpanSpec } from "./otlp-json.js";

const ROUTES = [
  { route: "/api/orders", method: "GET", weight: 5, ms: 40 },
  { route: "/api/orders/:id", method: "GET", weight: 4, ms: 25 },
  { route: "/api/orders", method: "POST", weight: 2, ms: 120 },
  { route: "/api/reports/monthly", method: "GET", weight: 1, ms: 1800 },
  { route: "/api/assistant/ask", method: "POST", weight: 1, ms: 900 },
] as const;
const WEIGHTED_ROUTES = ROUTES.flatMap((r) => Array<(typeof ROUTES)[number]>(r.weight).fill(r));
export const PAGES = ["/", "/orders", "/orders/checkout", "/reports", "/assistant"];
export const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
];
export const COUNTRIES = ["US", "DE", "FR", "GB", "IN", "BR", "JP"];
export const REFERRERS = [
  "https://www.google.com/",
  "https://news.ycombinator.com/",
  "",
  "https://t.co/",
];
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

/** A browser session the demo's requests belong to. */
export interface Session {
  id: string;
  userId: string;
  agent: string;
  page: string;
  country: string;
  referrer: string;
}

/** The spans of one user request through every tier, grouped by service. */
export function requestTrace(
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
