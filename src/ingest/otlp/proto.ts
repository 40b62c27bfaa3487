import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import type { Signal } from "./types.js";

/** The vendored official OTLP definitions (see proto/README.md). */
const PROTO_DIR = fileURLToPath(new URL("../../../proto/otlp/", import.meta.url));

const SERVICE_FILES: Record<Signal, string> = {
  traces: "trace_service.proto",
  logs: "logs_service.proto",
  metrics: "metrics_service.proto",
};

const MESSAGE_PREFIX: Record<Signal, string> = {
  traces: "opentelemetry.proto.collector.trace.v1.ExportTrace",
  logs: "opentelemetry.proto.collector.logs.v1.ExportLogs",
  metrics: "opentelemetry.proto.collector.metrics.v1.ExportMetrics",
};

export interface SignalCodec {
  request: protobuf.Type;
  response: protobuf.Type;
}

/**
 * proto3 makes protobufjs refuse a whole request for one invalid UTF-8 string; unchecked, Node
 * decodes it to U+FFFD like OTLP/JSON lone surrogates. No public switch for proto3 files: the
 * resolved feature is set before decoders are generated (pinned by ingest-hostile.int.test.ts).
 */
function decodeInvalidUtf8Leniently(namespace: protobuf.NamespaceBase): void {
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Type) {
      for (const field of nested.fieldsArray) {
        const resolved = field as unknown as { _features?: Record<string, unknown> };
        if (field.type === "string" && resolved._features)
          resolved._features.utf8_validation = "NONE";
      }
    }
    if (nested instanceof protobuf.Namespace) decodeInvalidUtf8Leniently(nested);
  }
}

function load(): Record<Signal, SignalCodec> {
  const root = new protobuf.Root();
  // The vendored files import each other by bare file name.
  root.resolvePath = (_origin, target) => PROTO_DIR + target.replace(/^.*\//, "");
  root.loadSync(Object.values(SERVICE_FILES));
  root.resolveAll();
  decodeInvalidUtf8Leniently(root);
  const codec = (signal: Signal): SignalCodec => ({
    request: root.lookupType(`${MESSAGE_PREFIX[signal]}ServiceRequest`),
    response: root.lookupType(`${MESSAGE_PREFIX[signal]}ServiceResponse`),
  });
  return { traces: codec("traces"), logs: codec("logs"), metrics: codec("metrics") };
}

let codecs: Record<Signal, SignalCodec> | undefined;

/** The protobuf types of one signal's export request and response, loaded once. */
export function otlpCodec(signal: Signal): SignalCodec {
  codecs ??= load();
  return codecs[signal];
}
