import { pipeline, Readable, type Transform } from "node:stream";
import {
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
} from "node:zlib";
import type { Dispatcher } from "undici";
import { readBounded, utf8Prefix } from "../lib/http/bounded-body.js";
import { startDeadline } from "../lib/http/deadline.js";
import {
  classifyTransportError,
  type TransportError,
  type TransportErrorCode,
} from "../lib/http/transport-error.js";
import type { ResponseSnapshot } from "./check-result.js";
import { type BodyPlan, exchange, type HopAnswer, type ResponseHeaders } from "./http-exchange.js";

/** One HTTP request of a monitor step, after {{name}} substitution. */
export interface HttpRequestSpec {
  method: string;
  url: string;
  headers: readonly { name: string; value: string }[];
  body?: string;
  followRedirects: boolean;
}

/** How a request is sent: through which agent, within what time and how much body to read. */
export interface ExecuteOptions {
  dispatcher: Dispatcher;
  /** Covers connect, headers and body of the request and all its redirect hops. */
  timeoutMs: number;
  /** Decompressed body bytes read at most; the rest is not downloaded. */
  maxResponseBytes: number;
  /** W3C traceparent sent unless the request sets its own (none when omitted). */
  traceparent?: string;
  /** Sent unless the request sets its own; defaults to Vigil-Monitor/1.0. */
  userAgent?: string;
  /** Cancels the request (e.g. at shutdown); reported as code "aborted". */
  signal?: AbortSignal;
}

export type { TransportError, TransportErrorCode };

export type ExecuteResult =
  | { ok: true; response: ResponseSnapshot }
  | { ok: false; error: TransportError; durationMs: number };

export const DEFAULT_USER_AGENT = "Vigil-Monitor/1.0";
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect leaves the origin, so credentials never reach another host. */
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

/** A failure this module detects itself, already carrying its stable code. */
class RequestFailure extends Error {
  constructor(
    readonly code: TransportErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Sends one request (following redirects when asked) and reads its response within the time and
 * size limits. Never throws: anything that goes wrong on the way is a TransportError.
 */
export async function executeRequest(
  spec: HttpRequestSpec,
  options: ExecuteOptions,
): Promise<ExecuteResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = startDeadline(options.timeoutMs, options.signal, {
    timeout: () => new RequestFailure("timeout", timeoutMessage(options.timeoutMs)),
    cancel: () => new RequestFailure("aborted", "the check was cancelled"),
  });
  try {
    const response = await send(spec, options, deadline.signal);
    return { ok: true, response: { ...response, durationMs: elapsed() } };
  } catch (error) {
    const transportError: TransportError = deadline.timedOut
      ? { code: "timeout", message: timeoutMessage(options.timeoutMs) }
      : deadline.cancelled
        ? { code: "aborted", message: "the check was cancelled" }
        : describeTransportError(error);
    return { ok: false, error: transportError, durationMs: elapsed() };
  } finally {
    deadline.dispose();
  }
}

async function send(
  spec: HttpRequestSpec,
  options: ExecuteOptions,
  signal: AbortSignal,
): Promise<Omit<ResponseSnapshot, "durationMs">> {
  let url = parseUrl(spec.url, "the URL");
  let method = spec.method.toUpperCase();
  let body = spec.body;
  let headers = withCredentials(spec.headers, url);
  const plan = (statusCode: number, answer: ResponseHeaders): BodyPlan =>
    bodyPlan(spec.followRedirects, options.maxResponseBytes, statusCode, answer);
  for (let hop = 0; ; hop++) {
    const answer = await exchange(
      options.dispatcher,
      { url, method, headers: requestHeaders(headers, options), body },
      signal,
      plan,
    );
    const location = firstValue(answer.headers.location);
    if (!spec.followRedirects || !REDIRECT_STATUSES.has(answer.statusCode) || !location)
      return await readResponse(answer, options.maxResponseBytes);
    if (hop >= MAX_REDIRECTS)
      throw new RequestFailure(
        "too_many_redirects",
        `more than ${MAX_REDIRECTS} redirects (the last one pointed to ${location})`,
      );
    const next = parseUrl(location, `the redirect target '${location}'`, url);
    if (answer.statusCode <= 303 && method !== "HEAD") {
      // 301/302/303 repeat the request as a GET without its body; 307/308 keep both.
      method = "GET";
      body = undefined;
      headers = headers.filter((h) => !h.name.toLowerCase().startsWith("content-"));
    }
    if (next.origin !== url.origin)
      headers = headers.filter((h) => !CREDENTIAL_HEADERS.has(h.name.toLowerCase()));
    headers = withCredentials(headers, next);
    url = next;
  }
}

/** How a hop's body is read (made once, not per request: docs/monitors.md, "Hot functions"). */
function bodyPlan(
  followRedirects: boolean,
  maxResponseBytes: number,
  statusCode: number,
  answer: ResponseHeaders,
): BodyPlan {
  // A followed redirect's (small) body is read to its end, so the connection can be reused.
  if (followRedirects && REDIRECT_STATUSES.has(statusCode) && firstValue(answer.location))
    return { read: "discard", maxBytes: 64 * 1024 };
  const encodings = encodingsOf(answer);
  // An encoding we cannot decode leaves the body as it came (assertions see the raw bytes).
  return encodings.length > 0 && encodings.every((e) => DECODERS[e] !== undefined)
    ? { read: "stream" }
    : { read: "bytes", maxBytes: maxResponseBytes };
}

function parseUrl(text: string, what: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new RequestFailure("invalid_request", `${what} is not a valid URL: ${text}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RequestFailure("invalid_request", `${what} must be http:// or https://`);
  return url;
}

/** user:password@ in a URL becomes Basic authorization (unless set), and leaves the URL. */
function withCredentials(
  headers: HttpRequestSpec["headers"],
  url: URL,
): HttpRequestSpec["headers"] {
  if (url.username === "" && url.password === "") return headers;
  let credentials: string;
  try {
    credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  } catch {
    throw new RequestFailure(
      "invalid_request",
      "the user name or password in the URL is malformed",
    );
  }
  url.username = "";
  url.password = "";
  if (headers.some((h) => h.name.toLowerCase() === "authorization")) return headers;
  const value = `Basic ${Buffer.from(credentials).toString("base64")}`;
  return [...headers, { name: "authorization", value }];
}

function requestHeaders(headers: HttpRequestSpec["headers"], options: ExecuteOptions): string[] {
  const flat: string[] = [];
  const present = new Set<string>();
  for (const { name, value } of headers) {
    flat.push(name, value);
    present.add(name.toLowerCase());
  }
  const defaults: [string, string][] = [
    ...(options.traceparent === undefined
      ? []
      : [["traceparent", options.traceparent] as [string, string]]),
    ["user-agent", options.userAgent ?? DEFAULT_USER_AGENT],
    ["accept-encoding", "gzip, deflate, br"],
  ];
  for (const [name, value] of defaults) if (!present.has(name)) flat.push(name, value);
  return flat;
}

const firstValue = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;

/** The content codings of a response, outermost last, without identity. */
function encodingsOf(headers: ResponseHeaders): string[] {
  const value = headers["content-encoding"];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(", ") : value)
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== "" && e !== "identity");
}

