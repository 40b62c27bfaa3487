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
  problemSubject,
  severityOf,
  truncate,
} from "./format.js";
import { apiUrlSetting, joinUrl, postJson } from "./http-post.js";

// Opsgenie Alert API v2: a problem creates an alert whose alias is the problem's key (reminders
// and escalation steps then add to it), its end closes the alert by that alias.

const REGIONS = { us: "https://api.opsgenie.com", eu: "https://api.eu.opsgenie.com" } as const;

/** Vigil's severities as Opsgenie priorities. */
const PRIORITY: Record<string, string> = { critical: "P1", high: "P2", medium: "P3", low: "P4" };

export const opsgenieAlias = (notification: Notification, context?: SendContext) =>
  truncate(context?.sample ? `vigil-test-${context.deliveryId}` : problemKey(notification), 512);

/** The create-alert body (message ≤ 130, description ≤ 15000, details as strings). */
export function opsgenieAlert(
  notification: Notification,
  context?: SendContext,
): Record<string, unknown> {
  const escalation = escalationText(notification);
  const detailLines = notificationDetails(notification);
  const details: Record<string, string> = {};
  for (const d of detailLines) details[d.label] = truncate(d.value, 1000);
  if (escalation) details.Escalation = escalation;
  if (notification.acknowledgeUrl)
    details[`${ACKNOWLEDGE_LABEL} in Vigil`] = notification.acknowledgeUrl;
  const description = [
    ...(escalation ? [escalation, ""] : []),
    ...detailLines.map((d) => `${d.label}: ${d.value}`),
    ...(notification.acknowledgeUrl
      ? ["", `${ACKNOWLEDGE_LABEL} in Vigil: ${notification.acknowledgeUrl}`]
      : []),
    "",
    `Vigil · ${notificationIds(notification).join(" · ")}`,
  ].join("\n");
  const tags = ["vigil", notification.event.startsWith("alert.") ? "alert" : "monitor"];
  if (context?.sample) tags.push("test");
  return {
    message: truncate(notificationTitle(notification), 130),
    alias: opsgenieAlias(notification, context),
    description: truncate(description, 15_000),
    tags,
    details,
    entity: truncate(problemSubject(notification), 512),
    source: "Vigil",
    priority: PRIORITY[severityOf(notification)] ?? "P3",
  };
}

/** Creates an Opsgenie alert per problem and closes it when the problem ends. */
export const opsgenieChannel = defineChannelType({
  label: "Opsgenie",
  description:
    "Creates an Opsgenie alert per outage or alert fire (Alert API, alias = the problem) and closes it when it ends.",
  urlSettings: ["apiUrl"],
  destinationSettings: ["region"],
  config: z
    .object({
      region: z.enum(["us", "eu"], { error: "must be us or eu" }).default("us").meta({
        title: "Region",
        description: "us (api.opsgenie.com) or eu (api.eu.opsgenie.com)",
      }),
      apiUrl: apiUrlSetting(REGIONS.us),
    })
    .strict(),
  secret: z
    .object({
      apiKey: z
        .string({ error: "must be a text" })
        .trim()
        .regex(/^[A-Za-z0-9-]{16,100}$/, "must be the API key of an Opsgenie API integration")
        .meta({
          title: "API key",
          description: "The key of an Opsgenie API integration; stored encrypted, shown masked",
        }),
    })
    .strict(),
  describe: (settings) => ({
    region: settings.region,
    ...(settings.apiUrl ? { apiUrl: settings.apiUrl } : {}),
    apiKey: maskSecret(settings.apiKey),
  }),
  async send(notification, settings, deps, context) {
    const base = settings.apiUrl ?? REGIONS[settings.region];
    const headers = { authorization: `GenieKey ${settings.apiKey}` };
    if (isResolution(notification)) {
      const alias = encodeURIComponent(opsgenieAlias(notification, context));
      await postJson(
        {
          vendor: "Opsgenie",
          url: joinUrl(base, `/v2/alerts/${alias}/close?identifierType=alias`),
          headers,
          body: { source: "Vigil", note: truncate(notificationTitle(notification), 25_000) },
        },
        deps,
      );
      return;
    }
    await postJson(
      {
        vendor: "Opsgenie",
        url: joinUrl(base, "/v2/alerts"),
        headers,
        body: opsgenieAlert(notification, context),
      },
      deps,
    );
  },
});
