/**
 * One big, realistic trace for bench/waterfall.ts, as OTLP export requests: a batch import
 * through a gateway fanning out to ten services, call chains up to MAX_DEPTH deep, database and
 * cache calls under them, a few failures with exceptions. Seeded: the same seed sends the same
 * tree, ids included.
 */
import { attrs, createRandom, toSpan } from "../src/demo/otlp-json.js";

export const MAX_DEPTH = 20;

const SERVICES = [
  "api-gateway",
  "orders",
  "payments",
  "inventory",
  "search",
  "pricing",
  "notifications",
  "postgres",
  "redis",
  "kafka",
] as const;
type Service = (typeof SERVICES)[number];

const OPERATIONS: Record<Service, readonly string[]> = {
  "api-gateway": ["POST /api/batch/import", "GET /api/items/:id", "POST /api/orders"],
  orders: ["OrdersService.create", "OrdersService.validate", "POST /internal/orders"],
  payments: ["PaymentsService.authorize", "POST /internal/charges", "fraud.score"],
  inventory: ["InventoryService.reserve", "GET /internal/stock/:sku", "stock.recount"],
  search: ["SearchService.index", "GET /internal/search", "tokenize"],
  pricing: ["PricingService.quote", "currency.convert", "discount.apply"],
  notifications: ["NotificationsService.send", "render template", "POST /internal/email"],
  postgres: ["SELECT items", "INSERT order_lines", "UPDATE stock", "SELECT prices"],
  redis: ["GET item:*", "SET cart:*", "MGET prices:*"],
  kafka: ["orders.created publish", "stock.changed publish"],
};
/** Services that only ever answer (leaves): databases, caches, brokers. */
const LEAVES = new Set<Service>(["postgres", "redis", "kafka"]);

const ERRORS = [
  {
    type: "TimeoutError",
    message: "upstream request timed out after 2000 ms",
    stack:
      "TimeoutError: upstream request timed out after 2000 ms\n    at Client.request (/srv/app/src/http/client.ts:88:11)\n    at async InventoryService.reserve (/srv/app/src/inventory/service.ts:41:7)",
  },
  {
    type: "ConstraintViolation",
    message: 'duplicate key value violates unique constraint "order_lines_pkey"',
    stack:
      'ConstraintViolation: duplicate key value violates unique constraint "order_lines_pkey"\n    at Pool.query (/srv/app/node_modules/pg-pool/index.js:45:11)\n    at async OrdersService.create (/srv/app/src/orders/service.ts:102:5)',
  },
];

interface GenSpan {
  spanId: Buffer;
  parent: GenSpan | undefined;
  service: Service;
  name: string;
  kind: number;
  startMs: number;
  durationMs: number;
  depth: number;
  error: (typeof ERRORS)[number] | undefined;
  attributes: Record<string, string | number>;
}

export interface BigTrace {
  traceId: string;
  spanCount: number;
  maxDepth: number;
  errorCount: number;
  services: number;
  /** OTLP/protobuf-ready export requests, `batch` spans each, grouped by service inside. */
  requests: { signal: "traces"; body: Record<string, unknown>; items: number }[];
}

