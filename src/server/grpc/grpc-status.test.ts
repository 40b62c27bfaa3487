import { status } from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { IngestOverloadedError } from "../../ingest/batch-writer.js";
import {
  ForbiddenError,
  InvalidInputError,
  PayloadTooLargeError,
} from "../../lib/domain-errors.js";
import { toServiceError } from "./grpc-status.js";

// google.rpc.Status and RetryInfo by wire shape, decoded apart from the encoder under test.
const rpc = protobuf.Root.fromJSON({
  nested: {
    Status: {
      fields: {
        code: { type: "int32", id: 1 },
        details: { rule: "repeated", type: "Any", id: 3 },
      },
    },
    Any: { fields: { typeUrl: { type: "string", id: 1 }, value: { type: "bytes", id: 2 } } },
    RetryInfo: { fields: { retryDelay: { type: "Duration", id: 1 } } },
    Duration: { fields: { seconds: { type: "int64", id: 1 } } },
  },
});

describe("domain errors as OTLP/gRPC status", () => {
  it.each([
    [new InvalidInputError("bad"), status.INVALID_ARGUMENT],
    [new ForbiddenError(), status.PERMISSION_DENIED],
    [new PayloadTooLargeError("big"), status.RESOURCE_EXHAUSTED],
    [new Error("boom"), status.INTERNAL],
  ] as const)("maps %s without retry details", (error, code) => {
    const mapped = toServiceError(error);
    expect(mapped.code).toBe(code);
    expect(mapped.metadata?.get("grpc-status-details-bin") ?? []).toEqual([]);
  });

  it("answers a full ingestion queue with UNAVAILABLE and RetryInfo, so SDKs back off and retry", () => {
    const mapped = toServiceError(new IngestOverloadedError(7));
    expect(mapped.code).toBe(status.UNAVAILABLE);
    const [bytes] = mapped.metadata?.get("grpc-status-details-bin") ?? [];
    const decoded = rpc
      .lookupType("Status")
      .decode(bytes as Buffer)
      .toJSON();
    expect(decoded.code).toBe(status.UNAVAILABLE);
    expect(decoded.details[0].typeUrl).toBe("type.googleapis.com/google.rpc.RetryInfo");
    const retry = rpc
      .lookupType("RetryInfo")
      .decode(Buffer.from(decoded.details[0].value, "base64"))
      .toJSON();
    expect(retry.retryDelay.seconds).toBe("7");
  });
});
