import type { TelemetryExecutor } from "../../src/telemetry/executor.js";
import {
  aiRow,
  type Endpoint,
  logRow,
  MIN,
  requestRow,
  type SpanSpec,
  spanRow,
  times,
} from "./ai-rows.js";

/**
 * Hand-built rows for the AI dashboard tests, written straight into the telemetry tables so
 * every count, cost and duration is known exactly. Project A holds one crafted pattern per
 * analyzer (and some rows just below thresholds); project B every pattern just below its
 * threshold, under names A must never see.
 */

// Secrets assembled from parts so that no scanner mistakes this file for a leak.
export const LEAKED = {
  password: "hunter22",
  github: `ghp_${"Ab12Cd34Ef56Gh78Ij90".repeat(2).slice(0, 36)}`,
  aws: `AKIA${"QWERTYUIOPASDFGH"}`,
};

const GPT4O = { provider: "openai", requestModel: "gpt-4o", responseModel: "gpt-4o-2024-08-06" };
const SONNET = {
  provider: "anthropic",
  requestModel: "claude-sonnet-4-5",
  responseModel: "claude-sonnet-4-5-20250929",
};
const MINI = {
  provider: "openai",
  requestModel: "gpt-4o-mini",
  responseModel: "gpt-4o-mini-2024-07-18",
};
const EMBED = {
  provider: "openai",
  requestModel: "text-embedding-3-small",
  responseModel: "text-embedding-3-small",
};

const aiSpansA = (p: string, t0: number) => [
  // gpt-4o: 40 calls in minute 5, 10 failing, uncached 3000-token prompts of one named prompt.
  ...times(40, (i) =>
    aiRow(p, {
      ...GPT4O,
      at: t0 + 5 * MIN + i * 1000,
      trace: 1000 + i,
      operation: "chat gpt-4o",
      input: 3000,
      output: 500,
      cacheCreation: 100,
      cost: 0.02,
      durationMs: 1000,
      error: i < 10,
      attributes: { "gen_ai.prompt.name": "summarize-ticket" },
    }),
  ),
  // Sonnet: 20 calls in minute 6, well cached, 5 empty answers, durations 100…2000 ms.
  ...times(20, (i) =>
    aiRow(p, {
      ...SONNET,
      at: t0 + 6 * MIN + i * 1000,
      trace: 1100 + i,
      operation: "chat claude",
      input: 2000,
      output: i < 5 ? 0 : 400,
      cacheRead: 1500,
      cost: 0.01,
      durationMs: (i + 1) * 100,
    }),
  ),
  // gpt-4o-mini: 100 cheap calls, 7 + 1 cut at the token limit, 5 stopped by the filter.
  ...times(100, (i) =>
    aiRow(p, {
      ...MINI,
      at: t0 + 7 * MIN + i * 100,
      trace: 1200 + i,
      operation: "classify",
      input: 500,
      output: 50,
      cost: 0.0005,
      durationMs: 200,
      finish:
        i < 7 ? ["length"] : i === 7 ? ["MAX_TOKENS"] : i < 13 ? ["content_filter"] : ["stop"],
    }),
  ),
  // Embeddings never produce output tokens; the empty-output analyzer must not count them.
  ...times(30, (i) =>
    aiRow(p, {
      ...EMBED,
      at: t0 + 8 * MIN + i * 100,
      trace: 1400 + i,
      operation: "embeddings text-embedding-3-small",
      aiOperation: "embeddings",
      input: 100,
      output: 0,
      cost: 0.000002,
      durationMs: 20,
      finish: [],
    }),
  ),
];

/** http_requests rows: `[minute, service, method, route, status, count, avgMs, errors?, maxMs?]`. */
type Req = [number, string, string, string, number, number, number, number?, number?];
const requests = (p: string, t0: number, rows: Req[]) =>
  rows.map(([minute, service, method, route, status, count, avgMs, errors, maxMs]) => {
    const e: Endpoint = { at: t0 + minute * MIN, service, method, route, status, count, avgMs };
    return requestRow(p, { ...e, ...(errors ? { errors } : {}), ...(maxMs ? { maxMs } : {}) });
  });

