import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, oversizedTraceRows, type SpanSpec, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const NOW = Date.now();
const MIN = 60_000;
const tid = (n: number) => hexId(n, 32);
const sid = (n: number) => hexId(n, 16);

const A = tid(0xa1);
const ORPHANS = tid(0xa2);
const DEEP = tid(0xa3);
const MANY = tid(0xa4);
const HUGE = tid(0xa5);

interface Columns {
  spanId: string[];
  parent: number[];
  name: number[];
  service: number[];
  kind: number[];
  status: number[];
  startOffsetMs: number[];
  durationMs: number[];
  selfTimeMs: number[];
}
interface Body {
  spans: Columns;
  names: string[];
  kinds: string[];
  statuses: string[];
  services: string[];
  orphans: number[];
  errorGroups: { errorId: string; spanId: string | null; type: string; occurrences: number }[];
  errors?: { field: string }[];
  [key: string]: unknown;
}
interface FullNode {
  spanId: string;
  startOffsetMs: number;
  durationMs: number;
  selfTimeMs: number;
  children: FullNode[];
}

/** GET /v1/traces/:traceId/spans and /v1/traces/:traceId/spans/:spanId. */
describe("GET /v1/traces/:traceId/spans", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let otherKey: string;
  let projectId: string;

  const get = async (path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return { status: response.status, body: (await response.json()) as Body };
  };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "spans@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    projectId = setup.projectId;
    otherKey = (await addProjectWithKey(service, setup.orgId, "prj_other_spans")).key;
    const t0 = NOW - 30 * MIN;
    // A: the children come first and out of start order; one fails with an exception.
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody(
        "payments",
        [
          {
            traceId: A,
            spanId: sid(3),
            parentSpanId: sid(1),
            name: "charge",
            kind: 3,
            startMs: t0 + 50,
            durationMs: 40,
            error: true,
            attributes: { "card.brand": "visa" },
            events: [
              {
                name: "exception",
                timeMs: t0 + 89,
                attributes: {
                  "exception.type": "CardDeclined",
                  "exception.message": "declined",
                  "exception.stacktrace": "CardDeclined: declined\n    at charge (pay.ts:3:9)",
                },
              },
            ],
          },
          {
            traceId: A,
            spanId: sid(2),
            parentSpanId: sid(1),
            name: "SELECT cart",
            startMs: t0 + 10,
            durationMs: 30,
          },
          {
            traceId: A,
            spanId: sid(4),
            parentSpanId: sid(2),
            name: "SELECT cart",
            startMs: t0 + 15,
            durationMs: 5,
          },
        ],
        { "host.name": "pay-1" },
      ),
    );
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [
        {
          traceId: A,
          spanId: sid(1),
          name: "POST /checkout",
          kind: 2,
          startMs: t0,
          durationMs: 100,
        },
      ]),
    );
    // ORPHANS: no root yet; one span's parent never comes.
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("worker", [
        {
          traceId: ORPHANS,
          spanId: sid(0x21),
          parentSpanId: sid(0x20),
          name: "job",
          startMs: t0,
          durationMs: 50,
        },
        {
          traceId: ORPHANS,
          spanId: sid(0x22),
          parentSpanId: sid(0x99),
          name: "step",
          startMs: t0 + 5,
          durationMs: 10,
        },
      ]),
    );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lays the tree out depth first in columns, with tables for repeated text", async () => {
    const { status, body } = await get(`/v1/traces/${A}/spans`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      traceId: A,
      rootService: "api",
      rootOperation: "POST /checkout",
      spanCount: 4,
      errorCount: 1,
      status: "error",
      durationMs: 100,
      hasRoot: true,
      orphanCount: 0,
      truncated: false,
      services: ["api", "payments"],
      serviceBreakdown: [
        { service: "payments", spanCount: 3, errorCount: 1 },
        { service: "api", spanCount: 1, errorCount: 0 },
      ],
      orphans: [],
    });
    const s = body.spans;
    expect(s.spanId).toEqual([sid(1), sid(2), sid(4), sid(3)]);
    expect(s.parent).toEqual([-1, 0, 1, 0]);
    expect(s.name.map((i) => body.names[i])).toEqual([
      "POST /checkout",
      "SELECT cart",
      "SELECT cart",
      "charge",
    ]);
    expect(body.names).toHaveLength(3);
    expect(s.service.map((i) => body.services[i])).toEqual([
      "api",
      "payments",
      "payments",
      "payments",
    ]);
    expect(s.kind.map((i) => body.kinds[i])).toEqual(["server", "internal", "internal", "client"]);
    expect(s.status.map((i) => body.statuses[i])).toEqual(["unset", "unset", "unset", "error"]);
    expect(s.startOffsetMs).toEqual([0, 10, 15, 50]);
    expect(s.durationMs).toEqual([100, 30, 5, 40]);
    expect(s.selfTimeMs).toEqual([30, 25, 5, 40]);
    expect(body.errorGroups).toMatchObject([
      { spanId: sid(3), type: "CardDeclined", occurrences: 1 },
    ]);
  });

  it("marks spans whose parent is missing, under the earliest span", async () => {
    const { body } = await get(`/v1/traces/${ORPHANS}/spans`);
    expect(body).toMatchObject({ hasRoot: false, orphanCount: 1, spanCount: 2, orphans: [1] });
    expect(body.spans.spanId).toEqual([sid(0x21), sid(0x22)]);
    expect(body.spans.parent).toEqual([-1, 0]);
  });

  it("gives one span with everything it recorded", async () => {
    const { status, body } = await get(`/v1/traces/${A}/spans/${sid(3)}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      spanId: sid(3),
      parentSpanId: sid(1),
      name: "charge",
      service: "payments",
      kind: "client",
      status: "error",
      startOffsetMs: 50,
      durationMs: 40,
      attributes: { "card.brand": "visa" },
      resource: { "service.name": "payments", "host.name": "pay-1" },
      links: [],
    });
    expect((body.events as { name: string }[]).map((e) => e.name)).toEqual(["exception"]);
    const groups = await get("/v1/errors");
    const card = (groups.body as unknown as { data: { id: string; type: string }[] }).data.find(
      (g) => g.type === "CardDeclined",
    );
    expect(body.errorGroups).toEqual([
      {
        errorId: card?.id,
        spanId: sid(3),
        type: "CardDeclined",
        message: "declined",
        occurrences: 1,
      },
    ]);
    const root = await get(`/v1/traces/${A}/spans/${sid(1)}`);
    expect(root.body).toMatchObject({ parentSpanId: null, startOffsetMs: 0, errorGroups: [] });
  });

  it("answers 404 for unknown or foreign traces and spans, 400 for malformed ids", async () => {
    expect((await get(`/v1/traces/${tid(0x404)}/spans`)).status).toBe(404);
    expect((await get(`/v1/traces/${A}/spans`, otherKey)).status).toBe(404);
    expect((await get(`/v1/traces/${A}/spans/${sid(0x404)}`)).status).toBe(404);
    expect((await get(`/v1/traces/${A}/spans/${sid(3)}`, otherKey)).status).toBe(404);
    const bad = await get(`/v1/traces/${A}/spans/NOT-HEX`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.field).toBe("spanId");
  });

  it("keeps a 5,000-deep chain and agrees with the nested trace, span for span", async () => {
    const start = NOW - 20 * MIN;
    const chain: SpanSpec[] = Array.from({ length: 5000 }, (_, i) => ({
      traceId: DEEP,
      spanId: sid(0x1000 + i),
      ...(i > 0 ? { parentSpanId: sid(0x1000 + i - 1) } : {}),
      name: "nested",
      startMs: start + i * 0.001,
      durationMs: 10,
    }));
    const fan: SpanSpec[] = [
      { traceId: MANY, spanId: sid(1), name: "batch", startMs: start, durationMs: 900 },
    ];
    for (let r = 0; r < 30; r++) {
      fan.push({
        traceId: MANY,
        spanId: sid(2 + r * 31),
        parentSpanId: sid(1),
        name: `request ${r}`,
        startMs: start + r * 30,
        durationMs: 25,
      });
      for (let q = 0; q < 30; q++)
        fan.push({
          traceId: MANY,
          spanId: sid(3 + r * 31 + q),
          parentSpanId: sid(2 + r * 31),
          name: "SELECT",
          startMs: start + r * 30 + (29 - q) * 0.5,
          durationMs: 0.4,
        });
    }
    for (const spans of [chain, fan].map((s) => [...s].reverse()))
      for (let i = 0; i < spans.length; i += 2000)
        await sendOtlp(service, key, "traces", tracesBody("batch", spans.slice(i, i + 2000)));

    const deep = await get(`/v1/traces/${DEEP}/spans`);
    expect(deep.status).toBe(200);
    expect(deep.body.spans.parent).toEqual(Array.from({ length: 5000 }, (_, i) => i - 1));

    const columns = (await get(`/v1/traces/${MANY}/spans`)).body.spans;
    const nested = (await get(`/v1/traces/${MANY}`)).body as unknown as { root: FullNode };
    const flat: FullNode[] = [];
    const stack = [nested.root];
    while (stack.length > 0) {
      const node = stack.pop() as FullNode;
      flat.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as FullNode);
    }
    expect(columns.spanId).toEqual(flat.map((n) => n.spanId));
    expect(columns.startOffsetMs).toEqual(flat.map((n) => n.startOffsetMs));
    expect(columns.durationMs).toEqual(flat.map((n) => n.durationMs));
    expect(columns.selfTimeMs).toEqual(flat.map((n) => n.selfTimeMs));
  });

  it("cuts a trace of more than 50,000 spans to its earliest 50,000, flagged", async () => {
    const base = NOW - 7 * MIN;
    const rows = oversizedTraceRows(projectId, HUGE, base);
    await service.deps.telemetry.insert("traces", rows);
    const { status, body } = await get(`/v1/traces/${HUGE}/spans`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ truncated: true, spanCount: 50_000, hasRoot: true });
    expect(body.spans.spanId).toHaveLength(50_000);
    expect(body.names[body.spans.name[0] as number]).toBe("root");
    expect(body.spans.startOffsetMs.at(-1)).toBe(49_999);
  }, 60_000);
});
