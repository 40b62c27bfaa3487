import { z } from "zod";
import type { DomainEvent } from "../../events/event-bus.js";
import type { Notification } from "../notification-payloads.js";
import { type ChannelDeps, defineChannelType, type SendContext } from "./channel-type.js";

/**
 * Publishes the notification as a domain event on the event bus; the webhook publisher enqueues
 * a signed delivery to each of the project's enabled endpoints subscribed to it. Monitor events
 * use the incident's id and the event as id, so a retried notification, or a monitor with two
 * webhook channels, is delivered once. Alert fires and resolves use the id the evaluation already
 * enqueued them under (so they are never sent twice); a reminder has no webhook event. A channel
 * test publishes a sample, which endpoints never receive (they have a test action of their own).
 */
export const webhookChannel = defineChannelType({
  label: "Webhook",
  description:
    "Sends monitor.* and alert.* events to the project's webhook endpoints subscribed to them (signed, retried, logged).",
  config: z.object({}).strict(),
  secret: z.object({}).strict(),
  describe: () => ({}),
  async send(notification, _settings, deps, context) {
    const event = domainEventOf(notification, deps, context);
    if (!event) return;
    try {
      await deps.eventBus.publish(event);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`publishing the ${notification.event} event failed: ${reason}`);
    }
  },
});

function domainEventOf(
  notification: Notification,
  deps: ChannelDeps,
  context: SendContext,
): DomainEvent | undefined {
  const event = deps.webhookEventOf(notification);
  if (!event) return undefined;
  return {
    ...event,
    // A sample (the channel's test action) is its own event, which endpoints never receive.
    id: context.sample ? context.deliveryId : event.id,
    projectId: notification.projectId,
    occurredAt: context.occurredAt,
    ...(context.sample ? { sample: true } : {}),
  };
}
