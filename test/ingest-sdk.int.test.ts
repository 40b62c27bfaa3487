import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { OTLPLogExporter as HttpLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPLogExporter as ProtoLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPTraceExporter as HttpTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

// The official OpenTelemetry JS SDK and exporters, configured the way users configure them:
// nothing but OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS.
describe("OTLP ingestion from the OpenTelemetry JS SDK", () => {
  const dir = makeTempDir();
  let service: TestService;
  let projectId: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "sdk@example.com",
        password: "correct horse battery",
      },
    });
    projectId = setup.projectId;
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = service.url;
    process.env.OTEL_EXPORTER_OTLP_HEADERS = `x-api-key=${setup.apiKey}`;
  });
  afterAll(async () => {
    process.env = saved;
    await service?.stop();
    dir.remove();
  });

  const query = <T>(sql: string, params: Record<string, unknown>) =>
    service.deps.telemetry.query<T>(sql, { params: { project: projectId, ...params } });

  async function sendTrace(exporter: SpanExporter, service: string) {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": service, "service.version": "1.2.3" }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer("checkout-tests", "0.1.0");
    const root = tracer.startSpan("GET /orders/:id", {
      kind: SpanKind.SERVER,
      attributes: {
        "http.request.method": "GET",
        "http.route": "/orders/:id",
        "url.path": "/orders/42",
        "http.response.status_code": 500,
        "session.id": "sess-1",
        "user.id": "user-7",
      },
    });
    const child = tracer.startSpan(
      "SELECT orders",
      { kind: SpanKind.CLIENT, attributes: { "db.system": "postgresql", "db.rows": 3 } },
      trace.setSpan(ROOT_CONTEXT, root),
    );
    child.recordException(new TypeError("Cannot read properties of undefined (reading 'id')"));
    child.setStatus({ code: SpanStatusCode.ERROR, message: "query failed" });
    await new Promise((resolve) => setTimeout(resolve, 15));
    child.end();
    root.setStatus({ code: SpanStatusCode.ERROR });
    root.end();
    await provider.forceFlush();
    await provider.shutdown();
    return { traceId: root.spanContext().traceId, rootId: root.spanContext().spanId };
  }

  it.each([
    ["protobuf", () => new ProtoTraceExporter(), "checkout-proto"],
    ["JSON", () => new HttpTraceExporter(), "checkout-json"],
  ] as const)(
    "stores spans sent by the %s trace exporter",
    async (_name, exporter, serviceName) => {
      const { traceId, rootId } = await sendTrace(exporter(), serviceName);
      const spans = await query<Record<string, unknown>>(
        `SELECT span_id, parent_span_id, operation_name, span_kind, service_name, service_version,
              status, status_message, duration_ms, http_method, http_route, http_target,
              http_status_code, session_id, user_id, scope_name, attributes, events_name
       FROM vigil.traces WHERE project_id = {project:String} AND trace_id = {traceId:String}
       ORDER BY parent_span_id != '', timestamp`,
        { traceId },
      );
      expect(spans).toHaveLength(2);
      const [root, child] = spans as [Record<string, unknown>, Record<string, unknown>];
      expect(root).toMatchObject({
        span_id: rootId,
        parent_span_id: "",
        operation_name: "GET /orders/:id",
        span_kind: "server",
        service_name: serviceName,
        service_version: "1.2.3",
        status: "error",
        http_method: "GET",
        http_route: "/orders/:id",
        http_target: "/orders/42",
        http_status_code: 500,
        session_id: "sess-1",
        user_id: "user-7",
        scope_name: "checkout-tests",
      });
      expect(child).toMatchObject({
        parent_span_id: rootId,
        span_kind: "client",
        status: "error",
        status_message: "query failed",
        events_name: ["exception"],
      });
      expect((child.attributes as Record<string, string>)["db.rows"]).toBe("3");
      expect(Number(child.duration_ms)).toBeGreaterThanOrEqual(10);
      expect(Number(root.duration_ms)).toBeGreaterThanOrEqual(Number(child.duration_ms));

      // Derived: the server span's HTTP summary and the exception's error group.
      const [http] = await query<Record<string, unknown>>(
        `SELECT sum(request_count) AS requests, sum(error_count) AS errors, any(route) AS route
       FROM vigil.http_requests WHERE project_id = {project:String} AND service_name = {service:String}`,
        { service: serviceName },
      );
      expect(http).toMatchObject({ requests: 1, errors: 1, route: "/orders/:id" });
      const groups = await query<Record<string, unknown>>(
        `SELECT exception_type, status, services, sample_trace_id FROM vigil.error_groups FINAL
       WHERE project_id = {project:String} AND has(services, {service:String})`,
        { service: serviceName },
      );
      // One throw site: both exporters' exceptions share one group, whose sample is the latest.
      expect(groups).toEqual([
        {
          exception_type: "TypeError",
          status: "active",
          services: expect.arrayContaining([serviceName]),
          sample_trace_id: traceId,
        },
      ]);
    },
  );

  it.each([
    ["protobuf", () => new ProtoLogExporter(), "worker-proto"],
    ["JSON", () => new HttpLogExporter(), "worker-json"],
  ] as const)(
    "stores log records sent by the %s log exporter",
    async (_name, exporter, serviceName) => {
      const provider = new LoggerProvider({
        resource: resourceFromAttributes({ "service.name": serviceName }),
        processors: [new SimpleLogRecordProcessor({ exporter: exporter() })],
      });
      const logger = provider.getLogger("worker");
      logger.emit({
        severityNumber: SeverityNumber.INFO,
        severityText: "INFO",
        body: "job started",
        attributes: { "job.id": 17 },
      });
      logger.emit({ severityNumber: SeverityNumber.WARN2, body: "queue is slow" });
      logger.emit({
        severityNumber: SeverityNumber.ERROR,
        body: "payment 8812 failed for ann@example.com",
      });
      logger.emit({ severityNumber: SeverityNumber.FATAL, body: { event: "crash", code: 3 } });
      await provider.forceFlush();
      await provider.shutdown();

      const logs = await query<Record<string, unknown>>(
        `SELECT level, message, severity_number, attributes FROM vigil.logs
       WHERE project_id = {project:String} AND service_name = {service:String} ORDER BY timestamp, id`,
        { service: serviceName },
      );
      expect(logs.map((l) => [l.level, l.message])).toEqual([
        ["info", "job started"],
        ["warn", "queue is slow"],
        ["error", "payment 8812 failed for ann@example.com"],
        ["fatal", '{"event":"crash","code":3}'],
      ]);
      expect(logs[0]?.attributes).toMatchObject({ "job.id": "17" });
      const groups = await query<Record<string, unknown>>(
        `SELECT exception_type, severity FROM vigil.error_groups FINAL
       WHERE project_id = {project:String} AND has(services, {service:String}) ORDER BY exception_type`,
        { service: serviceName },
      );
      expect(groups).toEqual([
        { exception_type: "error", severity: "medium" },
        { exception_type: "fatal", severity: "critical" },
      ]);
    },
  );
});
