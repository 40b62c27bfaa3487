import { z } from "zod";
import type { Notification } from "../notification-payloads.js";
import { defineChannelType } from "./channel-type.js";
import {
  ACKNOWLEDGE_LABEL,
  escalationText,
  escapeHtml,
  isProblem,
  maskSecret,
  notificationDetails,
  notificationIds,
  notificationTitle,
  truncate,
} from "./format.js";
import { apiUrlSetting, joinUrl, postJson } from "./http-post.js";

// Telegram: the Bot API's sendMessage with HTML parse mode, every user value escaped.

const TELEGRAM_API = "https://api.telegram.org";

/** The message text (HTML parse mode: b, i, a; &lt; &gt; &amp; &quot; escaped), under 4096 characters. */
export function telegramText(notification: Notification): string {
  const icon = isProblem(notification) ? "🔴" : "✅";
  const lines = [`<b>${icon} ${escapeHtml(truncate(notificationTitle(notification), 300))}</b>`];
  const escalation = escalationText(notification);
  if (escalation) lines.push(`<i>${escapeHtml(escalation)}</i>`);
  lines.push("");
  for (const d of notificationDetails(notification))
    lines.push(`<b>${escapeHtml(d.label)}:</b> ${escapeHtml(truncate(d.value, 500))}`);
  if (notification.acknowledgeUrl)
    lines.push(
      "",
      `👉 <a href="${escapeHtml(notification.acknowledgeUrl)}">${ACKNOWLEDGE_LABEL}</a>`,
    );
  lines.push("", `<i>Vigil · ${escapeHtml(notificationIds(notification).join(" · "))}</i>`);
  return lines.join("\n");
}

/** The sendMessage body. */
export function telegramMessage(notification: Notification, chatId: string) {
  return {
    chat_id: chatId,
    text: telegramText(notification),
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
  };
}

/** Sends each notification to a Telegram chat, group or channel through a bot. */
export const telegramChannel = defineChannelType({
  label: "Telegram",
  description:
    "Sends each notification to a Telegram chat, group or channel through your bot (Bot API sendMessage).",
  urlSettings: ["apiUrl"],
  config: z
    .object({
      chatId: z
        .string({ error: "must be a text" })
        .trim()
        .regex(
          /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/,
          "must be a chat id (e.g. -1001234567890) or a public channel's @username",
        )
        .meta({
          title: "Chat ID",
          description: "The chat, group or channel the bot posts to: its id or @channelusername",
        }),
      apiUrl: apiUrlSetting(TELEGRAM_API),
    })
    .strict(),
  secret: z
    .object({
      botToken: z
        .string({ error: "must be a text" })
        .trim()
        .regex(
          /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/,
          "must be a bot token from @BotFather (123456:ABC…)",
        )
        .meta({
          title: "Bot token",
          description: "The token @BotFather gave your bot; stored encrypted, shown masked",
        }),
    })
    .strict(),
  describe: (settings) => ({
    chatId: settings.chatId,
    ...(settings.apiUrl ? { apiUrl: settings.apiUrl } : {}),
    botToken: maskSecret(settings.botToken),
  }),
  async send(notification, settings, deps) {
    const base = settings.apiUrl ?? TELEGRAM_API;
    await postJson(
      {
        vendor: "Telegram",
        url: joinUrl(base, `/bot${settings.botToken}/sendMessage`),
        body: telegramMessage(notification, settings.chatId),
      },
      deps,
    );
  },
});
