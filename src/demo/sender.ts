import { encodeRequest } from "../ingest/otlp/codec.js";
import type { DemoRequest } from "./generator.js";

export interface SendOptions {
  url: string;
  key: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** Called after each acknowledged request. */
  onSent?: (request: DemoRequest) => void;
}

export interface SendSummary {
  requests: number;
  items: Record<DemoRequest["signal"], number>;
  rejected: number;
  retries: number;
}

const MAX_ATTEMPTS = 8;

/**
 * Posts requests as OTLP protobuf, several at a time, retrying 429/503 after Retry-After the way
 * the OpenTelemetry exporters do. Throws with the server's problem detail on any other failure.
 */
export async function sendAll(
  requests: Iterable<DemoRequest>,
  options: SendOptions,
): Promise<SendSummary> {
  const summary: SendSummary = {
    requests: 0,
    items: { traces: 0, logs: 0, metrics: 0 },
    rejected: 0,
    retries: 0,
  };
  const iterator = requests[Symbol.iterator]();
  const base = options.url.replace(/\/+$/, "");
  async function post(request: DemoRequest): Promise<void> {
    const body = encodeRequest(request.signal, request.body);
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${base}/v1/${request.signal}`, {
        method: "POST",
        headers: { "content-type": "application/x-protobuf", "x-api-key": options.key },
        body,
      });
      if (response.ok) {
        await response.arrayBuffer();
        summary.requests++;
        summary.items[request.signal] += request.items;
        options.onSent?.(request);
        return;
      }
      const text = await response.text();
      if ((response.status === 429 || response.status === 503) && attempt < MAX_ATTEMPTS) {
        summary.retries++;
        const seconds = Number(response.headers.get("retry-after")) || 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 10) * 1000));
        continue;
      }
      let detail = text;
      try {
        detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
      } catch {
        // Not problem+json: show the text as it came.
      }
      throw new Error(`POST /v1/${request.signal} answered ${response.status}: ${detail}`);
    }
  }
  async function worker(): Promise<void> {
    for (let next = iterator.next(); !next.done; next = iterator.next()) await post(next.value);
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return summary;
}
