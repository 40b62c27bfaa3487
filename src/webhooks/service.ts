import type { Logger } from "pino";
import type { DomainEvent } from "../events/event-bus.js";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { WebhookDeliverer } from "./deliverer.js";
import { isWebhookEvent } from "./event-types.js";
import type { WebhookAnswer, WebhookPost } from "./transport.js";

/**
 * What the webhook verbs run on, built once by the composition root: the box that seals signing
 * secrets, the guarded transport and the deliverer that drains the queue.
 */
export interface WebhookService {
  secretBox: SecretBox;
  deliverer: WebhookDeliverer;
  /** POSTs through the SSRF-guarded agent (verification requests and deliveries). */
  send(post: WebhookPost): Promise<WebhookAnswer>;
  /** Fans an event out to its project's enabled endpoints subscribed to its type. */
  publish(event: DomainEvent): Promise<number>;
}

export interface PublisherDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  deliverer: Pick<WebhookDeliverer, "kick">;
}

/**
 * Publishing an event enqueues one durable delivery per subscribed endpoint (all sharing one
 * message id) and wakes the deliverer; it resolves once they are stored. An event id already
 * enqueued for an endpoint is not enqueued again, so a re-published event is delivered once.
 */
export function createEventPublisher(deps: PublisherDeps): (event: DomainEvent) => Promise<number> {
  const log = deps.logger.child({ component: "webhooks" });
  return async (event) => {
    if (!isWebhookEvent(event.type) || event.type === "test.ping") {
      log.debug({ event: event.type }, "not a subscribable webhook event; ignored");
      return 0;
    }
    const { repos } = deps.meta;
    const subscribers = () => repos.webhookEndpoints.listSubscribers(event.projectId, event.type);
    const now = deps.clock.now().toISOString();
    const messageId = deps.newId("msg");
    const enqueue = (endpoints: readonly { id: string }[]) =>
      repos.webhookDeliveries.enqueue(
        endpoints.map((endpoint) => ({
          id: deps.newId("dlv"),
          projectId: event.projectId,
          endpointId: endpoint.id,
          messageId,
          eventId: event.id,
          event: event.type,
          data: event.data,
          createdAt: now,
          nextAttemptAt: now,
        })),
      );
    let endpoints = await subscribers();
    if (endpoints.length === 0) return 0;
    try {
      await enqueue(endpoints);
    } catch (error) {
      // An endpoint deleted between the listing and the insert fails the whole insert (its
      // foreign key); the others must still get the event, so list them again and retry once.
      const again = await subscribers();
      const same =
        again.length === endpoints.length && again.every((e, i) => e.id === endpoints[i]?.id);
      if (same) throw error;
      endpoints = again;
      await enqueue(endpoints);
    }
    deps.deliverer.kick();
    return endpoints.length;
  };
}
