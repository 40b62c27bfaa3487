import type { Logger } from "pino";
import { alertNotificationEvent } from "../alerts/alert-webhook-events.js";
import type { Config } from "../config/config-schema.js";
import { createEventBus } from "../events/event-bus.js";
import type { Clock } from "../lib/clock.js";
import type { Metrics } from "../lib/metrics.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaStore } from "../meta/meta-store.js";
import { monitorNotificationEvent } from "../monitors/monitor-webhook-events.js";
import type { ChannelDeps, Mailer } from "../notifications/channels/channel-type.js";
import { createSmtpMailer } from "../notifications/channels/mailer.js";
import type { ChannelService } from "../notifications/channels.js";
import {
  createNotificationDispatcher,
  type NotificationDispatcher,
} from "../notifications/dispatcher.js";
import { isAlertNotification } from "../notifications/notification-payloads.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import type { OutboundAgent } from "./monitors.js";

/**
 * Notification channels: secrets sealed with the server key, Slack through the guarded agent,
 * email through the SMTP transport (when configured), and the webhook channel publishing
 * monitor.down / monitor.recovered to the project's webhook endpoints.
 */
export function createChannels(
  config: Config,
  deps: { secretBox: SecretBox; outbound: OutboundAgent; publish: WebhookService["publish"] },
): { channels: ChannelService; mailer: Mailer | undefined } {
  const mailer = createSmtpMailer(config.smtp);
  const eventBus = createEventBus();
  // The monitors' webhook channel publishes monitor.down / monitor.recovered here.
  eventBus.subscribe(async (event) => {
    await deps.publish(event);
  });
  const channels: ChannelService = {
    secretBox: deps.secretBox,
    channelDeps: {
      eventBus,
      dispatcher: deps.outbound,
      mailer,
      allowPrivateTargets: config.monitors.allowPrivateTargets,
      webhookEventOf: notificationWebhookEvent,
    },
  };
  return { channels, mailer };
}

/** Each kind of notification becomes a webhook event by the builder of the domain that owns it. */
export const notificationWebhookEvent: ChannelDeps["webhookEventOf"] = (notification) =>
  isAlertNotification(notification)
    ? alertNotificationEvent(notification)
    : monitorNotificationEvent(notification);

/** The outbox dispatcher: sends queued notifications through their channels, with retries. */
export function createNotifier(deps: {
  meta: MetaStore;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  channels: ChannelService;
}): NotificationDispatcher {
  return createNotificationDispatcher({
    meta: deps.meta,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
    ...deps.channels,
  });
}
