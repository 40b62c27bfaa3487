import type { Logger } from "pino";
import type { Config } from "../config/config-schema.js";
import type { DomainEvent } from "../events/event-bus.js";
import type { Clock } from "../lib/clock.js";
import { createOutboundAgent } from "../lib/http/outbound-agent.js";
import type { IdGenerator } from "../lib/ids.js";
import type { Metrics } from "../lib/metrics.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { WebhookDeliverer } from "./deliverer.js";
import { createWebhookDeliverer } from "./delivery-pump.js";
import { createEventPublisher } from "./event-publisher.js";
import type { WebhookEventRegistry } from "./event-registry.js";
import { postWebhook, type WebhookAnswer, type WebhookPost } from "./transport.js";

/**
 * What the webhook verbs run on, built once by the composition root: the box that seals signing
 * secrets, the guarded transport and the deliverer that drains the queue.
 */
export interface WebhookService {
  secretBox: SecretBox;
  /** The subscribable event types: test.ping and those the domains registered. */
  eventTypes: WebhookEventRegistry;
  /** Plain http:// endpoints are accepted on loopback hosts (webhooks.allowHttpLoopback, --dev). */
  allowHttpLoopback: boolean;
  deliverer: WebhookDeliverer;
  /** POSTs through the SSRF-guarded agent (verification requests and deliveries). */
  send(post: WebhookPost): Promise<WebhookAnswer>;
  /** Fans an event out to its project's enabled endpoints subscribed to its type. */
  publish(event: DomainEvent): Promise<number>;
  /**
   * Enqueues events inside the caller's transaction (`meta` bound to it), so a state change and
   * its webhooks commit together: nothing is lost to a crash between them. Call `kick()` after the
   * commit so the deliverer sends them at once. Resolves with how many endpoints get each event.
   */
  enqueueIn(meta: MetaAccess, events: readonly DomainEvent[]): Promise<number[]>;
  /** Wakes the deliverer (after a transaction that enqueued events committed). */
  kick(): void;
}

export interface WebhookServiceDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  metrics?: Metrics;
  secretBox: SecretBox;
  eventTypes: WebhookEventRegistry;
  /** Extra trusted CA certificates (PEM), read from `webhooks.caFile`. */
  ca?: string | undefined;
}

/**
 * The webhook service as the composition root builds it: its own SSRF-guarded agent (its own
 * allow setting and CA, one socket per attempt in flight at most), the deliverer and the
 * publisher. `close()` closes the agent; stop the deliverer first.
 */
export function createWebhookService(
  config: Config["webhooks"],
  deps: WebhookServiceDeps,
): WebhookService & { close(): Promise<void> } {
  const agent = createOutboundAgent({
    allowPrivateNetworks: config.allowPrivateTargets,
    allowSetting: "VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS",
    // An http:// endpoint (saved under allowHttpLoopback) only ever reaches this machine.
    plainHttpLoopbackOnly: true,
    ca: deps.ca,
    connections: config.concurrency,
  });
  const send: WebhookService["send"] = (post) => postWebhook(agent, post);
  const deliverer = createWebhookDeliverer({ ...deps, send, concurrency: config.concurrency });
  const publisher = createEventPublisher({ ...deps, deliverer });
  const { publish } = publisher;
  return {
    secretBox: deps.secretBox,
    eventTypes: deps.eventTypes,
    allowHttpLoopback: config.allowHttpLoopback,
    deliverer,
    send,
    publish,
    enqueueIn: publisher.enqueueIn,
    kick: () => deliverer.kick(),
    close: () => agent.close(),
  };
}
