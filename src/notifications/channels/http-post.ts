import { request } from "undici";
import { z } from "zod";
import type { ChannelDeps } from "./channel-type.js";

// The one way HTTP channels (Slack, Teams, Discord, Telegram, PagerDuty, Opsgenie) send: a JSON
// POST through the channels' SSRF-guarded agent, bounded in time, redirects not followed, and a
// failure told in one line fit for the delivery log (the registry then redacts secrets from it).

const TIMEOUT_MS = 10_000;
const ERROR_BODY_CHARS = 200;

/** The first characters of a response body, without reading the rest. */
async function readSnippet(body: AsyncIterable<Buffer>, maxChars: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of body) {
    text += decoder.decode(chunk, { stream: true });
    // Leaving the loop destroys the stream.
    if (text.length >= maxChars) break;
  }
  return text.slice(0, maxChars);
}

export interface JsonPost {
  /** Who answers, for messages: "Slack", "PagerDuty"… */
  vendor: string;
  url: string;
  body: unknown;
  /** Extra headers (e.g. Opsgenie's Authorization). */
  headers?: Record<string, string>;
}

/** POSTs JSON; resolves on a 2xx answer, else throws "<vendor> answered 400: <body start>". */
export async function postJson(post: JsonPost, deps: Pick<ChannelDeps, "dispatcher">) {
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(post.url, {
      method: "POST",
      dispatcher: deps.dispatcher,
      headers: {
        "content-type": "application/json",
        "user-agent": "Vigil-Notifications/1.0",
        ...post.headers,
      },
      body: JSON.stringify(post.body),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
      signal,
    });
  } catch (error) {
    if (signal.aborted)
      throw new Error(`${post.vendor} did not answer within ${TIMEOUT_MS / 1000} s`);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${post.vendor} request failed: ${reason}`);
  }
  const { statusCode, body } = response;
  if (statusCode >= 200 && statusCode < 300) {
    await body.dump();
    return;
  }
  const snippet = (await readSnippet(body, ERROR_BODY_CHARS).catch(() => "")).trim();
  const redirect = statusCode >= 300 && statusCode < 400 ? " (redirects are not followed)" : "";
  throw new Error(
    `${post.vendor} answered ${statusCode}${redirect}${snippet ? `: ${snippet}` : ""}`,
  );
}

/** An http(s) URL setting (the vendor's endpoint, or a test's local stand-in). */
export const httpUrl = (title: string, description: string) =>
  z
    .url({ protocol: /^https?$/, error: "must be an http or https URL" })
    .max(2000, "must be at most 2000 characters")
    .meta({ title, description });

/** An optional base URL replacing the vendor's (a proxy, a regional endpoint, a local fake). */
export const apiUrlSetting = (vendorDefault: string) =>
  httpUrl(
    "API URL",
    `Optional; replaces ${vendorDefault} (a proxy or another region's endpoint)`,
  ).optional();

/** A base URL and a path joined with exactly one slash. */
export const joinUrl = (base: string, path: string) =>
  `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
