import type { Dispatcher } from "undici";
import type { z } from "zod";
import type { EventBus } from "../../events/event-bus.js";
import type { Notification } from "../notification-payloads.js";

/** One email as a channel hands it to the mail transport (the From address is the server's). */
export interface MailMessage {
  to: readonly string[];
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe on a status page subscriber's email. */
  headers?: Readonly<Record<string, string>>;
}

/** Sends email; the SMTP implementation is createSmtpMailer. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** What channels send with; built once by the composition root. */
export interface ChannelDeps {
  /** Where the webhook channel publishes; the project's webhook endpoints subscribe to it. */
  eventBus: EventBus;
  /** Outbound HTTP (Slack). The composition root passes an SSRF-guarded agent. */
  dispatcher: Dispatcher;
  /** Undefined when SMTP is not configured: email channels are then refused at creation. */
  mailer: Mailer | undefined;
  /** VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS, the setting of the guarded agent channels send with. */
  allowPrivateTargets: boolean;
  /**
   * The webhook event a notification becomes, built by the domain that owns its payload (monitors,
   * alerts); undefined when it has none. The webhook channel publishes it.
   */
  webhookEventOf(notification: Notification): NotificationWebhookEvent | undefined;
}

/** A notification as a webhook event: its idempotent id, its type and its payload. */
export interface NotificationWebhookEvent {
  id: string;
  type: string;
  data: unknown;
}

/** Which delivery a send belongs to: the webhook channel's event id and time come from it. */
export interface SendContext {
  deliveryId: string;
  /** When the notification was enqueued (ISO 8601). */
  occurredAt: string;
  /** A sample sent by the channel's test action, not a real outage. */
  sample?: boolean;
}

/** A channel's settings as stored: its public part merged with its decrypted secret part. */
export type ChannelSettings<C extends z.ZodObject, S extends z.ZodObject> = z.output<C> &
  z.output<S>;

/**
 * One kind of notification channel (docs/design.md §2: registries, not switches). Its settings are
 * split in two: `config` is stored as JSON and may be shown, `secret` is stored encrypted and
 * only ever shown masked by `describe`.
 */
export interface ChannelTypeSpec<
  C extends z.ZodObject = z.ZodObject,
  S extends z.ZodObject = z.ZodObject,
> {
  /** Human name used in messages, e.g. "Slack". */
  label: string;
  /** What a channel of this type does, in one sentence, for people choosing one. */
  description: string;
  config: C;
  secret: S;
  /** Settings holding a URL the server sends to: refused at save time when certainly private. */
  urlSettings?: readonly string[];
  /**
   * Settings besides `urlSettings` that choose where the server sends, e.g. a region. An edit that
   * changes one of either must give every secret setting again (requireSecretsForNewDestination).
   */
  destinationSettings?: readonly string[];
  /** Why channels of this type cannot be created on this server, if they cannot. */
  unavailable?(deps: ChannelDeps): string | undefined;
  /** The settings as the API shows them: secrets masked. */
  describe(settings: ChannelSettings<C, S>): Record<string, unknown>;
  /** Delivers the notification now; throws with a message fit for the delivery log on failure. */
  send(
    notification: Notification,
    settings: ChannelSettings<C, S>,
    deps: ChannelDeps,
    context: SendContext,
  ): Promise<void>;
}

/** Keeps each entry's own settings types while it is written; the registry erases them. */
export const defineChannelType = <C extends z.ZodObject, S extends z.ZodObject>(
  spec: ChannelTypeSpec<C, S>,
): ChannelTypeSpec<C, S> => spec;
