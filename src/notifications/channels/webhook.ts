import { z } from "zod";
import { monitorEventPayload } from "../../webhooks/event-types.js";
import { defineChannelType } from "./channel-type.js";

/**
 * Publishes the notification as a `monitor.down` / `monitor.recovered` domain event on the
 * event bus; the webhook publisher enqueues a signed delivery to each of the project's enabled
 * endpoints subscribed to it. The event id is the incident's id and the event, so a retried
 * notification, or a monitor with two webhook channels, is delivered once. A channel test
 * publishes a sample, which endpoints never receive (they have a test action of their own).
 */
export const webhookChannel = defineChannelType({
  label: "Webhook",
  config: z.object({}).strict(),
  secret: z.object({}).strict(),
  describe: () => ({}),
  async send(notification, _settings, deps, context) {
    try {
      await deps.eventBus.publish({
        id: context.sample
          ? context.deliveryId
          : `${notification.incident.id}:${notification.event}`,
        type: notification.event,
        projectId: notification.projectId,
        data: monitorEventPayload(notification),
        occurredAt: context.occurredAt,
        ...(context.sample ? { sample: true } : {}),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`publishing the ${notification.event} event failed: ${reason}`);
    }
  },
});
