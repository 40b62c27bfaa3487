import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/auth/api-keys.js";
import { systemCtx } from "../src/context.js";
import type { ServiceDetail, ServiceList, ServiceMap } from "../src/contracts/services.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, type SpanSpec, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

/** Four checkouts: frontend → orders → (postgresql, payments, api.stripe.com); the 4th fails. */
const START = Math.floor((Date.now() - 10 * 60_000) / 60_000) * 60_000 + 5000;
const TRACES = [1, 2, 3, 4];
const tid = (n: number) => hexId(n, 32);
const sid = (base: number, n: number) => hexId(base + n, 16);

const frontend = (n: number): SpanSpec[] => [
  {
    traceId: tid(n),
    spanId: sid(0x10, n),
    name: "GET /checkout",
    kind: 2,
    startMs: START,
    durationMs: 100,
  },
  {
    traceId: tid(n),
    spanId: sid(0x20, n),
    parentSpanId: sid(0x10, n),
    name: "POST",
    kind: 3,
    startMs: START + 5,
    durationMs: 80,
    attributes: { "http.request.method": "POST", "server.address": "orders" },
  },
];

const orders = (n: number): SpanSpec[] => [
  {
    traceId: tid(n),
    spanId: sid(0x30, n),
    parentSpanId: sid(0x20, n),
    name: "POST /orders",
    kind: 2,
    startMs: START + 6,
    durationMs: 70,
    error: n === 4,
    attributes: {
      "http.request.method": "POST",
      "http.route": "/orders",
      "http.response.status_code": n === 4 ? 500 : 201,
    },
    events:
      n === 4
        ? [
            {
              name: "exception",
              timeMs: START + 70,
              attributes: {
                "exception.type": "PaymentDeclined",
                "exception.message": "card declined",
              },
            },
          ]
        : [],
  },
  {
    traceId: tid(n),
    spanId: sid(0x40, n),
    parentSpanId: sid(0x30, n),
    name: "INSERT orders",
    kind: 3,
    startMs: START + 7,
    durationMs: 5,
    attributes: { "db.system": "postgresql", "db.name": "orders" },
  },
  {
    traceId: tid(n),
    spanId: sid(0x50, n),
    parentSpanId: sid(0x30, n),
    name: "POST",
    kind: 3,
    startMs: START + 20,
    durationMs: 30,
    // The 4th call's server span never arrives; the name it gives is a known service's.
    attributes: { "peer.service": "payments" },
  },
  {
    traceId: tid(n),
    spanId: sid(0x70, n),
    parentSpanId: sid(0x30, n),
    name: "POST",
    kind: 3,
    startMs: START + 55,
    durationMs: 10,
    attributes: { "url.full": "https://api.stripe.com/v1/charges" },
  },
];

const payments = (n: number): SpanSpec[] => [
  {
    traceId: tid(n),
    spanId: sid(0x60, n),
    parentSpanId: sid(0x50, n),
    name: "charge",
    kind: 2,
    startMs: START + 21,
    durationMs: 20,
  },
];

