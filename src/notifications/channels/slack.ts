import type { Notification } from "../notification-payloads.js";
import {
  ACKNOWLEDGE_LABEL,
  escalationText,
  isProblem,
  notificationDetails,
  notificationIds,
  notificationTitle,
  truncate,
} from "./format.js";
import { webhookUrlChannel } from "./webhook-url-channel.js";

/** Slack's mrkdwn treats these three as markup; user text must not become links or mentions. */
const escapeMrkdwn = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The message: a plain `text` (notifications, old clients) and Block Kit `blocks`: a header, the
 * details as fields, the escalation step, an Acknowledge link button, and the ids.
 */
export function slackMessage(notification: Notification): {
  text: string;
  blocks: unknown[];
} {
  const icon = isProblem(notification) ? "🔴" : "✅";
  const title = `${icon} ${notificationTitle(notification)}`;
  const details = notificationDetails(notification);
  const escalation = escalationText(notification);
  const { acknowledgeUrl } = notification;
  const text = [
    title,
    ...(escalation ? [escalation] : []),
    ...details.map((d) => `${d.label}: ${d.value}`),
    ...(acknowledgeUrl ? [`${ACKNOWLEDGE_LABEL}: ${acknowledgeUrl}`] : []),
  ].join("\n");
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: truncate(title, 150), emoji: true } },
  ];
  if (escalation)
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: `*${escapeMrkdwn(truncate(escalation, 2900))}*` }],
    });
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
  if (acknowledgeUrl)
    blocks.push({
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: ACKNOWLEDGE_LABEL },
          url: acknowledgeUrl,
          style: "primary",
          action_id: "vigil_acknowledge",
        },
      ],
    });
  const ids = notificationIds(notification);
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: escapeMrkdwn(`Vigil · ${ids.join(" · ")}`) }],
  });
  return { text, blocks };
}

/** Posts to a Slack incoming webhook (or anything that speaks its JSON, e.g. Mattermost). */
export const slackChannel = webhookUrlChannel({
  label: "Slack",
  description:
    "Posts each notification to a Slack incoming webhook (or anything that speaks its JSON, e.g. Mattermost).",
  urlHelp:
    "The incoming webhook's URL (https://hooks.slack.com/services/…); stored encrypted, shown masked",
  message: slackMessage,
});
