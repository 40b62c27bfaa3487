import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { DomainEvent } from "../events/event-bus.js";
import type { Clock } from "../lib/clock.js";
import { createOutboundAgent } from "../lib/http/outbound-agent.js";
import type { IdGenerator } from "../lib/ids.js";
import type { Metrics } from "../lib/metrics.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaAccess, Repositories } from "../meta/meta-store.js";
import type { NewWebhookDelivery } from "../meta/repositories/webhook-deliveries.js";
import { createWebhookDeliverer, type WebhookDeliverer } from "./deliverer.js";
import { isWebhookEvent } from "./event-types.js";
import { postWebhook, type WebhookAnswer, type WebhookPost } from "./transport.js";

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
    ca: deps.ca,
    connections: config.concurrency,
  });
  const send: WebhookService["send"] = (post) => postWebhook(agent, post);
  const deliverer = createWebhookDeliverer({ ...deps, send, concurrency: config.concurrency });
  const publisher = createEventPublisher({ ...deps, deliverer });
  const { publish } = publisher;
  return {
    secretBox: deps.secretBox,
    deliverer,
    send,
    publish,
    enqueueIn: publisher.enqueueIn,
    kick: () => deliverer.kick(),
    close: () => agent.close(),
  };
}

export interface PublisherDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  deliverer: Pick<WebhookDeliverer, "kick">;
}

/** Events enqueued per transaction at most. */
const PUBLISH_BATCH = 500;
/** Delivery rows per INSERT (12 bound values each, well inside both engines' limits). */
const INSERT_CHUNK = 500;

interface Waiting {
  event: DomainEvent;
  resolve(count: number): void;
  reject(error: unknown): void;
}

/**
 * Publishing an event enqueues one durable delivery per subscribed endpoint (all sharing one
 * message id) and wakes the deliverer; it resolves, with how many endpoints get it, once they
 * are stored. Events published in the same synchronous run share one transaction (a burst of
 * error events costs one commit). An event id already enqueued for an endpoint is not enqueued again, so a
 * re-published event is delivered once.
 */
export function createEventPublisher(deps: PublisherDeps): {
  publish: (event: DomainEvent) => Promise<number>;
  enqueueIn: WebhookService["enqueueIn"];
} {
  const log = deps.logger.child({ component: "webhooks" });
  let waiting: Waiting[] = [];
  let scheduled = false;

  /** The deliveries of these events, one per subscribed endpoint, and how many each got. */
  async function deliveriesOf(repos: Repositories, events: readonly DomainEvent[]) {
    const subscribers = new Map<string, Promise<{ id: string }[]>>();
    const now = deps.clock.now().toISOString();
    const rows: NewWebhookDelivery[] = [];
    const counts: number[] = [];
    for (const event of events) {
      const key = `${event.projectId}\n${event.type}`;
      let endpoints = subscribers.get(key);
      if (!endpoints) {
        endpoints = repos.webhookEndpoints.listSubscribers(event.projectId, event.type);
        subscribers.set(key, endpoints);
      }
      const messageId = deps.newId("msg");
      const targets = await endpoints;
      counts.push(targets.length);
      for (const endpoint of targets)
        rows.push({
          id: deps.newId("dlv"),
          projectId: event.projectId,
          endpointId: endpoint.id,
          messageId,
          eventId: event.id,
          event: event.type,
          data: event.data,
          createdAt: now,
          nextAttemptAt: now,
        });
    }
    return { rows, counts };
  }

  async function store(repos: Repositories, events: readonly DomainEvent[]): Promise<number[]> {
    const subscribable = events.filter(isSubscribable);
    const { rows, counts } = await deliveriesOf(repos, subscribable);
    for (let i = 0; i < rows.length; i += INSERT_CHUNK)
      await repos.webhookDeliveries.enqueue(rows.slice(i, i + INSERT_CHUNK));
    let next = 0;
    return events.map((event) => (isSubscribable(event) ? (counts[next++] ?? 0) : 0));
  }

  async function enqueue(events: readonly DomainEvent[]): Promise<number[]> {
    // One event is one INSERT, atomic on its own; several share a transaction (one commit).
    return events.length === 1
      ? store(deps.meta.repos, events)
      : deps.meta.transaction(({ repos }) => store(repos, events));
  }

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = waiting.slice(0, PUBLISH_BATCH);
    waiting = waiting.slice(batch.length);
    if (waiting.length > 0) schedule();
    try {
      const counts = await enqueue(batch.map((w) => w.event));
      for (const [i, w] of batch.entries()) w.resolve(counts[i] ?? 0);
    } catch {
      // One event at a time, so each fails on its own. A subscriber deleted between the
      // listing and the insert fails the insert (its foreign key): the retry lists again.
      for (const w of batch) {
        try {
          w.resolve(
            await enqueue([w.event])
              .catch(() => enqueue([w.event]))
              .then((c) => c[0] ?? 0),
          );
        } catch (error) {
          w.reject(error);
        }
      }
    }
    deps.deliverer.kick();
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    // After the current synchronous code: a loop of publish() calls lands in one batch.
    queueMicrotask(() => void flush());
  }

  return {
    publish(event) {
      if (!isSubscribable(event)) {
        log.debug({ event: event.type }, "a sample or not a subscribable webhook event; ignored");
        return Promise.resolve(0);
      }
      return new Promise((resolve, reject) => {
        waiting.push({ event, resolve, reject });
        schedule();
      });
    },
    enqueueIn: (meta, events) => store(meta.repos, events),
  };
}

/** Test pings and samples reach only the endpoint they are sent to, never subscribers. */
const isSubscribable = (event: DomainEvent): boolean =>
  isWebhookEvent(event.type) && event.type !== "test.ping" && event.sample !== true;
