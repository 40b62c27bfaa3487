import { Transform } from "node:stream";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { Problem } from "../../../contracts/pagination.js";
import { exportTelemetry } from "../../../ingest/export-telemetry.js";
import {
  bodyBudgetSpent,
  decodeBody,
  decodeRequest,
  encodeResponse,
  formatOf,
  OTLP_CONTENT_TYPES,
} from "../../../ingest/otlp/codec.js";
import type { Signal } from "../../../ingest/otlp/otlp-messages.js";
import type { BudgetLease } from "../../../lib/byte-budget.js";
import { UnsupportedMediaTypeError } from "../../../lib/domain-errors.js";
import { requirePermission } from "../../plugins/auth.js";
import { apiKeyCtx } from "../../request-context.js";

const SIGNALS: Record<Signal, string> = {
  traces: "spans (ExportTraceServiceRequest)",
  logs: "log records (ExportLogsServiceRequest)",
  metrics: "metric data points (ExportMetricsServiceRequest)",
};

/**
 * A pass-through that takes each received chunk from the lease, so bodies being buffered count
 * against the budget as they arrive; when it is spent the request fails with 503.
 */
function countedBody(payload: NodeJS.ReadableStream, lease: BudgetLease): Transform {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (lease.take(chunk.length)) done(null, chunk);
      else done(bodyBudgetSpent());
    },
  });
  payload.once("error", (error: Error) => counter.destroy(error));
  return payload.pipe(counter);
}

/**
 * OTLP/HTTP receivers: POST /v1/traces, /v1/logs and /v1/metrics in protobuf or JSON, plain,
 * gzip or deflate. The body is read as bytes here and decoded by the ingest module, so the
 * size limit holds after decompression too.
 */
export const otlpRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const maxBytes = deps.config.ingest.maxBodyBytes;
    // Body bytes held at once across OTLP requests, received and decompressed (a gzip bomb
    // inflates up to maxBytes, so 100 at once would otherwise hold 100 × maxBytes).
    const budget = deps.bodyBudget;
    const leases = new WeakMap<FastifyRequest, BudgetLease>();
    app.addHook("preParsing", async (request, reply, payload) => {
      const lease = budget.lease();
      leases.set(request, lease);
      // Fires once the response is sent or the connection is gone, whichever comes first.
      reply.raw.once("close", lease.release);
      return countedBody(payload, lease);
    });
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      ["application/x-protobuf", "application/protobuf", "application/json"],
      { parseAs: "buffer", bodyLimit: maxBytes },
      (_request, body, done) => done(null, body),
    );

    for (const [signal, items] of Object.entries(SIGNALS) as [Signal, string][]) {
      app.post(
        `/${signal}`,
        {
          bodyLimit: maxBytes,
          // Large batches on slow links: the request timeout, not the short body timeout.
          config: { largeBody: true },
          preHandler: requirePermission("ingest"),
          schema: {
            tags: ["ingest"],
            summary: `OTLP/HTTP export of ${items}`,
            description:
              "Accepts `application/x-protobuf` or `application/json` (OTLP/JSON), optionally with " +
              "`Content-Encoding: gzip`. Answers the Export…ServiceResponse in the request's encoding; " +
              "`partialSuccess` counts items rejected by validation and says why. A 503 with " +
              "`Retry-After` means the write queue is full or too many large bodies are in " +
              "flight: retry later.",
            security: [{ apiKey: [] }],
            response: {
              400: Problem,
              401: Problem,
              403: Problem,
              413: Problem,
              415: Problem,
              429: Problem,
              503: Problem,
            },
          },
        },
        async (request, reply) => {
          const format = formatOf(request.headers["content-type"]);
          if (!format) {
            throw new UnsupportedMediaTypeError(
              "Send OTLP as Content-Type application/x-protobuf or application/json",
            );
          }
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const body = await decodeBody(
            raw,
            request.headers["content-encoding"],
            maxBytes,
            leases.get(request),
          );
          const decoded = decodeRequest(signal, format, body);
          const ctx = apiKeyCtx(deps.domain, request);
          const result = await exportTelemetry({ ctx, signal, request: decoded });
          // The 200 body is protobuf bytes or OTLP/JSON text, outside the schema-typed responses.
          const payload = encodeResponse(signal, format, result) as never;
          return reply.type(OTLP_CONTENT_TYPES[format]).send(payload);
        },
      );
    }
  };
