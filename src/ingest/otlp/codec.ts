import {
  createGunzip,
  createInflate,
  type Gunzip,
  type Inflate,
  type ZlibOptions,
} from "node:zlib";
import protobuf from "protobufjs";
import type { BudgetLease } from "../../lib/byte-budget.js";
import {
  DomainError,
  InvalidInputError,
  PayloadTooLargeError,
  UnavailableError,
} from "../../lib/domain-errors.js";
import type { Signal, SignalRequest } from "./otlp-messages.js";
import { otlpCodec } from "./proto.js";
import { MAX_ANY_VALUE_DEPTH } from "./values.js";

/** The two OTLP/HTTP encodings. */
export type OtlpFormat = "protobuf" | "json";

export const OTLP_CONTENT_TYPES: Record<OtlpFormat, string> = {
  protobuf: "application/x-protobuf",
  json: "application/json",
};

/** The encoding named by a Content-Type header, or undefined for anything else. */
export function formatOf(contentType: string | undefined): OtlpFormat | undefined {
  const type = contentType?.split(";", 1)[0]?.trim().toLowerCase();
  if (type === "application/x-protobuf" || type === "application/protobuf") return "protobuf";
  if (type === "application/json") return "json";
  return undefined;
}

// A Map, not an object: the encoding comes from a header and must not reach prototype keys.
const INFLATERS = new Map<string, (options: ZlibOptions) => Gunzip | Inflate>([
  ["gzip", createGunzip],
  ["x-gzip", createGunzip],
  ["deflate", createInflate],
]);

/** The 503 for a body that does not fit the shared in-flight budget; clients retry after 1 s. */
export function bodyBudgetSpent(): UnavailableError {
  return new UnavailableError(
    "Too many large OTLP requests are in flight at once; retry shortly",
    1,
  );
}

/**
 * The request body after Content-Encoding, never larger than maxBytes: decompression stops at
 * the limit (413) instead of inflating a small bomb into memory. Inflated bytes are taken from
 * `lease` as they come; when the shared budget is spent the request gets 503 + Retry-After.
 */
export async function decodeBody(
  body: Buffer,
  contentEncoding: string | undefined,
  maxBytes: number,
  lease?: BudgetLease,
): Promise<Buffer> {
  const encoding = (contentEncoding ?? "identity").trim().toLowerCase();
  const tooLarge = () =>
    new PayloadTooLargeError(
      `The request body exceeds ${maxBytes} bytes after decompression; send smaller batches`,
    );
  if (encoding === "identity" || encoding === "") {
    if (body.length > maxBytes) throw tooLarge();
    return body;
  }
  const inflater = INFLATERS.get(encoding);
  if (!inflater) {
    throw new InvalidInputError(
      `Content-Encoding '${encoding}' is not supported; send gzip, deflate or no encoding`,
      [{ field: "content-encoding", message: "must be gzip, deflate or identity" }],
    );
  }
  const stream = inflater({ chunkSize: 64 * 1024 });
  stream.end(body);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    // Leaving the loop early (throw) destroys the stream, so a bomb stops inflating at once.
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge();
      if (lease && !lease.take(chunk.length)) throw bodyBudgetSpent();
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw InvalidInputError.forField("body", `is not valid ${encoding} data`);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Nesting beyond any valid request (AnyValue nests at most MAX_ANY_VALUE_DEPTH levels, deeper
 * items are rejected one by one) is refused whole, at the same depth in both encodings:
 * protobufjs stops past 100 nested messages, and each OTLP/JSON object is one message.
 */
const MAX_JSON_OBJECT_NESTING = protobuf.Reader.recursionLimit + 1;
const tooDeep = () =>
  InvalidInputError.forField(
    "body",
    `nests too deeply (attribute values may nest ${MAX_ANY_VALUE_DEPTH} levels)`,
  );

/** Whether JSON text nests objects deeper than the limit (strings skipped): one byte scan. */
function nestsDeeperThan(body: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d) depth--;
  }
  return false;
}

/** Decodes an Export…ServiceRequest from protobuf bytes or OTLP/JSON text. */
export function decodeRequest<S extends Signal>(
  signal: S,
  format: OtlpFormat,
  body: Buffer,
): SignalRequest[S] {
  if (format === "protobuf") {
    try {
      return otlpCodec(signal).request.decode(body) as unknown as SignalRequest[S];
    } catch (error) {
      if ((error as Error).message === "max depth exceeded") throw tooDeep();
      throw InvalidInputError.forField(
        "body",
        `is not a valid protobuf ${otlpCodec(signal).request.name} (${(error as Error).message})`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw InvalidInputError.forField("body", "is not valid JSON");
  }
  if (nestsDeeperThan(body, MAX_JSON_OBJECT_NESTING)) throw tooDeep();
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw InvalidInputError.forField(
      "body",
      `must be an OTLP/JSON ${otlpCodec(signal).request.name} object`,
    );
  }
  return parsed as SignalRequest[S];
}

const REJECTED_FIELD: Record<Signal, string> = {
  traces: "rejectedSpans",
  logs: "rejectedLogRecords",
  metrics: "rejectedDataPoints",
};

/**
 * The Export…ServiceResponse in the request's encoding: empty on full success, partial_success
 * with the rejected count and a message when items were rejected.
 */
export function encodeResponse(
  signal: Signal,
  format: OtlpFormat,
  result: { rejected: number; message: string },
): Buffer | string {
  // int64 as a decimal string: what proto3 JSON prints, and what protobufjs encodes exactly.
  const response =
    result.rejected > 0 || result.message
      ? {
          partialSuccess: {
            [REJECTED_FIELD[signal]]: String(result.rejected),
            errorMessage: result.message,
          },
        }
      : {};
  if (format === "json") return JSON.stringify(response);
  const type = otlpCodec(signal).response;
  return Buffer.from(type.encode(type.fromObject(response)).finish());
}

/** Encodes an export request given as an object (ids as bytes) to protobuf: for clients (demo, bench). */
export function encodeRequest(signal: Signal, body: Record<string, unknown>): Uint8Array {
  const type = otlpCodec(signal).request;
  return type.encode(type.fromObject(body)).finish();
}
