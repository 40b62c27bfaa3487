import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { encodeRequest } from "../src/ingest/otlp/codec.js";
import { otlpCodec } from "../src/ingest/otlp/proto.js";
import { initialize } from "../src/setup/initialize.js";
import { addKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const MAX_BODY = 64 * 1024;
// A minute ago, whole second, so the stored text is predictable; inside the retention window.
const START_MS = Math.floor((Date.now() - 60_000) / 1000) * 1000;
const START_NS = `${BigInt(START_MS) * 1_000_000n + 123_456_789n}`;
const END_NS = `${BigInt(START_MS) * 1_000_000n + 373_456_789n}`;
const hex = (n: number, byte: string) => byte.repeat(n);

/** One span in OTLP/JSON; ids as hex, times as decimal strings. */
const jsonSpan = (name: string, traceId = hex(16, "ab"), spanId = hex(8, "cd")) => ({
  traceId,
  spanId,
  name,
  kind: 2,
  startTimeUnixNano: START_NS,
  endTimeUnixNano: END_NS,
  attributes: [
    { key: "http.method", value: { stringValue: "POST" } },
    { key: "http.target", value: { stringValue: "/carts/991/items?x=1" } },
    { key: "http.status_code", value: { intValue: "503" } },
  ],
});
const jsonTraces = (spans: object[], service = "cart") => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: service } }] },
      scopeSpans: [{ spans }],
    },
  ],
});

