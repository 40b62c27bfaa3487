import type { Dispatcher } from "undici";
import { PlainHttpNotLoopbackError } from "../lib/http/address-policy.js";
import { utf8Prefix } from "../lib/http/bounded-body.js";
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

/** Where a URL's requests go, parsed once per URL (an endpoint's URL is sent to again and again). */
const targets = new Map<string, { origin: string; path: string }>();
/** URLs remembered at most; past it the map starts over. */
const MAX_TARGETS = 10_000;

function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/**
 * POSTs JSON to a webhook endpoint through the guarded agent: no redirects are followed (a 3xx
 * is an answer, and not a 2xx), the whole exchange has one time limit, and at most 64 KiB of
 * the answer is read. Never throws. Not the monitors' client: a webhook needs none of its
 * redirect, credential and decoder set-up (it asks for an identity answer), which measured
 * 20–30 µs of CPU a request, a tenth of a delivery's.
 *
 * It dispatches on the agent with a handler of its own (`Exchange`) instead of undici's
 * `request()`: no response stream, async resource or abort signal per request, one timer.
 * Measured (a local HTTPS keep-alive receiver, 64 in flight): 65–98 µs of CPU a request
 * against 112–200 µs through `request()` with a deadline signal and a bounded stream read.
 */
export function postWebhook(dispatcher: Dispatcher, post: WebhookPost): Promise<WebhookAnswer> {
  return new Promise((resolve) => {
    const exchange = new Exchange(post, resolve);
    if (exchange.settled) return;
    let target: { origin: string; path: string };
    try {
      target = targetOf(post.url);
    } catch (error) {
      exchange.onResponseError(undefined, error as Error);
      return;
    }
    dispatcher.dispatch(
      {
        origin: target.origin,
        path: target.path,
        method: "POST",
        headers: requestHeaders(post),
        body: post.body,
      },
      exchange,
    );
  });
}

/**
 * One POST's undici handler: it keeps the status, the content encoding and the first 64 KiB of
 * the answer, and settles once: with the answer, with what went wrong, when the time limit
 * passes (status 0, a timeout), or when the caller's signal fires (aborted). Once settled early
 * it aborts the request, at once or as soon as undici hands it a connection.
 */
class Exchange implements Dispatcher.DispatchHandler {
  settled = false;
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  private controller: Dispatcher.DispatchController | undefined;
  /** Why the request is to be aborted, once it is settled before its answer ended. */
  private stopped: Error | undefined;
  private statusCode = 0;
  private encoding: string | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly post: WebhookPost,
    private readonly resolve: (answer: WebhookAnswer) => void,
  ) {
    this.timer = setTimeout(() => this.timeOut(), post.timeoutMs);
    const { signal } = post;
    if (signal?.aborted) this.cancel();
    else signal?.addEventListener("abort", this.cancel, { once: true });
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }

  private settle(answer: WebhookAnswer): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.post.signal?.removeEventListener("abort", this.cancel);
    this.resolve(answer);
  }

  /** Settles, then aborts the request: now, or when undici hands it a connection. */
  private stop(answer: WebhookAnswer, reason: Error): void {
    this.settle(answer);
    this.stopped = reason;
    this.controller?.abort(reason);
  }

  private readonly cancel = (): void =>
    this.stop({ aborted: true }, new Error("the webhook request was cancelled"));

  private timeOut(): void {
    const failure: TransportError = {
      code: "timeout",
      message: `no complete answer within ${this.post.timeoutMs} ms`,
    };
    this.stop(
      {
        statusCode: 0,
        durationMs: this.elapsed(),
        body: describeFailure(failure, this.post.timeoutMs),
        error: failure,
      },
      new Error(failure.message),
    );
  }

  private answered(): WebhookAnswer {
    const bytes = Buffer.concat(this.chunks, this.size);
    const { encoding } = this;
    return {
      statusCode: this.statusCode,
      durationMs: this.elapsed(),
      body:
        encoding === undefined || encoding === "identity"
          ? firstChars(utf8Prefix(bytes, LOGGED_BODY_BYTES).toString("utf8"), LOGGED_BODY_CHARS)
          : `(a ${encoding}-encoded answer of ${bytes.length} bytes, not decoded)`,
    };
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.stopped) controller.abort(this.stopped);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // 1xx answers are informational: the real one follows.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    const encoding = headers["content-encoding"];
    this.encoding = encoding === undefined ? undefined : String(encoding);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    const room = MAX_RESPONSE_BYTES - this.size;
    if (chunk.length > room) {
      // Enough read: the rest is not downloaded.
      this.chunks.push(chunk.subarray(0, room));
      this.size += room;
      this.controller = controller;
      this.stop(this.answered(), new Error("the rest of the answer is not read"));
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  onResponseEnd(): void {
    this.settle(this.answered());
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.settled) return;
    const failure = classifyTransportError(error);
    this.settle({
      statusCode: 0,
      durationMs: this.elapsed(),
      body:
        error instanceof PlainHttpNotLoopbackError
          ? error.message
          : describeFailure(failure, this.post.timeoutMs),
      error: failure,
    });
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
