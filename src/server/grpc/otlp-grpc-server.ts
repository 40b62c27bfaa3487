import {
  type handleUnaryCall,
  type Metadata,
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type sendUnaryData,
  setLogger,
  status,
} from "@grpc/grpc-js";
import { authenticateApiKey, requireKeyPermission } from "../../auth/api-keys.js";
import type { AppDeps } from "../../composition/app-deps.js";
import { type ApiKeyActor, anonymousCtx } from "../../context.js";
import { exportTelemetry } from "../../ingest/export-telemetry.js";
import type { ExportResult } from "../../ingest/ingest.js";
import { decodeRequest, encodeResponse } from "../../ingest/otlp/codec.js";
import type { Signal } from "../../ingest/otlp/otlp-messages.js";
import { type KeyLimiter, limitBucket } from "../key-limiter.js";
import { bodyBudgetInterceptor } from "./body-budget-interceptor.js";
import { GRPC_STATUS_BY_CODE, toServiceError } from "./grpc-status.js";

/** The OTLP collector services, one Export method each (opentelemetry-proto collector/*). */
const SERVICES: Record<Signal, string> = {
  traces: "opentelemetry.proto.collector.trace.v1.TraceService",
  logs: "opentelemetry.proto.collector.logs.v1.LogsService",
  metrics: "opentelemetry.proto.collector.metrics.v1.MetricsService",
};

const identity = (bytes: Buffer): Buffer => bytes;

/**
 * The service definition with our protobufjs codec. Requests arrive as bytes and are decoded in
 * the handler by the same decodeRequest as OTLP/HTTP: a decode failure is then INVALID_ARGUMENT
 * (grpc-js turns a deserializer's throw into INTERNAL).
 */
function exportService(signal: Signal): ServiceDefinition {
  return {
    Export: {
      path: `/${SERVICES[signal]}/Export`,
      requestStream: false,
      responseStream: false,
      requestSerialize: identity,
      requestDeserialize: identity,
      responseSerialize: (result: ExportResult) =>
        Buffer.from(encodeResponse(signal, "protobuf", result)),
      responseDeserialize: identity,
    },
  };
}

/** The client address of a call, without its port (grpc-js gives `address:port`). */
const peerAddress = (peer: string): string => peer.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");

const firstText = (metadata: Metadata, key: string): string | undefined => {
  const value = metadata.get(key)[0];
  return typeof value === "string" ? value : undefined;
};

/**
 * OTLP/gRPC could not bind. `code` is the system error of the bind (EADDRINUSE: the port is
 * busy; EADDRNOTAVAIL: no such address here; EACCES: not allowed), read from grpc-js's message,
 * which carries no code of its own; EADDRINUSE only when every address of the host was busy.
 */
export class GrpcListenError extends Error {
  readonly code: string | undefined;

  constructor(
    readonly address: string,
    detail: string,
  ) {
    const codes = [...detail.matchAll(/\blisten (E[A-Z]+)\b/g)].map((match) => match[1] ?? "");
    const code = codes.find((c) => c !== "EADDRINUSE") ?? codes[0];
    const hint =
      code === "EADDRINUSE"
        ? "the port is in use: set VIGIL_GRPC_PORT (grpc.port) to a free port"
        : "check VIGIL_GRPC_HOST (grpc.host, else VIGIL_HOST) and VIGIL_GRPC_PORT (grpc.port)";
    super(
      `OTLP/gRPC cannot listen on ${address} (${detail}): ${hint}, or set VIGIL_GRPC_ENABLED=false`,
    );
    this.name = "GrpcListenError";
    this.code = code;
  }
}

export interface OtlpGrpcServer {
  /** Binds host:port (0 picks a free port) and resolves with the bound port. */
  listen(host: string, port: number): Promise<number>;
  /** Export calls being answered right now. */
  readonly inFlight: number;
  /** Stops accepting; in-flight calls finish within deadlineMs, after which the rest are cut. */
  close(deadlineMs: number): Promise<void>;
}

