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

// Microsoft Teams: an Adaptive Card in the message-with-attachments shape that Teams Workflows
// ("Post to a channel when a webhook request is received") and the older incoming webhooks accept.

/**
 * Card text is markdown: user text (a monitor's name, a failure reason quoting a response) must
 * not become a link with a misleading label, so `](` is split with a zero-width space.
 */
export const unlinkMarkdown = (text: string) => text.replace(/\]\(/g, "]\u200b(");

/** The Adaptive Card (schema 1.4): title, escalation step, facts, ids, and an Acknowledge button. */
export function teamsCard(notification: Notification): Record<string, unknown> {
  const problem = isProblem(notification);
  const escalation = escalationText(notification);
  const body: unknown[] = [
    {
      type: "TextBlock",
      text: `${problem ? "🔴" : "✅"} ${unlinkMarkdown(truncate(notificationTitle(notification), 300))}`,
      weight: "Bolder",
      size: "Medium",
      color: problem ? "Attention" : "Good",
      wrap: true,
    },
  ];
  if (escalation)
    body.push({
      type: "TextBlock",
      text: unlinkMarkdown(escalation),
      weight: "Bolder",
      color: "Warning",
      wrap: true,
    });
  const facts = notificationDetails(notification).map((d) => ({
    title: d.label,
    value: unlinkMarkdown(truncate(d.value, 1000)),
  }));
  if (facts.length > 0) body.push({ type: "FactSet", facts });
  body.push({
    type: "TextBlock",
    text: unlinkMarkdown(`Vigil · ${notificationIds(notification).join(" · ")}`),
    isSubtle: true,
    size: "Small",
    wrap: true,
  });
  const card: Record<string, unknown> = {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.4",
    msteams: { width: "Full" },
    body,
  };
  if (notification.acknowledgeUrl)
    card.actions = [
      { type: "Action.OpenUrl", title: ACKNOWLEDGE_LABEL, url: notification.acknowledgeUrl },
    ];
  return card;
}

/** The request body: one message with the card as its only attachment. */
export function teamsMessage(notification: Notification): Record<string, unknown> {
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: teamsCard(notification),
      },
    ],
  };
}

/** Posts an Adaptive Card to a Teams channel through a Workflows (or incoming) webhook. */
export const teamsChannel = webhookUrlChannel({
  label: "Microsoft Teams",
  description:
    "Posts each notification as an Adaptive Card to a Teams channel through a Workflows webhook URL.",
  urlHelp:
    'The URL of the Teams workflow "Post to a channel when a webhook request is received"; stored encrypted, shown masked',
  message: teamsMessage,
});