describe("OTLP/HTTP endpoints", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let readOnlyKey: string;

  beforeAll(async () => {
    service = await startTestService(dir.path, { VIGIL_INGEST_MAX_BODY_BYTES: String(MAX_BODY) });
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "otlp@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    readOnlyKey = await addKey(service, setup.projectId, { name: "ro", role: "read_only" });
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
    service.fetch(path, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", ...headers },
      body,
    });
  const spanCount = async (service_name: string) =>
    Number(
      (
        await service.deps.telemetry.query<{ n: string }>(
          "SELECT count() AS n FROM vigil.traces WHERE service_name = {s:String}",
          { params: { s: service_name } },
        )
      )[0]?.n,
    );

  it("accepts OTLP/JSON, keeps nanosecond times, and derives the HTTP summary from old attribute names", async () => {
    const response = await post(
      "/v1/traces",
      JSON.stringify(jsonTraces([jsonSpan("POST /carts")], "cart-json")),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({});
    const [row] = await service.deps.telemetry.query<Record<string, unknown>>(
      `SELECT toString(timestamp) AS ts, duration_ms, http_method, http_target, http_status_code
       FROM vigil.traces WHERE service_name = 'cart-json'`,
    );
    expect(row).toEqual({
      ts: `${new Date(START_MS).toISOString().slice(0, 19).replace("T", " ")}.123456789`,
      duration_ms: 250,
      http_method: "POST",
      http_target: "/carts/991/items",
      http_status_code: 503,
    });
    const [summary] = await service.deps.telemetry.query<Record<string, unknown>>(
      "SELECT route, status_code, request_count, error_count FROM vigil.http_requests WHERE service_name = 'cart-json'",
    );
    expect(summary).toEqual({
      route: "/carts/{id}/items",
      status_code: 503,
      request_count: 1,
      error_count: 1,
    });
  });

  it("accepts gzip-compressed protobuf and answers in protobuf", async () => {
    const body = encodeRequest("traces", {
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "cart-proto" } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId: Buffer.alloc(16, 7),
                  spanId: Buffer.alloc(8, 9),
                  name: "s",
                  startTimeUnixNano: START_NS,
                },
              ],
            },
          ],
        },
      ],
    });
    const response = await post("/v1/traces", gzipSync(body), {
      "content-type": "application/x-protobuf",
      "content-encoding": "gzip",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-protobuf");
    const decoded = otlpCodec("traces").response.decode(
      new Uint8Array(await response.arrayBuffer()),
    );
    expect(decoded.toJSON()).toEqual({});
    expect(await spanCount("cart-proto")).toBe(1);
  });

  it("reports items failing validation as partial success and keeps the rest", async () => {
    const spans = [
      jsonSpan("ok", hex(16, "01"), hex(8, "02")),
      jsonSpan("bad id", "abc", hex(8, "03")),
      jsonSpan("zero", hex(16, "00")),
    ];
    const response = await post("/v1/traces", JSON.stringify(jsonTraces(spans, "cart-partial")));
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      partialSuccess: { rejectedSpans: string; errorMessage: string };
    };
    expect(body.partialSuccess.rejectedSpans).toBe("2");
    expect(body.partialSuccess.errorMessage).toContain("trace_id must be 16 bytes");
    expect(await spanCount("cart-partial")).toBe(1);

    const proto = await post(
      "/v1/logs",
      encodeRequest("logs", {
        resourceLogs: [
          {
            scopeLogs: [{ logRecords: [{ body: { stringValue: "x" }, traceId: Buffer.alloc(3) }] }],
          },
        ],
      }),
      { "content-type": "application/x-protobuf" },
    );
    const decoded = otlpCodec("logs")
      .response.decode(new Uint8Array(await proto.arrayBuffer()))
      .toJSON();
    expect(decoded).toEqual({
      partialSuccess: {
        rejectedLogRecords: "1",
        errorMessage: "1 rejected: trace_id must be 16 bytes",
      },
    });
  });

  it.each([
    [
      "malformed protobuf",
      () =>
        post("/v1/traces", Buffer.from([0x0a, 0xff, 0xff, 0x01]), {
          "content-type": "application/x-protobuf",
        }),
      400,
    ],
    ["malformed JSON", () => post("/v1/traces", '{"resourceSpans": [', {}), 400],
    ["a JSON array", () => post("/v1/logs", "[]", {}), 400],
    [
      "a wrong content type",
      () => post("/v1/traces", "hello", { "content-type": "text/plain" }),
      415,
    ],
    ["an unsupported encoding", () => post("/v1/traces", "{}", { "content-encoding": "br" }), 400],
    [
      "an encoding named like an object key",
      () => post("/v1/traces", "{}", { "content-encoding": "constructor" }),
      400,
    ],
    ["corrupt gzip", () => post("/v1/traces", "not gzip", { "content-encoding": "gzip" }), 400],
    [
      "a body over the limit",
      () =>
        post(
          "/v1/traces",
          JSON.stringify(jsonTraces([jsonSpan("x".repeat(MAX_BODY))], "too-big")),
          {},
        ),
      413,
    ],
    [
      "a gzip body over the limit once decompressed",
      () =>
        post(
          "/v1/traces",
          gzipSync(JSON.stringify(jsonTraces([jsonSpan("y".repeat(MAX_BODY * 4))], "too-big"))),
          { "content-encoding": "gzip" },
        ),
      413,
    ],
    ["no key", () => post("/v1/traces", "{}", { "x-api-key": "" }), 401],
    [
      "an invalid key",
      () => post("/v1/traces", "{}", { "x-api-key": "vgl_notavalidkey000000000000000000" }),
      401,
    ],
  ] as const)(
    "rejects %s with problem+json, writes nothing and keeps serving",
    async (_what, send, status) => {
      const before = await service.deps.telemetry.query<{ n: string }>(
        "SELECT count() AS n FROM vigil.traces",
      );
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const after = await service.deps.telemetry.query<{ n: string }>(
        "SELECT count() AS n FROM vigil.traces",
      );
      expect(after).toEqual(before);
      const ok = await post(
        "/v1/traces",
        JSON.stringify(jsonTraces([jsonSpan("after")], "still-serving")),
      );
      expect(ok.status).toBe(200);
    },
  );

  it("answers 403 to a key without the ingest permission", async () => {
    const response = await post("/v1/metrics", "{}", { "x-api-key": readOnlyKey });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { detail: string }).detail).toContain("'ingest'");
  });

  it("counts ingestion against its own per-key budget, apart from the read API", async () => {
    const response = await post("/v1/traces", JSON.stringify(jsonTraces([])));
    expect(response.headers.get("ratelimit-limit")).toBe("12000");
    const whoami = await service.fetch("/v1/whoami", { headers: { "x-api-key": key } });
    expect(whoami.headers.get("ratelimit-limit")).toBe("100");
  });

  it("groups exceptions and reopens a resolved group when it occurs again (regression)", async () => {
    const exceptionSpan = (spanId: string, orderId: number) => ({
      ...jsonSpan("checkout", hex(16, "0e"), spanId),
      events: [
        {
          name: "exception",
          timeUnixNano: END_NS,
          attributes: [
            { key: "exception.type", value: { stringValue: "PaymentDeclined" } },
            {
              key: "exception.message",
              value: { stringValue: `card declined for order ${orderId}` },
            },
          ],
        },
      ],
    });
    const send = (spanId: string, orderId: number) =>
      post("/v1/traces", JSON.stringify(jsonTraces([exceptionSpan(spanId, orderId)], "payments")));
    expect((await send(hex(8, "a1"), 1001)).status).toBe(200);
    expect((await send(hex(8, "a2"), 2002)).status).toBe(200);
    const groups = () =>
      service.deps.telemetry.query<{
        fingerprint: string;
        status: string;
        occurrence_count: number;
      }>(
        "SELECT fingerprint, status, occurrence_count FROM vigil.error_groups FINAL WHERE exception_type = 'PaymentDeclined'",
      );
    const [group] = await groups();
    expect(group).toMatchObject({ status: "active", occurrence_count: 2 });

    const projectId =
      (
        await service.deps.telemetry.query<{ p: string }>(
          "SELECT any(project_id) AS p FROM vigil.error_groups",
        )
      )[0]?.p ?? "";
    const resolved = await service.deps.ingest.errorGroups.update(
      projectId,
      group?.fingerprint ?? "",
      { status: "resolved" },
      Date.now(),
    );
    expect(resolved?.status).toBe("resolved");
    expect(await groups()).toEqual([
      expect.objectContaining({ status: "resolved", occurrence_count: 2 }),
    ]);

    // The exception's time is a minute ago, before the resolution: late data does not reopen it.
    expect((await send(hex(8, "a3"), 3003)).status).toBe(200);
    expect((await groups())[0]?.status).toBe("resolved");
    const later = { ...exceptionSpan(hex(8, "a4"), 4004) };
    const now = `${BigInt(Date.now() + 1000) * 1_000_000n}`;
    later.events = [{ ...(later.events[0] as (typeof later.events)[number]), timeUnixNano: now }];
    expect((await post("/v1/traces", JSON.stringify(jsonTraces([later], "payments")))).status).toBe(
      200,
    );
    expect(await groups()).toEqual([
      expect.objectContaining({ status: "active", occurrence_count: 4 }),
    ]);
    expect(service.logs.some((l) => l.includes("error group regressed"))).toBe(true);
  });
});
