import { createServer } from "node:net";
import {
  Client,
  compressionAlgorithms,
  credentials,
  Metadata,
  type ServiceError,
  status,
} from "@grpc/grpc-js";
import { ROOT_CONTEXT, SpanKind, trace } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-grpc";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-grpc";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import type { ApiKeyRole } from "../src/contracts/auth.js";
import { encodeRequest } from "../src/ingest/otlp/codec.js";
import type { Signal } from "../src/ingest/otlp/otlp-messages.js";
import { otlpCodec } from "../src/ingest/otlp/proto.js";
import { createOtlpGrpcServer } from "../src/server/grpc/otlp-grpc-server.js";
import { KeyLimiter } from "../src/server/key-limiter.js";
import { initialize } from "../src/setup/initialize.js";
import { addKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const MAX_BODY = 64 * 1024;
const PER_MINUTE = 25;
const SERVICES: Record<Signal, string> = {
  traces: "opentelemetry.proto.collector.trace.v1.TraceService",
  logs: "opentelemetry.proto.collector.logs.v1.LogsService",
  metrics: "opentelemetry.proto.collector.metrics.v1.MetricsService",
};
const NOW_NS = `${BigInt(Date.now() - 60_000) * 1_000_000n}`;

// google.rpc.Status with RetryInfo, by wire shape, to read grpc-status-details-bin.
const rpc = protobuf.Root.fromJSON({
  nested: {
    Status: {
      fields: {
        code: { type: "int32", id: 1 },
        message: { type: "string", id: 2 },
        details: { rule: "repeated", type: "Any", id: 3 },
      },
    },
    Any: { fields: { typeUrl: { type: "string", id: 1 }, value: { type: "bytes", id: 2 } } },
    RetryInfo: { fields: { retryDelay: { type: "Duration", id: 1 } } },
    Duration: { fields: { seconds: { type: "int64", id: 1 }, nanos: { type: "int32", id: 2 } } },
  },
});

const spans = (service: string, list: object[]) => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: service } }] },
      scopeSpans: [{ spans: list }],
    },
  ],
});
const span = (name: string, traceId: Buffer, spanId: Buffer) => ({
  traceId,
  spanId,
  name,
  kind: 2,
  startTimeUnixNano: NOW_NS,
  endTimeUnixNano: NOW_NS,
});
const id = (bytes: number, fill: number) => Buffer.alloc(bytes, fill);

interface Answer {
  error?: ServiceError;
  response?: Record<string, unknown>;
}

