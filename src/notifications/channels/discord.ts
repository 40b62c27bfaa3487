import type { Notification } from "../notification-payloads.js";
import {
  ACKNOWLEDGE_LABEL,
  escalationText,
  isProblem,
  notificationDetails,
  notificationIds,
  notificationTitle,
  problemStartedAt,
  truncate,
} from "./format.js";
import { webhookUrlChannel } from "./webhook-url-channel.js";

// Discord: an execute-webhook body with one embed (title, color, fields, footer), mentions off.

/** Discord's markdown characters, escaped so user text stays text. */
export const escapeDiscord = (text: string) => text.replace(/([\\*_~`|>[\]()#])/g, "\\$1");

const RED = 0xc62828;
const GREEN = 0x2e7d32;

/** The webhook body: an embed per Discord's limits (title 256, field values 1024, 25 fields). */
export function discordMessage(notification: Notification): Record<string, unknown> {
  const escalation = escalationText(notification);
  const description: string[] = [];
  if (escalation) description.push(`**${escapeDiscord(escalation)}**`);
  if (notification.acknowledgeUrl)
    description.push(`**[${ACKNOWLEDGE_LABEL}](${notification.acknowledgeUrl})**`);
  const fields = notificationDetails(notification)
    .slice(0, 25)
    .map((d) => ({
      name: d.label,
      value: truncate(escapeDiscord(d.value), 1024),
      inline: d.value.length <= 40,
    }));
  const title = notificationTitle(notification);
  const embed: Record<string, unknown> = {
    title: truncate(title, 256),
    color: isProblem(notification) ? RED : GREEN,
    fields,
    footer: { text: truncate(`Vigil · ${notificationIds(notification).join(" · ")}`, 2048) },
    timestamp: isProblem(notification)
      ? problemStartedAt(notification)
      : (resolvedAt(notification) ?? problemStartedAt(notification)),
  };
  if (description.length > 0) embed.description = description.join("\n");
  return {
    username: "Vigil",
    // The notification text of phones and the channel list; the embed carries the rest.
    content: truncate(`${isProblem(notification) ? "🔴" : "✅"} ${escapeDiscord(title)}`, 2000),
    embeds: [embed],
    allowed_mentions: { parse: [] },
  };
}

const resolvedAt = (n: Notification): string | null =>
  "incident" in n ? n.incident.resolvedAt : n.resolvedAt;

/** Posts to a Discord channel webhook. */
export const discordChannel = webhookUrlChannel({
  label: "Discord",
  description: "Posts each notification as an embed to a Discord channel through its webhook URL.",
  urlHelp:
    "The channel webhook's URL (https://discord.com/api/webhooks/…); stored encrypted, shown masked",
  message: discordMessage,
});