const GW = "api-gateway";
const ORD = "orders-service";
const SPIKES = new Map([
  [30, 60],
  [31, 25],
  [45, 19],
]);
const requestsA = (p: string, t0: number) =>
  requests(p, t0, [
    [10, GW, "GET", "/api/reports/monthly", 200, 30, 1500, 0, 1900],
    [10, ORD, "GET", "/api/reports/monthly", 200, 30, 1400],
    [10, GW, "GET", "/api/orders", 200, 200, 50],
    [11, GW, "POST", "/api/orders", 201, 70, 100],
    [11, GW, "POST", "/api/orders", 500, 30, 100, 30],
    [11, ORD, "POST", "/api/orders", 201, 69, 90],
    [11, ORD, "POST", "/api/orders", 500, 31, 90, 31],
    // Slow but only 19 requests; failing but only 4 errors: neither may be reported.
    [12, GW, "GET", "/api/slowish", 200, 19, 2000],
    [12, GW, "GET", "/api/flaky", 200, 96, 20],
    [12, GW, "GET", "/api/flaky", 503, 4, 20, 4],
    // 401s: 2 a minute, a spike of 50 + 10 403s and 25, and 19 (below 20) at minute 45.
    ...times(60, (m) => m)
      .filter((m) => !SPIKES.has(m))
      .map((m): Req => [m, GW, "POST", "/login", 401, 2, 5]),
    [30, GW, "POST", "/login", 401, 50, 5],
    [30, GW, "GET", "/admin", 403, 10, 5],
    [31, GW, "POST", "/login", 401, 25, 5],
    [45, GW, "POST", "/login", 401, 19, 5],
  ]);

const ITEMS = (i: number) => `SELECT * FROM order_items WHERE order_id = ${100 + i}`;
const tracesA = (p: string, t0: number) => {
  const db = (statement: string, legacy: boolean) =>
    legacy
      ? { "db.system": "postgresql", "db.statement": statement }
      : { "db.system.name": "postgresql", "db.query.text": statement };
  const repeated = (trace: number, parents: number[], statement = ITEMS, legacy = false) =>
    parents.map((parent, i) =>
      spanRow(p, {
        at: t0 + 15 * MIN + trace * 10 + i,
        trace,
        span: trace * 100 + i + 1,
        parent,
        name: "SELECT",
        kind: "client",
        durationMs: 2,
        attributes: db(statement(i), legacy),
      }),
    );
  const server = (minute: number, trace: number, s: Partial<SpanSpec>) =>
    spanRow(p, {
      at: t0 + minute * MIN + trace,
      trace,
      span: trace,
      name: "GET",
      service: GW,
      method: "GET",
      kind: "server",
      ...s,
    });
  return [
    // N+1: 6 and 5 repeats under one parent; 4 repeats, and 3 + 2 under two parents, do not count.
    ...repeated(1, [9, 9, 9, 9, 9, 9]),
    ...repeated(2, [9, 9, 9, 9, 9]),
    ...repeated(3, [9, 9, 9, 9]),
    ...repeated(4, [7, 7, 7, 8, 8]),
    ...repeated(5, [9, 9, 9, 9, 9], () => "SELECT name FROM users WHERE id = $1", true),
    // Sample traces of the slow and of the failing endpoint.
    ...[1200, 3000, 2500, 800].map((durationMs, i) =>
      server(10, 10 + i, { route: "/api/reports/monthly", status: 200, durationMs }),
    ),
    ...[0, 1].map((i) =>
      server(11, 20 + i, {
        service: ORD,
        method: "POST",
        route: "/api/orders",
        status: 500,
        error: true,
      }),
    ),
    // 401s inside the spike, with their client addresses.
    ...[0, 1, 2, 3].map((i) =>
      server(30, 30 + i, {
        method: "POST",
        route: "/login",
        status: 401,
        attributes: { "client.address": i < 3 ? "203.0.113.7" : "198.51.100.2" },
      }),
    ),
    // Probes: 3 × /.env (404), /.git/config answered 200 (seen by two services), 12 traversals, 2 × /wp-admin.
    ...[0, 1, 2].map((i) =>
      server(40, 40 + i, {
        target: "/.env",
        status: 404,
        attributes: { "client.address": "198.51.100.9" },
      }),
    ),
    server(41, 50, { target: "/.git/config", status: 200 }),
    server(41, 50, { span: 51, parent: 50, service: ORD, target: "/.git/config", status: 200 }),
    ...times(11, (i) =>
      server(42, 60 + i, { target: "/static/..%2f..%2fetc/passwd", status: 400 }),
    ),
    server(42, 71, {
      target: "/download",
      status: 400,
      attributes: { "url.query": "file=../../etc/passwd" },
    }),
    ...[0, 1].map((i) => server(43, 80 + i, { target: "/wp-admin/install.php", status: 404 })),
    server(43, 82, { target: "/api/orders", route: "/api/orders", status: 200 }),
  ];
};

