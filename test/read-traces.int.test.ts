import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, type SpanSpec, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";
import type { Body, SpanNode } from "./helpers/trace-tree.js";

const NOW = Date.now();
const MIN = 60_000;
const tid = (n: number) => hexId(n, 32);
const sid = (n: number) => hexId(n, 16);

/** Fixture traces: A (ok, 3 spans), B (error, 600 ms, two services), C (no root yet), D (1.2 s). */
const A = tid(0xa);
const B = tid(0xb);
const C = tid(0xc);
const D = tid(0xd);

describe("GET /v1/traces", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let otherKey: string;

  const get = async (path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return { status: response.status, body: (await response.json()) as Body };
  };
  const ids = async (query: string) => {
    const { status, body } = await get(`/v1/traces?${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data.map((t) => t.traceId);
  };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "traces@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    otherKey = (await addProjectWithKey(service, setup.orgId, "prj_other_traces")).key;
    const t = (minutesAgo: number) => NOW - minutesAgo * MIN;
    // A: children arrive in a request before their parent, and out of start order.
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [
        {
          traceId: A,
          spanId: sid(3),
          parentSpanId: sid(1),
          name: "SELECT b",
          startMs: t(50) + 60,
          durationMs: 30,
        },
        {
          traceId: A,
          spanId: sid(2),
          parentSpanId: sid(1),
          name: "SELECT a",
          startMs: t(50) + 10,
          durationMs: 40,
        },
      ]),
    );
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [
        {
          traceId: A,
          spanId: sid(1),
          name: "GET /orders",
          kind: 2,
          startMs: t(50),
          durationMs: 100,
          attributes: {
            "http.request.method": "GET",
            "http.route": "/orders",
            "http.response.status_code": 200,
          },
        },
      ]),
    );
    const bSpans: SpanSpec[] = [
      {
        traceId: B,
        spanId: sid(0x11),
        name: "POST /pay",
        kind: 2,
        startMs: t(30),
        durationMs: 600,
      },
    ];
    await sendOtlp(service, key, "traces", tracesBody("api", bSpans));
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("payments", [
        {
          traceId: B,
          spanId: sid(0x12),
          parentSpanId: sid(0x11),
          name: "charge",
          startMs: t(30) + 100,
          durationMs: 450,
          error: true,
          events: [
            {
              name: "exception",
              timeMs: t(30) + 540,
              attributes: { "exception.type": "CardDeclined", "exception.message": "declined" },
            },
          ],
        },
      ]),
    );
    // C: the root has not arrived; one span points at it, one at a span that never comes.
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("worker", [
        {
          traceId: C,
          spanId: sid(0x21),
          parentSpanId: sid(0x20),
          name: "job",
          startMs: t(20),
          durationMs: 50,
        },
        {
          traceId: C,
          spanId: sid(0x22),
          parentSpanId: sid(0x99),
          name: "step",
          startMs: t(20) + 5,
          durationMs: 10,
        },
      ]),
    );
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [
        { traceId: D, spanId: sid(0x31), name: "GET /report", startMs: t(120), durationMs: 1200 },
      ]),
    );
    await sendOtlp(
      service,
      otherKey,
      "traces",
      tracesBody("api", [
        { traceId: tid(0xf), spanId: sid(0xf1), name: "victim", startMs: t(10), durationMs: 5000 },
      ]),
    );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists trace summaries newest first", async () => {
    const { body } = await get("/v1/traces");
    expect(body.data.map((t) => t.traceId)).toEqual([C, B, A, D]);
    expect(body.pagination).toMatchObject({ total: 4, hasMore: false, totalPages: 1 });
    expect(body.data[1]).toEqual({
      traceId: B,
      rootService: "api",
      rootOperation: "POST /pay",
      startTime: new Date(NOW - 30 * MIN).toISOString(),
      durationMs: 600,
      spanCount: 2,
      errorCount: 1,
      status: "error",
      services: ["api", "payments"],
      hasRoot: true,
    });
    expect(body.data[0]).toMatchObject({
      rootService: "worker",
      rootOperation: "job",
      hasRoot: false,
    });
  });

  it("filters by duration, span, parent, service and status", async () => {
    expect(await ids("min_duration=500")).toEqual([B, D]);
    expect(await ids("min_duration=100")).toEqual([B, A, D]);
    expect(await ids("min_duration=1201")).toEqual([]);
    expect(await ids(`span_id=${sid(3)}`)).toEqual([A]);
    expect(await ids(`parent_span_id=${sid(0x11)}`)).toEqual([B]);
    expect(await ids(`parent_span_id=${sid(0x20)}`)).toEqual([C]);
    expect(await ids("service=payments")).toEqual([B]);
    expect(await ids("status=error")).toEqual([B]);
    expect(await ids("status=ok")).toEqual([C, A, D]);
    expect(await ids("time_range=1h")).toEqual([C, B, A]);
  });

  it("sorts and pages", async () => {
    expect(await ids("sort_by=duration")).toEqual([D, B, A, C]);
    expect(await ids("sort_by=duration&sort_order=asc")).toEqual([C, A, B, D]);
    expect(await ids("sort_by=span_count&sort_order=desc")).toEqual([A, C, B, D]);
    expect(await ids("sort_by=start_time&sort_order=asc")).toEqual([D, A, B, C]);
    const page = await get("/v1/traces?limit=1&page=3");
    expect(page.body.data.map((t) => t.traceId)).toEqual([A]);
    expect(page.body.pagination).toMatchObject({ total: 4, totalPages: 4, hasMore: true });
    const past = await get("/v1/traces?limit=2&page=5");
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toMatchObject({ total: 4, hasMore: false });
    for (const bad of [
      "limit=0",
      "limit=1001",
      "min_duration=-1",
      "span_id=abc",
      "status=bad",
      "sort_by=name",
    ]) {
      const { status, body } = await get(`/v1/traces?${bad}`);
      expect(status, bad).toBe(400);
      expect(body.errors?.[0]?.field).toBe(bad.split("=")[0]);
    }
  });

  it("returns the tree with depth, self time and start offsets, whatever the arrival order", async () => {
    const { status, body } = await get(`/v1/traces/${A}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      traceId: A,
      spanCount: 3,
      durationMs: 100,
      hasRoot: true,
      orphanCount: 0,
    });
    const shape = (n: SpanNode): unknown => [
      n.name,
      n.depth,
      n.startOffsetMs,
      n.durationMs,
      n.selfTimeMs,
      n.children.map(shape),
    ];
    expect(shape(body.root)).toEqual([
      "GET /orders",
      0,
      0,
      100,
      30,
      [
        ["SELECT a", 1, 10, 40, 40, []],
        ["SELECT b", 1, 60, 30, 30, []],
      ],
    ]);
    expect(body.root.http).toEqual({
      method: "GET",
      route: "/orders",
      target: "",
      statusCode: 200,
    });
    expect((body.resources as Record<string, string>[])[body.root.resource]).toMatchObject({
      "service.name": "api",
    });
  });

  it("crosses services and keeps span events", async () => {
    const { body } = await get(`/v1/traces/${B}`);
    expect(body).toMatchObject({ errorCount: 1, status: "error", services: ["api", "payments"] });
    const charge = body.root.children[0];
    expect(charge).toMatchObject({ service: "payments", status: "error", depth: 1 });
    expect(charge?.events.map((e) => e.name)).toEqual(["exception"]);
    expect(body.serviceBreakdown).toEqual([
      { service: "api", spanCount: 1, errorCount: 0 },
      { service: "payments", spanCount: 1, errorCount: 1 },
    ]);
  });

  it("names the error groups that occurred in the trace, by span", async () => {
    const { body } = await get(`/v1/traces/${B}`);
    const errors = await get("/v1/errors");
    const group = errors.body.data.find((g) => g.type === "CardDeclined");
    expect(group).toBeDefined();
    expect(body.errorGroups).toEqual([
      {
        errorId: group?.id,
        spanId: sid(0x12),
        type: "CardDeclined",
        message: "declined",
        occurrences: 1,
      },
    ]);
    expect((await get(`/v1/traces/${A}`)).body.errorGroups).toEqual([]);
  });

  it("hangs spans whose parent is missing under the root, flagged", async () => {
    const { body } = await get(`/v1/traces/${C}`);
    expect(body).toMatchObject({ hasRoot: false, orphanCount: 1, spanCount: 2 });
    expect(body.root).toMatchObject({ name: "job", parentSpanId: sid(0x20), orphan: false });
    expect(body.root.children.map((c) => [c.name, c.orphan, c.depth])).toEqual([["step", true, 1]]);
  });

  it("answers concurrent lookups (read together in one statement) each with its own trace", async () => {
    const ids = [A, B, C, D, tid(0x404), A];
    const one = await Promise.all(ids.map((id) => get(`/v1/traces/${id}`)));
    const alone = [];
    for (const id of ids) alone.push(await get(`/v1/traces/${id}`));
    expect(one.map((r) => [r.status, r.body.traceId, r.body.spanCount])).toEqual(
      alone.map((r) => [r.status, r.body.traceId, r.body.spanCount]),
    );
    expect(one.map((r) => r.status)).toEqual([200, 200, 200, 200, 404, 200]);
    expect((await get(`/v1/traces/${B}`, otherKey)).status).toBe(404);
  });

  it("answers 404 for unknown and foreign traces, 400 for malformed ids", async () => {
    expect((await get(`/v1/traces/${tid(0x404)}`)).status).toBe(404);
    expect((await get(`/v1/traces/${tid(0xf)}`)).status).toBe(404);
    expect((await get(`/v1/traces/${A}`, otherKey)).status).toBe(404);
    const bad = await get("/v1/traces/NOT-HEX");
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.field).toBe("traceId");
    expect((await get("/v1/traces", otherKey)).body.data.map((t) => t.traceId)).toEqual([tid(0xf)]);
  });
});
