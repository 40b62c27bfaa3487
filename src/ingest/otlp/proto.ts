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

function load(): Record<Signal, SignalCodec> {
  const root = new protobuf.Root();
  // The vendored files import each other by bare file name.
  root.resolvePath = (_origin, target) => PROTO_DIR + target.replace(/^.*\//, "");
  root.loadSync(Object.values(SERVICE_FILES));
  root.resolveAll();
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
