import { request } from "undici";
import { z } from "zod";
import type { Notification } from "../notification-payloads.js";
import { defineChannelType } from "./channel-type.js";
import {
  isProblem,
  maskUrl,
  notificationDetails,
  notificationIds,
  notificationTitle,
  truncate,
} from "./format.js";

const TIMEOUT_MS = 10_000;
const ERROR_BODY_CHARS = 200;

/** Slack's mrkdwn treats these three as markup; user text must not become links or mentions. */
const escapeMrkdwn = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The message: a plain `text` (notifications, old clients) and Block Kit `blocks`. */
export function slackMessage(notification: Notification): {
  text: string;
  blocks: unknown[];
} {
  const icon = isProblem(notification) ? "🔴" : "✅";
  const title = `${icon} ${notificationTitle(notification)}`;
  const details = notificationDetails(notification);
  const text = [title, ...details.map((d) => `${d.label}: ${d.value}`)].join("\n");
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: truncate(title, 150), emoji: true } },
  ];
  if (details.length > 0) {
    blocks.push({
      type: "section",
      // Slack allows 10 fields of at most 2000 characters each.
      fields: details.slice(0, 10).map((d) => ({
        type: "mrkdwn",
        text: `*${d.label}*\n${escapeMrkdwn(truncate(d.value, 1000))}`,
      })),
    });
  }
  const ids = notificationIds(notification);
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: escapeMrkdwn(`Vigil · ${ids.join(" · ")}`) }],
  });
  return { text, blocks };
}

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

/** Posts to a Slack incoming webhook (or anything that speaks its JSON, e.g. Mattermost). */
export const slackChannel = defineChannelType({
  label: "Slack",
  description:
    "Posts each notification to a Slack incoming webhook (or anything that speaks its JSON, e.g. Mattermost).",
  urlSettings: ["webhookUrl"],
  config: z.object({}).strict(),
  secret: z
    .object({
      webhookUrl: z
        .url({ protocol: /^https?$/, error: "must be an http or https URL" })
        .max(2000, "must be at most 2000 characters")
        .meta({
          title: "Webhook URL",
          description:
            "The incoming webhook's URL (https://hooks.slack.com/services/…); stored encrypted, shown masked",
        }),
    })
    .strict(),
  describe: (settings) => ({ webhookUrl: maskUrl(settings.webhookUrl) }),
  async send(notification, settings, deps) {
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(settings.webhookUrl, {
        method: "POST",
        dispatcher: deps.dispatcher,
        headers: { "content-type": "application/json", "user-agent": "Vigil-Notifications/1.0" },
        body: JSON.stringify(slackMessage(notification)),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw new Error(`Slack did not answer within ${TIMEOUT_MS / 1000} s`);
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Slack request failed: ${reason}`);
    }
    const { statusCode, body } = response;
    if (statusCode >= 200 && statusCode < 300) {
      await body.dump();
      return;
    }
    const snippet = await readSnippet(body, ERROR_BODY_CHARS).catch(() => "");
    const redirect = statusCode >= 300 && statusCode < 400 ? " (redirects are not followed)" : "";
    throw new Error(
      `Slack answered ${statusCode}${redirect}${snippet.trim() ? `: ${snippet.trim()}` : ""}`,
    );
  },
});
