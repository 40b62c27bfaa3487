import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

// Local stand-ins for the incident and chat vendors the channels post to (PagerDuty, Opsgenie,
// Telegram, Discord, Microsoft Teams). Each records every request and answers like the vendor's
// public API does: its success status and body, and its errors for a wrong key or token and for
// a body it would refuse (a missing field, a limit passed, HTML Telegram cannot parse).

/** One request a fake received. */
export interface VendorRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON (undefined when it was not JSON); read it with `bodyOf`. */
  body: unknown;
  raw: string;
}

export interface VendorAnswer {
  status: number;
  body?: unknown;
}

/** Decides a vendor's answer to one request. */
export type VendorRules = (request: VendorRequest) => VendorAnswer;

export interface FakeVendor {
  /** `http://127.0.0.1:<port>`, to give a channel as its API or webhook base. */
  url: string;
  requests: VendorRequest[];
  /** Requests whose path starts with the prefix. */
  to(pathPrefix: string): VendorRequest[];
  close(): Promise<void>;
}

const json = (status: number, body: unknown): VendorAnswer => ({ status, body });

/** A JSON value read loosely: the fakes and tests look into bodies of any shape. */
// biome-ignore lint/suspicious/noExplicitAny: bodies of any shape, checked field by field as the vendor would
export type Loose = any;

/** The request's JSON body, read loosely (missing fields are undefined at run time). */
export const bodyOf = (request: VendorRequest | undefined): Loose => (request?.body ?? {}) as Loose;

/**
 * PagerDuty Events API v2 (POST /v2/enqueue): 202 with the dedup key; 400 "invalid event" for a
 * routing key not 32 characters, an unknown action, or a trigger without summary, source and a
 * known severity.
 */
export const pagerDutyRules: VendorRules = (request) => {
  if (request.method !== "POST" || request.path !== "/v2/enqueue") return json(404, {});
  const event = bodyOf(request);
  const errors: string[] = [];
  if (typeof event.routing_key !== "string" || event.routing_key.length !== 32)
    errors.push("'routing_key' is invalid");
  if (!["trigger", "acknowledge", "resolve"].includes(event.event_action))
    errors.push("'event_action' is invalid");
  if (event.event_action !== "trigger" && !event.dedup_key) errors.push("'dedup_key' is missing");
  if (event.event_action === "trigger") {
    const payload = event.payload ?? ({} as Loose);
    if (!payload.summary || String(payload.summary).length > 1024)
      errors.push("'payload.summary' is invalid");
    if (!payload.source) errors.push("'payload.source' is missing");
    if (!["critical", "error", "warning", "info"].includes(payload.severity))
      errors.push("'payload.severity' is invalid");
  }
  if (errors.length > 0)
    return json(400, { status: "invalid event", message: "Event object is invalid", errors });
  return json(202, {
    status: "success",
    message: "Event processed",
    dedup_key: event.dedup_key ?? randomUUID(),
  });
};

/**
 * Opsgenie Alert API v2: `Authorization: GenieKey <key>` must name the key (else 401 or 422);
 * POST /v2/alerts needs a message ≤ 130 characters; POST /v2/alerts/:alias/close needs
 * identifierType=alias for an alias. Both answer 202 with a requestId.
 */
export const opsgenieRules =
  (apiKey: string): VendorRules =>
  (request) => {
    const auth = String(request.headers.authorization ?? "");
    if (!auth.startsWith("GenieKey "))
      return json(422, { message: "Key format is not valid!", took: 0, requestId: randomUUID() });
    if (auth !== `GenieKey ${apiKey}`)
      return json(401, { message: "Could not authenticate", took: 0, requestId: randomUUID() });
    const accepted = json(202, {
      result: "Request will be processed",
      took: 0.01,
      requestId: randomUUID(),
    });
    if (request.method === "POST" && request.path === "/v2/alerts") {
      const message = bodyOf(request).message as unknown;
      if (typeof message !== "string" || message.length === 0 || message.length > 130)
        return json(422, { message: "Request body is not processable", errors: { message } });
      const alias = bodyOf(request).alias as unknown;
      if (alias !== undefined && String(alias).length > 512)
        return json(422, { message: "Request body is not processable" });
      return accepted;
    }
    if (request.method === "POST" && /^\/v2\/alerts\/[^/]+\/close$/.test(request.path)) {
      if (request.query.get("identifierType") !== "alias")
        return json(404, { message: "Alert does not exist" });
      return accepted;
    }
    return json(404, { message: "Not found" });
  };

const TELEGRAM_TAG = /<\/?(b|strong|i|em|u|s|code|pre|a)(\s+href="[^"<>]*")?>/g;
const TELEGRAM_ENTITY = /&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);/g;

/** Why Telegram could not parse an HTML-mode text, or undefined when it could. */
export function telegramHtmlProblem(text: string): string | undefined {
  const withoutTags = text.replace(TELEGRAM_TAG, "");
  if (/[<>]/.test(withoutTags)) return "Bad Request: can't parse entities: unsupported start tag";
  if (/&(?!(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);)/.test(withoutTags.replace(TELEGRAM_ENTITY, "")))
    return "Bad Request: can't parse entities: unsupported entity";
  const stack: string[] = [];
  for (const match of text.matchAll(/<(\/?)(b|strong|i|em|u|s|code|pre|a)\b[^>]*>/g)) {
    const [, closing, tag] = match;
    if (!closing) stack.push(tag as string);
    else if (stack.pop() !== tag) return "Bad Request: can't parse entities: unmatched end tag";
  }
  return stack.length > 0 ? "Bad Request: can't parse entities: unclosed tag" : undefined;
}

