import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hexId, logsBody, sendOtlp, tracesBody } from "./helpers/otlp.js";
import {
  BASE,
  getJson,
  HOUR,
  MIN,
  SEC,
  sessionLog,
  sessionSpan,
  startSessionsService,
  TRACE_A,
  TRACE_B,
  UA,
} from "./helpers/session-fixtures.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

interface Entry {
  time: string;
  kind: string;
  [field: string]: unknown;
}
interface DetailBody {
  timeline: Entry[];
  truncated: boolean;
  errors?: { field: string }[];
  code?: string;
  [field: string]: unknown;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Project C: sess-big has 1,500 spans at BASE + 2i ms and 700 logs at BASE + 2j + 1 ms (2,200
 * entries); sess-2000 has exactly 2,000 logs.
 */
async function sendProjectC(service: TestService, key: string): Promise<void> {
  for (let from = 0; from < 1500; from += 500) {
    const spans = Array.from({ length: 500 }, (_, k) =>
      sessionSpan(
        {
          traceId: hexId(0xc0, 32),
          spanId: hexId(0x1000 + from + k, 16),
          name: `step ${from + k}`,
          startMs: BASE + 2 * (from + k),
          durationMs: 1,
        },
        "sess-big",
      ),
    );
    await sendOtlp(service, key, "traces", tracesBody("batch", spans));
  }
  const bigLogs = Array.from({ length: 700 }, (_, j) =>
    sessionLog({ timeMs: BASE + 2 * j + 1, severityNumber: 9, body: `line ${j}` }, "sess-big"),
  );
  await sendOtlp(service, key, "logs", logsBody("batch", bigLogs));
  const exact = Array.from({ length: 2000 }, (_, j) =>
    sessionLog({ timeMs: BASE + HOUR + j, severityNumber: 5, body: `tick ${j}` }, "sess-2000"),
  );
  await sendOtlp(service, key, "logs", logsBody("batch", exact));
}

describe("GET /v1/sessions/:sessionId", () => {
  const dir = makeTempDir();
  let service: TestService;
  let fixture: Awaited<ReturnType<typeof startSessionsService>>;
  let key: string;

  const detail = (id: string, apiKey = key) =>
    getJson<DetailBody>(service, `/v1/sessions/${id}`, apiKey);
  /** Rows of one of the project's tables, straight from the engine. */
  const rows = <T>(sql: string, projectId = fixture.projectA) =>
    service.deps.telemetry.query<T>(sql.replaceAll("$db", service.deps.telemetry.database), {
      params: { p: projectId },
    });

  beforeAll(async () => {
    fixture = await startSessionsService(dir.path);
    service = fixture.service;
    key = (await fixture.newKey(fixture.projectA)).key;
    await sendProjectC(
      service,
      (await fixture.newKey(fixture.projectC, { name: "c", role: "ingest" })).key,
    );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("answers the summary, pages, user agent and a timeline merging every kind in time order", async () => {
    const logIds = new Map(
      (
        await rows<{ id: string; message: string }>(
          "SELECT id, message FROM $db.logs WHERE project_id = {p:String}",
        )
      ).map((r) => [r.message, r.id]),
    );
    // errorId is the id of the error group ingestion made for the occurrence.
    const groups = new Map(
      (
        await rows<{ fingerprint: string; message: string }>(
          "SELECT fingerprint, message FROM $db.error_groups FINAL WHERE project_id = {p:String}",
        )
      ).map((r) => [r.message, r.fingerprint]),
    );
    const [ai] = await rows<{ cost_usd: number }>(
      "SELECT cost_usd FROM $db.ai_spans WHERE project_id = {p:String}",
    );
    expect(ai?.cost_usd).toBeGreaterThan(0);
    const { status, body } = await detail("sess-alpha");
    expect(status).toBe(200);
    const { timeline, ...summary } = body;
    expect(summary).toEqual({
      id: "sess-alpha",
      userId: "u1",
      startedAt: iso(BASE),
      lastSeen: iso(BASE + 90 * MIN),
      durationMs: 90 * MIN,
      // Errors: the two exceptions of POST /api/pay (two occurrences), the failed GET /api/flaky
      // and the error log without a span.
      counts: { spans: 5, logs: 2, errors: 4, aiSpans: 1 },
      services: ["api-gateway", "assistant", "web-frontend"],
      browser: "Chrome",
      browserVersion: "131.0.0.0",
      os: "Windows",
      device: "desktop",
      country: "US",
      referrer: "https://www.google.com/search?q=vigil",
      entryPage: "/",
      pageCount: 3,
      userAgent: UA.chromeWindows,
      pages: ["/", "/orders", "/orders/checkout"],
      truncated: false,
    });
    const span = (spanId: number, fields: Record<string, unknown>) => ({
      kind: "span",
      spanId: hexId(spanId, 16),
      parentSpanId: null,
      status: "unset",
      page: null,
      ...fields,
    });
    const noLink = { traceId: null, spanId: null };
    const at30s = iso(BASE + 30 * SEC);
    expect(timeline).toEqual([
      // Each span and log names the page it was sent from (page.path), as sessions count pages.
      span(0x11, {
        time: iso(BASE),
        traceId: TRACE_A,
        name: "GET /",
        service: "web-frontend",
        durationMs: 100,
        page: "/",
      }),
      span(0x12, {
        time: iso(BASE + 10),
        traceId: TRACE_A,
        parentSpanId: hexId(0x11, 16),
        name: "POST /api/pay",
        service: "api-gateway",
        durationMs: 50,
        status: "error",
      }),
      // Each exception event at its own time; the span's other event is not an error.
      ...[
        [40, "PaymentError", "card declined"],
        [45, "RetryError", "retry failed"],
      ].map(([offset, type, message]) => ({
        time: iso(BASE + Number(offset)),
        kind: "error",
        source: "exception",
        errorId: groups.get(String(message)),
        type,
        message,
        service: "api-gateway",
        traceId: TRACE_A,
        spanId: hexId(0x12, 16),
        logId: null,
      })),
      // Same instant: spans by id, then the AI span, the log, and the failed span's error.
      span(0x15, {
        time: at30s,
        traceId: TRACE_B,
        name: "GET /api/health",
        service: "api-gateway",
        durationMs: 2,
      }),
      span(0x16, {
        time: at30s,
        traceId: TRACE_B,
        name: "GET /api/flaky",
        service: "api-gateway",
        durationMs: 5,
        status: "error",
      }),
      {
        time: at30s,
        kind: "ai",
        traceId: TRACE_B,
        spanId: hexId(0x14, 16),
        name: "chat gpt-4o-mini",
        service: "assistant",
        durationMs: 800,
        status: "unset",
        operation: "chat",
        provider: "openai",
        model: "gpt-4o-mini-2024-07-18",
        inputTokens: 100,
        outputTokens: 50,
        totalTokens: 150,
        costUsd: ai?.cost_usd,
        page: null,
      },
      {
        time: at30s,
        kind: "log",
        logId: logIds.get("checkout opened"),
        level: "info",
        message: "checkout opened",
        service: "web-frontend",
        ...noLink,
        page: "/orders/checkout",
      },
      {
        time: at30s,
        kind: "error",
        source: "span_status",
        errorId: null,
        type: null,
        message: "GET /api/flaky",
        service: "api-gateway",
        traceId: TRACE_B,
        spanId: hexId(0x16, 16),
        logId: null,
      },
      {
        time: iso(BASE + 90 * MIN),
        kind: "log",
        logId: logIds.get("payment service unavailable"),
        level: "error",
        message: "payment service unavailable",
        service: "web-frontend",
        ...noLink,
        page: "/orders",
      },
      {
        time: iso(BASE + 90 * MIN),
        kind: "error",
        source: "log",
        errorId: groups.get("payment service unavailable"),
        type: "error",
        message: "payment service unavailable",
        service: "web-frontend",
        ...noLink,
        logId: logIds.get("payment service unavailable"),
      },
    ]);
    expect(groups.size).toBe(4);
    expect(logIds.get("checkout opened")).toMatch(/^log_/);
  });

  it("shows a fatal log as a log and an error, between the session's other items", async () => {
    const { body } = await detail("sess-gamma");
    expect(body.timeline.map((e) => [e.time, e.kind, e.message ?? e.name, e.type ?? null])).toEqual(
      [
        [iso(BASE + 4 * HOUR), "log", "assistant opened", null],
        [iso(BASE + 4 * HOUR + MIN), "span", "GET /api/answer", null],
        [iso(BASE + 4 * HOUR + 10 * MIN), "log", "app crashed", null],
        [iso(BASE + 4 * HOUR + 10 * MIN), "error", "app crashed", "fatal"],
      ],
    );
    expect(body.timeline[2]).toMatchObject({ level: "fatal" });
  });

  it("keeps each project's session of the same id apart", async () => {
    const keyB = (await fixture.newKey(fixture.projectB)).key;
    const { body } = await detail("sess-alpha", keyB);
    expect(body).toMatchObject({ userId: "intruder", country: "JP", pages: ["/secret"] });
    expect(body.timeline.map((e) => [e.kind, e.spanId])).toEqual([
      ["span", hexId(0xb1, 16)],
      ["error", hexId(0xb1, 16)],
    ]);
  });

  it("caps the timeline at 2,000 entries, keeping the earliest", async () => {
    const keyC = (await fixture.newKey(fixture.projectC)).key;
    const big = await detail("sess-big", keyC);
    expect(big.status).toBe(200);
    expect(big.body).toMatchObject({ counts: { spans: 1500, logs: 700 }, truncated: true });
    const timeline = big.body.timeline;
    expect(timeline).toHaveLength(2000);
    // Spans at BASE+2i ms and logs at BASE+2j+1 ms interleave until the logs run out at
    // BASE+1399; the 600 entries after them are spans 700…1299.
    expect(timeline.filter((e) => e.kind === "log")).toHaveLength(700);
    expect(timeline.slice(0, 4).map((e) => [e.kind, e.time])).toEqual([
      ["span", iso(BASE)],
      ["log", iso(BASE + 1)],
      ["span", iso(BASE + 2)],
      ["log", iso(BASE + 3)],
    ]);
    expect(timeline.at(-1)).toMatchObject({
      kind: "span",
      name: "step 1299",
      time: iso(BASE + 2598),
    });
    const times = timeline.map((e) => Date.parse(e.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const exact = await detail("sess-2000", keyC);
    expect(exact.body.truncated).toBe(false);
    expect(exact.body.timeline).toHaveLength(2000);
    expect(exact.body.timeline.at(-1)).toMatchObject({ kind: "log", message: "tick 1999" });
  });

  it("answers 404 for an unknown session and 400 naming sessionId for a malformed one", async () => {
    const unknown = await detail("sess-nope");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    for (const bad of ["has%20space", "semi%3Bcolon", "%C3%BC", "a%2Fb"]) {
      const response = await detail(bad);
      expect(response.status, bad).toBe(400);
      expect(response.body.errors?.map((e) => e.field)).toEqual(["sessionId"]);
    }
    expect((await detail("x".repeat(100))).status).toBe(404);
    expect((await detail("x".repeat(101))).status).toBe(400);
    // Longer than the router's path-parameter limit (200): a 414 problem before any lookup.
    const tooLong = await service.fetch(`/v1/sessions/${"x".repeat(201)}`, {
      headers: { "x-api-key": key },
    });
    expect(tooLong.status).toBe(414);
    expect(tooLong.headers.get("content-type")).toContain("application/problem+json");
  });
});