/**
 * OTLP/gRPC receiver: TraceService, LogsService and MetricsService Export over the same domain
 * verb, API keys and per-key budget as OTLP/HTTP. The key comes in the `x-api-key` metadata.
 */
export function createOtlpGrpcServer(deps: AppDeps, limiter: KeyLimiter): OtlpGrpcServer {
  const maxBytes = deps.config.ingest.maxBodyBytes;
  // grpc-js writes its own errors to the console (process-wide); they belong in the service log.
  setLogger({ error: (...args: unknown[]) => deps.logger.warn(`grpc-js: ${args.join(" ")}`) });
  const server = new Server({
    // Checked by grpc-js after decompression too (RESOURCE_EXHAUSTED beyond).
    "grpc.max_receive_message_length": maxBytes,
    "grpc.max_send_message_length": 1024 * 1024,
    "grpc.max_concurrent_streams": 100,
    // Idle clients are sent GOAWAY (SDKs reconnect on the next export); dead peers are found by ping.
    "grpc.max_connection_idle_ms": 5 * 60_000,
    "grpc.keepalive_time_ms": 2 * 60_000,
    "grpc.keepalive_timeout_ms": 20_000,
    // Memory: calls reserve from the OTLP body budget before grpc-js reads and inflates them.
    interceptors: [
      bodyBudgetInterceptor({
        budget: deps.bodyBudget,
        maxMessageBytes: maxBytes,
        receiveTimeoutMs: deps.config.http.requestTimeoutSeconds * 1000,
      }),
    ],
  });
  let inFlight = 0;

  async function authenticate(metadata: Metadata, peer: string): Promise<ApiKeyActor> {
    let actor: ApiKeyActor | undefined;
    let failure: unknown;
    try {
      actor = await authenticateApiKey({
        ctx: anonymousCtx(deps.domain),
        presented: firstText(metadata, "x-api-key"),
      });
    } catch (error) {
      failure = error;
    }
    // As over HTTP: counted before failing, so floods of bad keys are limited by address.
    await limiter.take(limitBucket("ingest", actor?.keyId, peerAddress(peer)));
    if (!actor) throw failure;
    return actor;
  }

  const handler =
    (signal: Signal): handleUnaryCall<Buffer, ExportResult> =>
    async (call, callback: sendUnaryData<ExportResult>) => {
      inFlight += 1;
      const started = performance.now();
      let keyId: string | undefined;
      let code: status = status.OK;
      try {
        const actor = await authenticate(call.metadata, call.getPeer());
        keyId = actor.keyId;
        requireKeyPermission(actor, "ingest");
        const request = decodeRequest(signal, "protobuf", call.request);
        const ctx = { deps: deps.domain, actor };
        callback(null, await exportTelemetry({ ctx, signal, request }));
      } catch (error) {
        const failure = toServiceError(error);
        code = failure.code;
        if (failure.code === GRPC_STATUS_BY_CODE.internal)
          deps.logger.error({ err: error, signal }, "OTLP/gRPC export failed");
        callback(failure);
      } finally {
        inFlight -= 1;
        // One line per call, as for HTTP requests; metadata and payloads are never logged.
        deps.logger.info(
          {
            rpc: `${SERVICES[signal]}/Export`,
            code,
            ms: Math.round(performance.now() - started),
            keyId,
          },
          "grpc call",
        );
      }
    };

  for (const signal of Object.keys(SERVICES) as Signal[]) {
    server.addService(exportService(signal), { Export: handler(signal) });
  }

  return {
    get inFlight() {
      return inFlight;
    },
    listen(host, port) {
      const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
      return new Promise((resolve, reject) => {
        server.bindAsync(address, ServerCredentials.createInsecure(), (error, bound) => {
          if (error) reject(new GrpcListenError(address, error.message));
          else resolve(bound);
        });
      });
    },
    close(deadlineMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          deps.logger.warn({ inFlight }, "OTLP/gRPC calls still running at the deadline; cut");
          server.forceShutdown();
          resolve();
        }, deadlineMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