/**
 * Telegram Bot API (POST /bot<token>/sendMessage): 401 for another token, 400 "chat not found"
 * for another chat, 400 for HTML it cannot parse or a text over 4096 characters; else 200 ok.
 */
export const telegramRules =
  (botToken: string, chatId: string): VendorRules =>
  (request) => {
    const match = /^\/bot([^/]+)\/sendMessage$/.exec(request.path);
    if (request.method !== "POST" || !match)
      return json(404, { ok: false, error_code: 404, description: "Not Found" });
    if (decodeURIComponent(match[1] as string) !== botToken)
      return json(401, { ok: false, error_code: 401, description: "Unauthorized" });
    const { chat_id, text, parse_mode } = bodyOf(request) as Record<string, unknown>;
    if (String(chat_id) !== chatId)
      return json(400, { ok: false, error_code: 400, description: "Bad Request: chat not found" });
    if (typeof text !== "string" || text.length === 0 || text.length > 4096)
      return json(400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: message is too long",
      });
    const problem = parse_mode === "HTML" ? telegramHtmlProblem(text) : undefined;
    if (problem) return json(400, { ok: false, error_code: 400, description: problem });
    return json(200, { ok: true, result: { message_id: 1, chat: { id: chat_id }, text } });
  };

/**
 * Discord execute webhook (POST /api/webhooks/:id/:token): 401 "Invalid Webhook Token" for another
 * token, 400 for an embed past Discord's limits, else 204 No Content.
 */
export const discordRules =
  (token: string): VendorRules =>
  (request) => {
    const match = /^\/api\/webhooks\/\d+\/([^/]+)$/.exec(request.path);
    if (request.method !== "POST" || !match)
      return json(404, { message: "Unknown Webhook", code: 10015 });
    if (match[1] !== token) return json(401, { message: "Invalid Webhook Token", code: 50027 });
    const { content, embeds } = bodyOf(request);
    const bad = (field: string) => json(400, { message: "Invalid Form Body", code: 50035, field });
    if (content !== undefined && String(content).length > 2000) return bad("content");
    if (!Array.isArray(embeds) || embeds.length > 10) return bad("embeds");
    for (const embed of embeds) {
      if (String(embed.title ?? "").length > 256) return bad("embeds.title");
      if (String(embed.description ?? "").length > 4096) return bad("embeds.description");
      if (!Number.isInteger(embed.color ?? 0)) return bad("embeds.color");
      const fields = embed.fields ?? [];
      if (fields.length > 25) return bad("embeds.fields");
      for (const field of fields)
        if (
          !field.name ||
          String(field.name).length > 256 ||
          !field.value ||
          String(field.value).length > 1024
        )
          return bad("embeds.fields");
    }
    return { status: 204 };
  };

/**
 * A Teams Workflows webhook (POST under /workflows/…): 202 Accepted for a message whose
 * attachments are Adaptive Cards with a body, else 400 as the flow's trigger schema would.
 */
export const teamsRules: VendorRules = (request) => {
  if (request.method !== "POST" || !request.path.startsWith("/workflows/")) return json(404, {});
  const message = bodyOf(request);
  const attachments: Loose[] = Array.isArray(message.attachments) ? message.attachments : [];
  const valid =
    message.type === "message" &&
    attachments.length > 0 &&
    attachments.every(
      (a) =>
        a.contentType === "application/vnd.microsoft.card.adaptive" &&
        a.content?.type === "AdaptiveCard" &&
        Array.isArray(a.content.body),
    );
  if (!valid)
    return json(400, { error: { code: "TriggerInputSchemaMismatch", message: "Invalid body" } });
  return { status: 202 };
};

/** Starts a fake answering by its rules; a path containing "/echo-fail/" answers 500 echoing the URL. */
export async function startFakeVendor(rules: VendorRules): Promise<FakeVendor> {
  const requests: VendorRequest[] = [];
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const url = new URL(incoming.url ?? "/", "http://fake.invalid");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const request: VendorRequest = {
        method: incoming.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body,
        raw,
      };
      requests.push(request);
      // A proxy that tells the whole URL in its error: secrets must be redacted from the log.
      const answer = url.pathname.includes("/echo-fail/")
        ? json(500, { error: `upstream failed for ${incoming.url}` })
        : rules(request);
      if (answer.body === undefined) {
        response.writeHead(answer.status);
        response.end();
        return;
      }
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(JSON.stringify(answer.body));
    });
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A fake for the file's tests: started before them, closed after; read it inside tests. */
export function useFakeVendor(rules: VendorRules): { current(): FakeVendor } {
  let fake: FakeVendor | undefined;
  beforeAll(async () => {
    fake = await startFakeVendor(rules);
  });
  afterAll(async () => {
    await fake?.close();
  });
  return {
    current: () => {
      if (!fake) throw new Error("the fake vendor starts in beforeAll");
      return fake;
    },
  };
}