const logsA = (p: string, t0: number) => [
  logRow(p, {
    at: t0 + 50 * MIN,
    n: 1,
    message: `connecting to db with password=${LEAKED.password}`,
    trace: 90,
  }),
  logRow(p, {
    at: t0 + 50 * MIN + 1,
    n: 2,
    message: "calling github",
    attributes: { "http.request.header.authorization": `token ${LEAKED.github}` },
  }),
  logRow(p, {
    at: t0 + 50 * MIN + 2,
    n: 3,
    message: `uploading with ${LEAKED.aws}`,
    service: "uploader",
  }),
  logRow(p, { at: t0 + 50 * MIN + 3, n: 4, message: "user login ok" }),
  logRow(p, { at: t0 + 50 * MIN + 4, n: 5, message: "password=****" }),
];

export async function insertProjectA(telemetry: TelemetryExecutor, project: string, t0: number) {
  await telemetry.insert("ai_spans", aiSpansA(project, t0));
  await telemetry.insert("http_requests", requestsA(project, t0));
  await telemetry.insert("traces", tracesA(project, t0));
  await telemetry.insert("logs", logsA(project, t0));
}

export async function insertProjectB(telemetry: TelemetryExecutor, p: string, t0: number) {
  const b = { provider: "b-provider", requestModel: "b-model", responseModel: "b-model-1" };
  const cheap = { provider: "openai", requestModel: "b-cheap", responseModel: "b-cheap" };
  // Not a caching provider: large prompts here are no prompt-cache finding.
  const large = { provider: "b-provider", requestModel: "b-large", responseModel: "b-large" };
  const call = { output: 10, durationMs: 10 };
  await telemetry.insert("ai_spans", [
    // 19 costly calls, 5 failing: too few calls for the model and error analyzers.
    ...times(19, (i) =>
      aiRow(p, {
        ...b,
        ...call,
        at: t0 + 5 * MIN + i * 1000,
        trace: 5000 + i,
        operation: "b-op",
        input: 7999,
        cost: 0.05,
        error: i < 5,
      }),
    ),
    // 40 calls with 1000-token prompts: 2 failing, 2 empty, 2 truncated, 2 filtered (under 3 each).
    ...times(40, (i) =>
      aiRow(p, {
        ...cheap,
        ...call,
        at: t0 + 6 * MIN + i * 1000,
        trace: 5100 + i,
        operation: "b-classify",
        input: 1000,
        output: i >= 2 && i < 4 ? 0 : 10,
        cost: 0.001,
        error: i < 2,
        finish: i >= 4 && i < 6 ? ["length"] : i >= 6 && i < 8 ? ["content_filter"] : ["stop"],
      }),
    ),
    // Large prompts, but 7999 tokens on average, under the 8000-token bar.
    ...times(20, (i) =>
      aiRow(p, {
        ...large,
        ...call,
        at: t0 + 7 * MIN + i * 1000,
        trace: 5200 + i,
        operation: "b-large",
        input: 7999,
        cost: 0,
      }),
    ),
  ]);
  const B = "b-gateway";
  await telemetry.insert(
    "http_requests",
    requests(p, t0, [
      [10, B, "GET", "/b/few", 200, 19, 5000],
      [10, B, "GET", "/b/almost-slow", 200, 100, 499],
      [10, B, "GET", "/b/four-errors", 200, 96, 10],
      [10, B, "GET", "/b/four-errors", 500, 4, 10, 4],
      [10, B, "GET", "/b/low-rate", 200, 191, 10],
      [10, B, "GET", "/b/low-rate", 500, 9, 10, 9],
      [20, B, "POST", "/b/login", 401, 19, 5],
    ]),
  );
  const query = { "db.system.name": "postgresql", "db.query.text": "SELECT 1" };
  await telemetry.insert("traces", [
    ...times(4, (i) =>
      spanRow(p, {
        at: t0 + 15 * MIN + i,
        trace: 6000,
        span: 6001 + i,
        parent: 6000,
        name: "SELECT",
        kind: "client",
        attributes: query,
      }),
    ),
    spanRow(p, {
      at: t0 + 40 * MIN,
      trace: 6001,
      span: 6100,
      name: "GET",
      kind: "server",
      method: "GET",
      target: "/environment/settings",
      status: 200,
    }),
  ]);
  await telemetry.insert("logs", [
    logRow(p, { at: t0 + 50 * MIN, n: 1, message: "password=[REDACTED] for b-user" }),
    logRow(p, {
      at: t0 + 50 * MIN + 1,
      n: 2,
      message: "the task-runner-with-a-very-long-name started",
    }),
  ]);
}