describe("GET /v1/services, /v1/services/:service, /v1/service-map", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let ingestKey: string;
  let otherKey: string;

  const get = async <T>(path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return { status: response.status, body: (await response.json()) as T };
  };
  const ok = async <T>(path: string, apiKey = key) => {
    const { status, body } = await get<T>(path, apiKey);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };

  beforeAll(async () => {
    service = await startTestService(dir.path, { VIGIL_INGEST_SERVICE_EDGE_WAIT_SECONDS: "1" });
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: { email: "services@example.com", password: "correct horse battery" },
    });
    key = setup.apiKey ?? "";
    const system = { deps: service.deps.domain, actor: { kind: "system" as const } };
    ingestKey = (
      await createApiKey({
        ctx: system,
        projectId: setup.projectId,
        input: { name: "i", role: "ingest" },
      })
    ).key;
    otherKey = (await addProjectWithKey(service, setup.orgId, "prj_other_services")).key;
    // Orders first (its server spans before their callers), then frontend, then payments
    // (server spans after their callers): both arrival orders.
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("orders", TRACES.flatMap(orders), {
        "service.instance.id": "orders-1",
        "host.name": "node-a",
        "service.version": "1.2.0",
      }),
    );
    await sendOtlp(service, key, "traces", tracesBody("frontend", TRACES.flatMap(frontend)));
    await sendOtlp(service, key, "traces", tracesBody("payments", [1, 2, 3].flatMap(payments)));
    // The unanswered calls become edges once their wait (1 s) ends.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const map = await ok<ServiceMap>("/v1/service-map");
      if (map.edges.some((e) => e.target === "api.stripe.com")) break;
      if (Date.now() > deadline) throw new Error(`no external edge: ${JSON.stringify(map)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists services by their entry spans, busiest first, with every bucket of the window", async () => {
    const body = await ok<ServiceList>("/v1/services?time_range=1h");
    expect(body.bucketSeconds).toBe(60);
    expect(body.services.map((s) => [s.service, s.requests, s.errors])).toEqual([
      ["frontend", 4, 0],
      ["orders", 4, 1],
      ["payments", 3, 0],
    ]);
    const [front, order] = body.services;
    expect(front).toMatchObject({ errorRate: 0, p50Ms: 100, p95Ms: 100, p99Ms: 100 });
    expect(front?.rate).toBeCloseTo(4 / 3600);
    expect(order).toMatchObject({ errorRate: 0.25, p50Ms: 70 });
    expect(order?.series.length).toBeGreaterThanOrEqual(60);
    const busy = order?.series.filter((p) => p.requests > 0);
    expect(busy).toEqual([
      {
        time: new Date(Math.floor(START / 60_000) * 60_000).toISOString(),
        requests: 4,
        errors: 1,
        p95Ms: 70,
      },
    ]);
  });

  it("draws the map from service_edges: services, a database, an external host", async () => {
    const map = await ok<ServiceMap>("/v1/service-map?time_range=1h");
    // Calls are kept per minute: the map says it covers the whole minutes the hour touches.
    expect(map.from).toMatch(/:00\.000Z$/);
    expect(map.to).toMatch(/:00\.000Z$/);
    expect(Date.parse(map.to) - Date.parse(map.from)).toBeGreaterThanOrEqual(3_600_000);
    expect(Date.parse(map.to) - Date.parse(map.from)).toBeLessThanOrEqual(3_720_000);
    const nodes = Object.fromEntries(map.nodes.map((n) => [n.id, n]));
    expect(Object.keys(nodes).sort()).toEqual([
      "database:postgresql/orders",
      "external:api.stripe.com",
      "frontend",
      "orders",
      "payments",
    ]);
    expect(nodes.orders).toMatchObject({
      kind: "service",
      requests: 4,
      errorRate: 0.25,
      p95Ms: 70,
    });
    expect(nodes["database:postgresql/orders"]).toMatchObject({
      kind: "database",
      name: "postgresql/orders",
      requests: 4,
      p95Ms: 5,
    });
    const edges = map.edges.map((e) => [e.source, e.targetId, e.targetKind, e.calls, e.errors]);
    expect(edges.sort()).toEqual([
      ["frontend", "orders", "service", 4, 1],
      ["orders", "database:postgresql/orders", "database", 4, 0],
      ["orders", "external:api.stripe.com", "external", 4, 0],
      // Three pairs, and the call whose server span never came, by the name it gave.
      ["orders", "payments", "service", 4, 0],
    ]);
    const call = map.edges.find((e) => e.source === "frontend");
    expect(call).toMatchObject({ errorRate: 0.25, p50Ms: 80, p95Ms: 80, p99Ms: 80 });
    expect(call?.rate).toBeCloseTo(4 / 3600);
  });

  it("shows a service's operations, instances, callers, callees and errors", async () => {
    const body = await ok<ServiceDetail>("/v1/services/orders?time_range=1h");
    expect(body.summary).toMatchObject({ service: "orders", requests: 4, errors: 1 });
    expect(body.operations).toEqual([
      expect.objectContaining({
        operation: "POST /orders",
        spanKind: "server",
        httpMethod: "POST",
        httpRoute: "/orders",
        requests: 4,
        errors: 1,
        p50Ms: 70,
      }),
    ]);
    expect(body.instances).toEqual([
      expect.objectContaining({
        instance: "orders-1",
        host: "node-a",
        version: "1.2.0",
        requests: 4,
        errors: 1,
      }),
    ]);
    expect(body.instances[0]?.resource["service.name"]).toBe("orders");
    expect(body.upstream.map((e) => [e.source, e.target, e.calls])).toEqual([
      ["frontend", "orders", 4],
    ]);
    expect(body.downstream.map((e) => [e.target, e.targetKind]).sort()).toEqual([
      ["api.stripe.com", "external"],
      ["payments", "service"],
      ["postgresql/orders", "database"],
    ]);
    expect(body.errors).toEqual([
      expect.objectContaining({
        type: "PaymentDeclined",
        message: "card declined",
        occurrences: 1,
      }),
    ]);
  });

  it("answers a known service with nothing in the window with zeros, an unknown one 404", async () => {
    const past = `from=${new Date(START - 86_400_000).toISOString()}&to=${new Date(START - 82_800_000).toISOString()}`;
    const quiet = await ok<ServiceDetail>(`/v1/services/payments?${past}`);
    expect(quiet.summary).toMatchObject({ requests: 0, p95Ms: null });
    expect(quiet.summary.series.every((p) => p.requests === 0)).toBe(true);
    expect((await get("/v1/services/nope")).status).toBe(404);
    expect((await get(`/v1/services/${encodeURIComponent("a/b c")}`)).status).toBe(404);
  });

  it("keeps projects apart, checks the key's permission and the parameters", async () => {
    expect((await ok<ServiceList>("/v1/services", otherKey)).services).toEqual([]);
    expect((await ok<ServiceMap>("/v1/service-map", otherKey)).nodes).toEqual([]);
    expect((await get("/v1/services/orders", otherKey)).status).toBe(404);
    expect((await get("/v1/services", ingestKey)).status).toBe(403);
    expect((await get("/v1/service-map", "nope")).status).toBe(401);
    const bad = await get<{ errors?: { field: string }[] }>("/v1/services?time_range=soon&x=1");
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.map((e) => e.field)).toContain("time_range");
  });
});
