import { z } from "zod";
import type { Notification } from "../notification-payloads.js";
import { defineChannelType, type SendContext } from "./channel-type.js";
import {
  ACKNOWLEDGE_LABEL,
  escalationText,
  isResolution,
  maskSecret,
  notificationDetails,
  notificationIds,
  notificationTitle,
  problemKey,
  problemSource,
  problemStartedAt,
  problemSubject,
  severityOf,
  truncate,
} from "./format.js";
import { apiUrlSetting, joinUrl, postJson } from "./http-post.js";

// PagerDuty Events API v2 (POST /v2/enqueue): a problem triggers an alert, its end resolves it;
// both carry the same dedup_key, so reminders and escalation steps add to the one alert.

const REGIONS = {
  us: "https://events.pagerduty.com",
  eu: "https://events.eu.pagerduty.com",
} as const;

/** Vigil's severities as PagerDuty's (critical, error, warning, info). */
const SEVERITY: Record<string, string> = {
  critical: "critical",
  high: "error",
  medium: "warning",
  low: "info",
};

/** The dedup key: the problem's, or one per test so samples never merge into one alert. */
export const pagerDutyDedupKey = (notification: Notification, context?: SendContext) =>
  truncate(context?.sample ? `vigil-test-${context.deliveryId}` : problemKey(notification), 255);

/** The Events API v2 body for a notification: a trigger for problems, a resolve for their end. */
export function pagerDutyEvent(
  notification: Notification,
  routingKey: string,
  context?: SendContext,
): Record<string, unknown> {
  const dedupKey = pagerDutyDedupKey(notification, context);
  if (isResolution(notification))
    return { routing_key: routingKey, event_action: "resolve", dedup_key: dedupKey };
  const details: Record<string, string> = {};
  for (const d of notificationDetails(notification)) details[d.label] = d.value;
  const escalation = escalationText(notification);
  if (escalation) details.Escalation = escalation;
  details.Vigil = notificationIds(notification).join(" · ");
  const links: { href: string; text: string }[] = [];
  if (notification.acknowledgeUrl)
    links.push({ href: notification.acknowledgeUrl, text: `${ACKNOWLEDGE_LABEL} in Vigil` });
  const isAlert = notification.event.startsWith("alert.");
  return {
    routing_key: routingKey,
    event_action: "trigger",
    dedup_key: dedupKey,
    client: "Vigil",
    payload: {
      summary: truncate(notificationTitle(notification), 1024),
      source: truncate(problemSource(notification), 255),
      severity: SEVERITY[severityOf(notification)] ?? "error",
      timestamp: problemStartedAt(notification),
      component: truncate(problemSubject(notification), 255),
      group: notification.projectId,
      class: isAlert ? "alert" : "monitor",
      custom_details: details,
    },
    ...(links.length > 0 ? { links } : {}),
  };
}

/** Triggers and resolves PagerDuty alerts through an Events API v2 integration. */
export const pagerDutyChannel = defineChannelType({
  label: "PagerDuty",
  description:
    "Triggers a PagerDuty alert per outage or alert fire (Events API v2) and resolves it when it ends.",
  urlSettings: ["apiUrl"],
  destinationSettings: ["region"],
  config: z
    .object({
      region: z
        .enum(["us", "eu"], { error: "must be us or eu" })
        .default("us")
        .meta({ title: "Region", description: "The PagerDuty service region of your account" }),
      apiUrl: apiUrlSetting(REGIONS.us),
    })
    .strict(),
  secret: z
    .object({
      routingKey: z
        .string({ error: "must be a text" })
        .trim()
        .regex(/^[A-Za-z0-9_-]{20,64}$/, "must be an Events API v2 integration key (32 characters)")
        .meta({
          title: "Integration key",
          description:
            "The routing key of the service's Events API v2 integration; stored encrypted, shown masked",
        }),
    })
    .strict(),
  describe: (settings) => ({
    region: settings.region,
    ...(settings.apiUrl ? { apiUrl: settings.apiUrl } : {}),
    routingKey: maskSecret(settings.routingKey),
  }),
  async send(notification, settings, deps, context) {
    const base = settings.apiUrl ?? REGIONS[settings.region];
    await postJson(
      {
        vendor: "PagerDuty",
        url: joinUrl(base, "/v2/enqueue"),
        body: pagerDutyEvent(notification, settings.routingKey, context),
      },
      deps,
    );
  },
});