/** A tree of `count` spans starting at `startMs`, lasting about `durationMs`. */
export function bigTrace(
  count: number,
  options: { seed: number; startMs: number; durationMs: number; batch: number },
): BigTrace {
  const rng = createRandom(options.seed);
  const traceId = rng.bytes(16);
  let next = 1;
  const spanId = () => {
    const id = Buffer.alloc(8);
    id.writeUInt32BE((rng.next() * 2 ** 32) >>> 0, 0);
    id.writeUInt32BE(next++, 4);
    return id;
  };
  const root: GenSpan = {
    spanId: spanId(),
    parent: undefined,
    service: "api-gateway",
    name: "POST /api/batch/import",
    kind: 2,
    startMs: options.startMs,
    durationMs: options.durationMs,
    depth: 0,
    error: undefined,
    attributes: { "http.request.method": "POST", "http.route": "/api/batch/import" },
  };
  const spans: GenSpan[] = [root];
  // Spans not expanded yet. Mostly the newest one is expanded next (a call chain going deeper),
  // sometimes any (fan-out at every level).
  const open: GenSpan[] = [root];
  while (spans.length < count && open.length > 0) {
    const at = rng.chance(0.65) ? open.length - 1 : Math.floor(rng.next() * open.length);
    const parent = open[at] as GenSpan;
    open[at] = open[open.length - 1] as GenSpan;
    open.pop();
    const fanOut = parent.depth === 0 ? 40 : rng.int(1, parent.depth < 4 ? 8 : 5);
    const slot = parent.durationMs / fanOut;
    for (let i = 0; i < fanOut && spans.length < count; i++) {
      const service: Service = LEAVES.has(parent.service)
        ? parent.service
        : rng.chance(0.35)
          ? rng.pick(SERVICES)
          : parent.service;
      // The batch's items run one after another; below them, calls overlap (async fan-out),
      // each lasting most of what is left of its caller, as real call chains do.
      const sequential = parent.depth === 0;
      const startMs = sequential
        ? parent.startMs + slot * i + slot * 0.05
        : parent.startMs + parent.durationMs * rng.next() * 0.25;
      const room = parent.startMs + parent.durationMs - startMs;
      const durationMs = Math.max(
        0.005,
        (sequential ? slot * 0.9 : room) * (0.6 + rng.next() * 0.38),
      );
      const error = rng.chance(0.004) ? rng.pick(ERRORS) : undefined;
      const child: GenSpan = {
        spanId: spanId(),
        parent,
        service,
        name: rng.pick(OPERATIONS[service]),
        kind: service === parent.service ? 1 : LEAVES.has(service) ? 3 : 2,
        startMs,
        durationMs: Math.min(durationMs, room),
        depth: parent.depth + 1,
        error,
        attributes: {
          "item.id": `itm_${rng.int(1, 99_999)}`,
          "batch.index": spans.length,
          ...(LEAVES.has(service)
            ? {
                "db.system": service,
                "db.statement": `${rng.pick(OPERATIONS[service])} /* ${rng.int(1, 500)} */`,
              }
            : {
                "code.function": rng.pick(OPERATIONS[service]),
                "thread.name": `worker-${rng.int(1, 16)}`,
              }),
        },
      };
      spans.push(child);
      if (child.depth < MAX_DEPTH && !LEAVES.has(service)) open.push(child);
    }
  }
  const requests: BigTrace["requests"] = [];
  for (let i = 0; i < spans.length; i += options.batch) {
    const byService = new Map<Service, unknown[]>();
    for (const s of spans.slice(i, i + options.batch)) {
      const list = byService.get(s.service) ?? [];
      list.push(
        toSpan({
          traceId,
          spanId: s.spanId,
          ...(s.parent ? { parentSpanId: s.parent.spanId } : {}),
          name: s.name,
          kind: s.kind,
          startMs: s.startMs,
          durationMs: s.durationMs,
          attributes: s.attributes,
          ...(s.error ? { error: s.error } : {}),
        }),
      );
      byService.set(s.service, list);
    }
    requests.push({
      signal: "traces",
      items: Math.min(options.batch, spans.length - i),
      body: {
        resourceSpans: [...byService].map(([service, list]) => ({
          resource: {
            attributes: attrs({
              "service.name": service,
              "service.version": "3.1.0",
              "host.name": `${service}-${1 + (i % 3)}`,
            }),
          },
          scopeSpans: [{ scope: { name: "bench", version: "1.0.0" }, spans: list }],
        })),
      },
    });
  }
  return {
    traceId: traceId.toString("hex"),
    spanCount: spans.length,
    maxDepth: spans.reduce((m, s) => Math.max(m, s.depth), 0),
    errorCount: spans.filter((s) => s.error).length,
    services: new Set(spans.map((s) => s.service)).size,
    requests,
  };
}
