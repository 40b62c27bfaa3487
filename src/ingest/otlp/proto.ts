import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import type { Signal } from "./otlp-messages.js";

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

type OneOfSetterFactory = (fieldNames: string[]) => (this: object, name: string) => void;

/**
 * A oneof setter that deletes only the members the message holds itself. A decoded message has a
 * oneof's name assigned for every member field read, and protobufjs's own setter then deletes
 * every other member by name: `delete` of a property the message does not have, six times per
 * attribute value, a quarter of decoding a span. Deleting a property that is not there changes
 * nothing, so skipping those keeps the semantics (a later member on the wire replaces an earlier
 * one), pinned by proto.test.ts.
 */
const ownMembersOnly: OneOfSetterFactory = (fieldNames) =>
  function (name) {
    for (const other of fieldNames)
      if (other !== name && Object.hasOwn(this, other))
        delete (this as Record<string, unknown>)[other];
  };

/**
 * Sets up every message constructor of the namespace (protobufjs does it lazily, on first use)
 * with ownMembersOnly as the oneof setter. protobufjs takes the setter from `util.oneOfSetter`
 * while it sets a constructor up; it is put back at once, so other protobufjs users in the
 * process (gRPC) are untouched.
 */
function setUpConstructors(namespace: protobuf.NamespaceBase): void {
  const util = protobuf.util as unknown as { oneOfSetter: OneOfSetterFactory };
  const original = util.oneOfSetter;
  util.oneOfSetter = ownMembersOnly;
  try {
    const visit = (ns: protobuf.NamespaceBase): void => {
      for (const nested of ns.nestedArray) {
        if (nested instanceof protobuf.Type) void nested.ctor;
        if (nested instanceof protobuf.Namespace) visit(nested);
      }
    };
    visit(namespace);
  } finally {
    util.oneOfSetter = original;
  }
}

function load(): Record<Signal, SignalCodec> {
  const root = new protobuf.Root();
  // The vendored files import each other by bare file name.
  root.resolvePath = (_origin, target) => PROTO_DIR + target.replace(/^.*\//, "");
  root.loadSync(Object.values(SERVICE_FILES));
  root.resolveAll();
  decodeInvalidUtf8Leniently(root);
  setUpConstructors(root);
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