/** One text decoder for every body (a whole buffer at a time: it keeps no state between calls). */
const UTF8 = new TextDecoder();

async function readResponse(
  answer: HopAnswer,
  maxBytes: number,
): Promise<Omit<ResponseSnapshot, "durationMs">> {
  const headers: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(name === "set-cookie" ? "\n" : ", ") : value;
  }
  const text = (bytes: Buffer, truncated: boolean) => ({
    status: answer.statusCode,
    headers,
    body: UTF8.decode(truncated ? utf8Prefix(bytes, bytes.length) : bytes),
    bodyTruncated: truncated,
  });
  const { stream } = answer;
  if (!stream) return text(answer.bytes, answer.truncated);
  const encodings = encodingsOf(answer.headers);
  let source: AsyncIterable<Buffer> = stream;
  for (const e of [...encodings].reverse()) source = decode(source, DECODERS[e] as Decoder);
  try {
    const { bytes, truncated } = await readBounded(source, maxBytes);
    return text(bytes, truncated);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && /^(Z_|ERR_BROTLI|ERR__ERROR)/.test(code))
      throw new RequestFailure(
        "network",
        `the ${encodings.join(", ")} response body could not be decoded: ${(error as Error).message}`,
      );
    throw error;
  } finally {
    stream.destroy();
  }
}

// Sync flush accepts a body that ends early, as browsers do, instead of failing on it.
const ZLIB = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI = {
  flush: constants.BROTLI_OPERATION_FLUSH,
  finishFlush: constants.BROTLI_OPERATION_FLUSH,
};
type Decoder = (first: Buffer) => Transform;
const DECODERS: Record<string, Decoder> = {
  gzip: () => createGunzip(ZLIB),
  "x-gzip": () => createGunzip(ZLIB),
  // "deflate" should be zlib-wrapped, but some servers send raw deflate: tell by the header byte.
  deflate: (first) =>
    ((first[0] ?? 0) & 0x0f) === 0x08 ? createInflate(ZLIB) : createInflateRaw(ZLIB),
  br: () => createBrotliDecompress(BROTLI),
};

/**
 * Decompresses a byte stream lazily: output is produced only as fast as it is read, so a small
 * compressed body cannot expand past the read limit in memory.
 */
async function* decode(
  source: AsyncIterable<Buffer>,
  make: (first: Buffer) => Transform,
): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  async function* all(): AsyncGenerator<Buffer> {
    try {
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        yield next.value;
    } finally {
      await iterator.return?.();
    }
  }
  const decoder = make(first.value);
  yield* pipeline(
    Readable.from(all(), { objectMode: false }),
    decoder,
    () => {},
  ) as AsyncIterable<Buffer>;
}

function timeoutMessage(ms: number): string {
  return ms >= 1000 ? `timed out after ${ms / 1000} s` : `timed out after ${ms} ms`;
}

/** Maps a transport failure to a stable code and a sentence (the original message, no stack). */
export function describeTransportError(error: unknown): TransportError {
  if (error instanceof RequestFailure) return { code: error.code, message: error.message };
  return classifyTransportError(error);
}
