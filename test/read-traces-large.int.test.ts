// GET /v1/traces/:traceId on large traces: a 10,000-span tree and a trace cut at 50,000 spans.
// The rest of the traces API: read-traces.int.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { hexId, oversizedTraceRows, type SpanSpec, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";
import { type Body, flatten, type SpanNode } from "./helpers/trace-tree.js";

const NOW = Date.now();
const MIN = 60_000;
const tid = (n: number) => hexId(n, 32);
const sid = (n: number) => hexId(n, 16);
const BIG = tid(0xbeef);

describe("GET /v1/traces", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let projectId: string;

  const get = async (path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return { status: response.status, body: (await response.json()) as Body };
  };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: { email: "large-traces@example.com", password: "correct horse battery" },
    });
    key = setup.apiKey ?? "";
    projectId = setup.projectId;
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("serves a 10,000-span trace: 90 requests of 99 queries each, plus a 999-deep chain", async () => {
    const start = NOW - 5 * MIN;
    const spans: SpanSpec[] = [
      { traceId: BIG, spanId: sid(1), name: "batch", startMs: start, durationMs: 60_000 },
    ];
    let next = 2;
    for (let r = 0; r < 90; r++) {
      const request = next++;
      spans.push({
        traceId: BIG,
        spanId: sid(request),
        parentSpanId: sid(1),
        name: `request ${r}`,
        startMs: start + r * 600,
        durationMs: 500,
      });
      for (let q = 0; q < 99; q++)
        spans.push({
          traceId: BIG,
          spanId: sid(next++),
          parentSpanId: sid(request),
          name: "SELECT",
          startMs: start + r * 600 + q * 5,
          durationMs: 4,
        });
    }
    let parent = 1;
    while (spans.length < 10_000) {
      const id = next++;
      spans.push({
        traceId: BIG,
        spanId: sid(id),
        parentSpanId: sid(parent),
        name: "nested",
        startMs: start + 55_000,
        durationMs: 1,
      });
      parent = id;
    }
    // Sent newest first, in several requests, as exporters flush children before parents.
    spans.reverse();
    for (let i = 0; i < spans.length; i += 2000)
      await sendOtlp(service, key, "traces", tracesBody("batch", spans.slice(i, i + 2000)));

    const { status, body } = await get(`/v1/traces/${BIG}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      spanCount: 10_000,
      orphanCount: 0,
      truncated: false,
      hasRoot: true,
    });
    const all = flatten(body.root);
    expect(all).toHaveLength(10_000);
    expect(Math.max(...all.map((n) => n.depth))).toBe(10_000 - 1 - 90 * 100);
    expect(body.root.children).toHaveLength(91);
    const first = body.root.children[0] as SpanNode;
    expect(first.children.map((c) => c.startOffsetMs)).toEqual(
      Array.from({ length: 99 }, (_, q) => q * 5),
    );
    expect(first.selfTimeMs).toBe(500 - 99 * 4);
    const list = await get(`/v1/traces?span_id=${sid(5000)}`);
    expect(list.body.data[0]).toMatchObject({ traceId: BIG, spanCount: 10_000 });
  });

  it("cuts a trace of more than 50,000 spans to its earliest 50,000, flagged", async () => {
    const huge = tid(0x50000);
    const base = NOW - 7 * MIN;
    const rows = oversizedTraceRows(projectId, huge, base);
    await service.deps.telemetry.insert("traces", rows);
    const { status, body } = await get(`/v1/traces/${huge}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ truncated: true, spanCount: 50_000, hasRoot: true });
    expect(body.root.name).toBe("root");
    expect(body.root.children.at(-1)?.startOffsetMs).toBe(49_999);
    // The same from the span table, for a trace stored before trace_data existed.
    const { telemetry } = service.deps;
    await telemetry.command(
      `ALTER TABLE ${telemetry.database}.trace_data DELETE WHERE trace_id = '${huge}'`,
      { settings: { mutations_sync: 2 } },
    );
    const [left] = await telemetry.query<{ n: number }>(
      `SELECT count() AS n FROM ${telemetry.database}.trace_data WHERE trace_id = '${huge}'`,
    );
    expect(Number(left?.n)).toBe(0);
    const fallback = await get(`/v1/traces/${huge}`);
    expect(fallback.body).toMatchObject({ truncated: true, spanCount: 50_000, hasRoot: true });
    expect(fallback.body.root.children.at(-1)?.startOffsetMs).toBe(49_999);
  }, 60_000);
});
