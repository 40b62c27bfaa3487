import { type Dispatcher, request } from "undici";
import { PlainHttpNotLoopbackError } from "../lib/http/address-policy.js";
import { readBounded, utf8Prefix } from "../lib/http/bounded-body.js";
import { startDeadline } from "../lib/http/deadline.js";
import { classifyTransportError, type TransportError } from "../lib/http/transport-error.js";

export const WEBHOOK_USER_AGENT = "Vigil-Webhooks/1.0";
/** Characters of a response body the delivery log keeps (spec). */
const LOGGED_BODY_CHARS = 500;
/** Response bytes read at most; a longer body is cut off (the log keeps 500 characters anyway). */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Bytes that hold the logged characters at most (4 per character in UTF-8). */
const LOGGED_BODY_BYTES = 4 * LOGGED_BODY_CHARS;

/** One POST to a webhook endpoint: an event, its JSON body and (for deliveries) its signature. */
export interface WebhookPost {
  url: string;
  event: string;
  body: string;
  /** The Standard Webhooks headers, when the request is signed. */
  signature?: Readonly<Record<string, string>>;
  /** Covers connect, TLS, headers and body. */
  timeoutMs: number;
  /** Cancels the request (shutdown): the answer is `aborted`. */
  signal?: AbortSignal;
}

/** What came back: the status (0 for no answer), the time taken and the body's first characters. */
export type WebhookAnswer =
  | {
      aborted?: false;
      statusCode: number;
      durationMs: number;
      /** The first 500 characters of the body, or what went wrong when there was no answer. */
      body: string;
      /** Why there was no answer (status 0). */
      error?: TransportError;
    }
  | { aborted: true };

/** Whether the receiver accepted: any 2xx. */
export const isSuccess = (statusCode: number) => statusCode >= 200 && statusCode < 300;

/** The first `max` characters of a text, never splitting a surrogate pair. */
function firstChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/**
 * POSTs JSON to a webhook endpoint through the guarded agent: no redirects are followed (a 3xx
 * is an answer, and not a 2xx), the whole exchange has one time limit, and at most 64 KiB of
 * the answer is read. Never throws. Not the monitors' client: a webhook needs none of its
 * redirect, credential and decoder set-up (it asks for an identity answer), which measured
 * 20–30 µs of CPU a request, a tenth of a delivery's.
 */
export async function postWebhook(
  dispatcher: Dispatcher,
  post: WebhookPost,
): Promise<WebhookAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = startDeadline(post.timeoutMs, post.signal);
  try {
    const response = await request(post.url, {
      method: "POST",
      dispatcher,
      headers: requestHeaders(post),
      body: post.body,
      signal: deadline.signal,
    });
    const { bytes } = await readBounded(response.body, MAX_RESPONSE_BYTES);
    const encoding = response.headers["content-encoding"];
    const body =
      encoding === undefined || encoding === "identity"
        ? firstChars(utf8Prefix(bytes, LOGGED_BODY_BYTES).toString("utf8"), LOGGED_BODY_CHARS)
        : `(a ${String(encoding)}-encoded answer of ${bytes.length} bytes, not decoded)`;
    return { statusCode: response.statusCode, durationMs: elapsed(), body };
  } catch (error) {
    if (deadline.cancelled) return { aborted: true };
    const failure: TransportError = deadline.timedOut
      ? { code: "timeout", message: `no complete answer within ${post.timeoutMs} ms` }
      : classifyTransportError(error);
    return {
      statusCode: 0,
      durationMs: elapsed(),
      body:
        error instanceof PlainHttpNotLoopbackError
          ? error.message
          : describeFailure(failure, post.timeoutMs),
      error: failure,
    };
  } finally {
    deadline.dispose();
  }
}

function requestHeaders(post: WebhookPost): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": WEBHOOK_USER_AGENT,
    "x-service-event": post.event,
    // The answer is only logged: nothing to gain from compressing it.
    "accept-encoding": "identity",
    ...post.signature,
  };
}

/**
 * What a failed exchange shows users (the delivery log, verification problems). A blocked
 * address is not named: which private address a name resolves to is the server's business.
 */
function describeFailure(error: TransportError, timeoutMs: number): string {
  if (error.code === "timeout") return `timed out after ${timeoutMs / 1000}s`;
  if (error.code === "blocked_address")
    return "the host is, or resolves to, a private, loopback or reserved address, which webhooks may not reach; set VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS=true to allow private targets";
  return firstChars(error.message, LOGGED_BODY_CHARS);
}