describe("OTLP/gRPC receiver", () => {
  const dir = makeTempDir();
  let service: TestService;
  let address: string;
  let key: string;
  let newKey: (role: ApiKeyRole) => Promise<string>;
  const clients: Client[] = [];
  const saved = { ...process.env };

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_INGEST_MAX_BODY_BYTES: String(MAX_BODY),
      VIGIL_INGEST_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
    });
    address = (service.grpcUrl ?? "").replace(/^http:\/\//, "");
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "grpc@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    newKey = (role) => addKey(service, setup.projectId, { role });
    // How users configure SDKs for gRPC: the endpoint and the key as a header.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = service.grpcUrl;
    process.env.OTEL_EXPORTER_OTLP_HEADERS = `x-api-key=${key}`;
  });
  afterAll(async () => {
    process.env = saved;
    for (const client of clients) client.close();
    await service?.stop();
    dir.remove();
  });

  function client(gzip = false): Client {
    const made = new Client(
      address,
      credentials.createInsecure(),
      gzip ? { "grpc.default_compression_algorithm": compressionAlgorithms.gzip } : {},
    );
    clients.push(made);
    return made;
  }

  /** One Export call with a raw grpc-js client: the exact status and response. */
  function exportCall(
    signal: Signal,
    body: Uint8Array,
    apiKey: string | undefined,
    via: Client = client(),
  ): Promise<Answer> {
    const metadata = new Metadata();
    if (apiKey !== undefined) metadata.set("x-api-key", apiKey);
    return new Promise((resolve) => {
      via.makeUnaryRequest(
        `/${SERVICES[signal]}/Export`,
        (bytes: Uint8Array) => Buffer.from(bytes),
        (bytes: Buffer) => otlpCodec(signal).response.decode(bytes).toJSON(),
        body,
        metadata,
        { deadline: Date.now() + 15_000 },
        (error, response) => resolve(error ? { error } : { response: response ?? {} }),
      );
    });
  }

  const get = async <T>(path: string): Promise<T> => {
    const response = await service.fetch(path, { headers: { "x-api-key": key } });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  async function sendTrace(exporter: SpanExporter, serviceName: string) {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": serviceName }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer("grpc-tests");
    const root = tracer.startSpan("GET /orders/:id", {
      kind: SpanKind.SERVER,
      attributes: { "http.request.method": "GET", "http.route": "/orders/:id" },
    });
    tracer
      .startSpan("SELECT orders", { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, root))
      .end();
    root.end();
    await provider.forceFlush();
    await provider.shutdown();
    return root.spanContext().traceId;
  }

  it.each([
    ["plain", "none", "checkout-grpc"],
    ["gzip-compressed", "gzip", "checkout-grpc-gzip"],
  ] as const)(
    "stores spans sent by the SDK's gRPC trace exporter (%s), readable through /v1/traces",
    async (_how, compression, serviceName) => {
      process.env.OTEL_EXPORTER_OTLP_COMPRESSION = compression;
      const traceId = await sendTrace(new OTLPTraceExporter(), serviceName);
      const detail = await get<{ spanCount: number; rootService: string; rootOperation: string }>(
        `/v1/traces/${traceId}`,
      );
      expect(detail).toMatchObject({
        spanCount: 2,
        rootService: serviceName,
        rootOperation: "GET /orders/:id",
      });
    },
  );

  it("stores log records sent by the SDK's gRPC log exporter, readable through /v1/logs", async () => {
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ "service.name": "worker-grpc" }),
      processors: [new SimpleLogRecordProcessor({ exporter: new OTLPLogExporter() })],
    });
    const logger = provider.getLogger("worker");
    logger.emit({ severityNumber: SeverityNumber.INFO, body: "job started" });
    logger.emit({ severityNumber: SeverityNumber.ERROR, body: "job failed" });
    await provider.forceFlush();
    await provider.shutdown();
    const logs = await get<{ data: { level: string; message: string }[] }>(
      "/v1/logs?service=worker-grpc",
    );
    expect(logs.data.map((l) => [l.level, l.message]).sort()).toEqual([
      ["error", "job failed"],
      ["info", "job started"],
    ]);
  });

  it("stores metrics exported to MetricsService", async () => {
    const body = encodeRequest("metrics", {
      resourceMetrics: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "host-grpc" } }] },
          scopeMetrics: [
            {
              metrics: [
                { name: "cpu", gauge: { dataPoints: [{ timeUnixNano: NOW_NS, asDouble: 0.5 }] } },
              ],
            },
          ],
        },
      ],
    });
    expect(await exportCall("metrics", body, key)).toEqual({ response: {} });
    const rows = await service.deps.telemetry.query<Record<string, unknown>>(
      "SELECT metric_name, value FROM vigil.metrics WHERE service_name = 'host-grpc'",
    );
    expect(rows).toEqual([{ metric_name: "cpu", value: 0.5 }]);
  });

  it("answers partialSuccess for rejected items and keeps the valid ones", async () => {
    const body = encodeRequest(
      "traces",
      spans("cart-grpc-partial", [
        span("ok", id(16, 1), id(8, 2)),
        span("bad trace id", id(3, 1), id(8, 3)),
      ]),
    );
    const { response } = await exportCall("traces", body, key);
    const partial = (response?.partialSuccess ?? {}) as Record<string, string>;
    expect(partial.rejectedSpans).toBe("1");
    expect(partial.errorMessage).toContain("trace_id");
    const rows = await service.deps.telemetry.query<{ operation_name: string }>(
      "SELECT operation_name FROM vigil.traces WHERE service_name = 'cart-grpc-partial'",
    );
    expect(rows).toEqual([{ operation_name: "ok" }]);
  });

  const someSpans = () =>
    encodeRequest("traces", spans("refused", [span("x", id(16, 9), id(8, 9))]));
  const oversized = () =>
    encodeRequest("logs", {
      resourceLogs: [
        { scopeLogs: [{ logRecords: [{ body: { stringValue: "z".repeat(MAX_BODY * 4) } }] }] },
      ],
    });

  it.each([
    ["no key", () => exportCall("traces", someSpans(), undefined), status.UNAUTHENTICATED],
    [
      "an invalid key",
      () => exportCall("traces", someSpans(), "vgl_notavalidkey000000000000000000"),
      status.UNAUTHENTICATED,
    ],
    [
      "a read-only key",
      async () => exportCall("logs", someSpans(), await newKey("read_only")),
      status.PERMISSION_DENIED,
    ],
    [
      "malformed protobuf",
      () => exportCall("traces", Buffer.from([0x0a, 0xff, 0xff, 0x01]), key),
      status.INVALID_ARGUMENT,
    ],
    [
      "a message over the limit",
      () => exportCall("logs", oversized(), key),
      status.RESOURCE_EXHAUSTED,
    ],
    [
      "a gzip message over the limit once decompressed",
      () => exportCall("logs", oversized(), key, client(true)),
      status.RESOURCE_EXHAUSTED,
    ],
  ] as const)("refuses %s with its OTLP status and writes nothing", async (_what, send, code) => {
    const count = async () =>
      (
        await service.deps.telemetry.query<{ n: number }>("SELECT count() AS n FROM vigil.traces")
      )[0]?.n;
    const before = await count();
    const { error } = await send();
    expect(error?.code).toBe(code);
    expect(await count()).toBe(before);
  });

  it("spends one per-key budget with OTLP/HTTP; beyond it RESOURCE_EXHAUSTED carries RetryInfo", async () => {
    const limited = await newKey("ingest");
    const http = await service.fetch("/v1/traces", {
      method: "POST",
      headers: { "x-api-key": limited, "content-type": "application/json" },
      body: "{}",
    });
    expect(http.status).toBe(200);
    const via = client();
    for (let i = 1; i < PER_MINUTE; i++) {
      expect((await exportCall("traces", someSpans(), limited, via)).error).toBeUndefined();
    }
    const { error } = await exportCall("traces", someSpans(), limited, via);
    expect(error?.code).toBe(status.RESOURCE_EXHAUSTED);
    const [details] = error?.metadata.get("grpc-status-details-bin") ?? [];
    const decoded = rpc
      .lookupType("Status")
      .decode(details as Buffer)
      .toJSON();
    expect(decoded.details[0].typeUrl).toBe("type.googleapis.com/google.rpc.RetryInfo");
    const retry = rpc
      .lookupType("RetryInfo")
      .decode(Buffer.from(decoded.details[0].value, "base64"))
      .toJSON();
    expect(Number(retry.retryDelay.seconds)).toBeGreaterThan(0);
    // The HTTP route counts in the same budget, now spent.
    const after = await service.fetch("/v1/traces", {
      method: "POST",
      headers: { "x-api-key": limited, "content-type": "application/json" },
      body: "{}",
    });
    expect(after.status).toBe(429);
  });

  it("fails to listen on a port in use with a message naming the setting", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const taken = (blocker.address() as { port: number }).port;
    const grpc = createOtlpGrpcServer(service.deps, new KeyLimiter(10));
    try {
      await expect(grpc.listen("127.0.0.1", taken)).rejects.toThrow(/VIGIL_GRPC_PORT/);
    } finally {
      await grpc.close(0);
      blocker.close();
    }
  });

  // Last: it stops the service.
  it("drains in-flight exports on shutdown before the stores close", async () => {
    const drainKey = await newKey("ingest");
    const via = client();
    const many = Array.from({ length: 300 }, (_, i) =>
      span(`drain ${i}`, id(16, 7), Buffer.from(i.toString(16).padStart(16, "0"), "hex")),
    );
    const body = encodeRequest("traces", spans("drain-grpc", many));
    const grpc = service.grpc;
    const calls = Array.from({ length: 8 }, () => exportCall("traces", body, drainKey, via));
    const deadline = Date.now() + 10_000;
    while ((grpc?.inFlight ?? 0) === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(grpc?.inFlight).toBeGreaterThan(0);
    await service.stop();
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.error?.code)).toEqual(Array(8).fill(undefined));
    expect(service.logs.join("")).toContain("Draining OTLP/gRPC calls");
  });
});
