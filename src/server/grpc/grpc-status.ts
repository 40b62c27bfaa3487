import { Metadata, type ServiceError, status } from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { DomainError, type ErrorCode } from "../../lib/domain-errors.js";

/**
 * Each domain error code as a gRPC status, per the OTLP/gRPC failure rules: the client retries
 * UNAVAILABLE, and RESOURCE_EXHAUSTED only when RetryInfo comes with it (rate limits do).
 */
export const GRPC_STATUS_BY_CODE: Record<ErrorCode, status> = {
  invalid_input: status.INVALID_ARGUMENT,
  unauthorized: status.UNAUTHENTICATED,
  forbidden: status.PERMISSION_DENIED,
  not_found: status.NOT_FOUND,
  conflict: status.ALREADY_EXISTS,
  // Too large stays too large: RESOURCE_EXHAUSTED without RetryInfo is not retried.
  payload_too_large: status.RESOURCE_EXHAUSTED,
  unsupported_media_type: status.INVALID_ARGUMENT,
  query_timeout: status.DEADLINE_EXCEEDED,
  query_limit_exceeded: status.RESOURCE_EXHAUSTED,
  rate_limited: status.RESOURCE_EXHAUSTED,
  unavailable: status.UNAVAILABLE,
  internal: status.INTERNAL,
};

// google.rpc.Status carrying a google.rpc.RetryInfo, declared by wire shape only (names are not
// on the wire): the two messages are all Vigil sends in grpc-status-details-bin.
const details = protobuf.Root.fromJSON({
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
const StatusType = details.lookupType("Status");
const RetryInfoType = details.lookupType("RetryInfo");

/** The binary google.rpc.Status of a failure with a RetryInfo saying when to try again. */
export function statusWithRetryInfo(code: status, message: string, seconds: number): Buffer {
  const retryInfo = RetryInfoType.encode({ retryDelay: { seconds, nanos: 0 } }).finish();
  const value = StatusType.encode({
    code,
    message,
    details: [{ typeUrl: "type.googleapis.com/google.rpc.RetryInfo", value: retryInfo }],
  }).finish();
  return Buffer.from(value);
}

/** A thrown error as the status the call ends with; anything not a domain error is INTERNAL. */
export function toServiceError(error: unknown): Partial<ServiceError> & { code: status } {
  if (!(error instanceof DomainError)) {
    return { code: status.INTERNAL, details: "An unexpected error occurred; see the server log" };
  }
  const code = GRPC_STATUS_BY_CODE[error.code];
  const metadata = new Metadata();
  if (error.retryAfterSeconds !== undefined) {
    metadata.set(
      "grpc-status-details-bin",
      statusWithRetryInfo(code, error.message, error.retryAfterSeconds),
    );
  }
  return { code, details: error.message, metadata };
}
