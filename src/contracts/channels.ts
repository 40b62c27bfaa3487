import { z } from "zod";

// The notification channel API's request and response schemas (zod: validation and OpenAPI
// alike), shared by the server and the dashboard. The channel types themselves (settings,
// sending) are the registry in notifications/channels/registry.ts.

/** Every channel type, in the order the API lists them; each is one registry entry on the server. */
export const CHANNEL_TYPE_NAMES = [
  "webhook",
  "slack",
  "email",
  "pagerduty",
  "teams",
  "discord",
  "telegram",
  "opsgenie",
] as const;
export const ChannelType = z.enum(CHANNEL_TYPE_NAMES);
export type ChannelType = z.infer<typeof ChannelType>;

export const DELIVERY_STATUSES = ["pending", "sent", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Deliveries a channel's log shows (spec: the last 50 records). */
export const DELIVERY_LOG_LIMIT = 50;
/** The event recorded for deliveries made by the test action. */
export const TEST_DELIVERY_EVENT = "channel.test";

const SETTINGS_DESCRIPTION =
  "Per type: webhook `{}`; slack `{ webhookUrl }` (http/https, stored encrypted, shown masked); " +
  "email `{ to: [1–20 addresses] }` (needs SMTP on the server); " +
  "pagerduty `{ routingKey, region?: us|eu, apiUrl? }`; teams `{ webhookUrl }`; discord `{ webhookUrl }`; " +
  "telegram `{ botToken, chatId, apiUrl? }`; opsgenie `{ apiKey, region?: us|eu, apiUrl? }` " +
  "(webhookUrl, routingKey, botToken and apiKey are stored encrypted and shown masked). " +
  "GET /api/channel-types gives each type's JSON Schema";

const ChannelName = z.string().trim().min(1).max(100);
const Settings = z.record(z.string(), z.unknown());

export const CreateChannelInput = z
  .object({
    name: ChannelName,
    type: ChannelType,
    settings: Settings.default({}).describe(SETTINGS_DESCRIPTION),
  })
  .strict()
  .meta({ id: "CreateChannelInput" });
export type CreateChannelInput = z.input<typeof CreateChannelInput>;

export const UpdateChannelInput = z
  .object({
    name: ChannelName.optional(),
    /** Accepted only when unchanged: a channel's type is fixed at creation. */
    type: z
      .string()
      .optional()
      .describe("A channel's type cannot change; only its own is accepted"),
    settings: Settings.optional().describe(
      `Merged over the current settings, so a secret need not be sent again — except when the change moves where the channel sends (a URL or region): then every secret is given again. ${SETTINGS_DESCRIPTION}`,
    ),
  })
  .strict()
  .meta({ id: "UpdateChannelInput" });
export type UpdateChannelInput = z.input<typeof UpdateChannelInput>;

/** A channel as the API shows it: secret settings masked, never returned. */
export const ChannelView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    type: z.string(),
    settings: Settings.describe("The channel's settings with secrets masked"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "NotificationChannel" });
export type ChannelView = z.infer<typeof ChannelView>;

/** One notification to one channel and its attempts, as a channel's log and a monitor's incidents show it. */
export const NotificationDeliveryView = z
  .object({
    id: z.string(),
    channelId: z.string(),
    monitorId: z.string().nullable(),
    ruleId: z.string().nullable().describe("The alert rule that notified (alert.* events)"),
    incidentId: z.string().nullable(),
    event: z
      .string()
      .describe(
        `monitor.down, monitor.recovered, alert.fired, alert.resolved, alert.renotified, or ${TEST_DELIVERY_EVENT}`,
      ),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    sentAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "NotificationDelivery" });
export type NotificationDeliveryView = z.infer<typeof NotificationDeliveryView>;

export const ChannelTestResult = z
  .object({
    ok: z.boolean(),
    error: z.string().optional().describe("Why the test notification was not delivered"),
    deliveryId: z.string().describe("The delivery recorded for this test"),
  })
  .meta({ id: "ChannelTestResult" });
export type ChannelTestResult = z.infer<typeof ChannelTestResult>;

export const ChannelTypeView = z
  .object({
    type: z.string(),
    label: z.string(),
    description: z.string(),
    available: z.boolean().describe("Whether channels of this type can be created on this server"),
    unavailableReason: z.string().nullable().describe("Why not, when they cannot"),
    settings: z
      .record(z.string(), z.unknown())
      .describe("JSON Schema of the type's `settings` object, with a title per setting"),
    secretSettings: z
      .array(z.string())
      .describe("Settings stored encrypted and only ever shown masked"),
  })
  .meta({ id: "NotificationChannelType" });
export type ChannelTypeView = z.infer<typeof ChannelTypeView>;
