import { z } from "zod";
import { defineChannelType } from "./channel-type.js";

/**
 * Publishes the notification as a domain event `{ id, type: "monitor.down" | "monitor.recovered",
 * projectId, data, occurredAt }` on the event bus. The project's signed webhook endpoints
 * subscribe to that bus; until they are wired in, the event stays inside the process.
 * The event id is the delivery id, so every retry of one notification carries the same id.
 */
export const webhookChannel = defineChannelType({
  label: "Webhook",
  config: z.object({}).strict(),
  secret: z.object({}).strict(),
  describe: () => ({}),
  async send(notification, _settings, deps, context) {
    try {
      await deps.eventBus.publish({
        id: context.deliveryId,
        type: notification.event,
        projectId: notification.projectId,
        data: notification,
        occurredAt: context.occurredAt,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`publishing the ${notification.event} event failed: ${reason}`);
    }
  },
});
