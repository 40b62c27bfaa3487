import type { Logger } from "pino";
import type { DomainEvent } from "../events/event-bus.js";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { MetaAccess, Repositories } from "../meta/meta-store.js";
import type {
  NewWebhookDelivery,
  WebhookDelivery,
} from "../meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../meta/repositories/webhook-endpoints.js";
import type { AdoptedEndpoints, Reservation, WebhookDeliverer } from "./deliverer.js";
import type { WebhookEventRegistry } from "./event-registry.js";

export interface PublisherDeps {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  /** Which events endpoints can subscribe to; others are ignored. */
  eventTypes: Pick<WebhookEventRegistry, "has">;
  /**
   * Woken for deliveries to claim. One that can `reserve` and `adopt` is handed what it has
   * room for at once, enqueued already leased to it, which spares a claim per delivery.
   */
  deliverer: Pick<WebhookDeliverer, "kick"> &
    Partial<Pick<WebhookDeliverer, "reserve" | "adopt" | "endpointChanges">>;
}

export interface EventPublisher {
  /** Enqueues the event's deliveries; resolves with how many endpoints get it. */
  publish(event: DomainEvent): Promise<number>;
  /** Enqueues inside the caller's transaction; see `WebhookService.enqueueIn`. */
  enqueueIn(meta: MetaAccess, events: readonly DomainEvent[]): Promise<number[]>;
}

/** Events enqueued per transaction at most. */
const PUBLISH_BATCH = 500;

interface Waiting {
  event: DomainEvent;
  resolve(count: number): void;
  reject(error: unknown): void;
}

/** What one enqueue leased to the deliverer, handed over once it is committed. */
interface Handover {
  reservation?: Reservation | undefined;
  /** The stored deliveries leased under the reservation. */
  leased: WebhookDelivery[];
  /** Their endpoints, as read to fan the events out (filled in as they are read). */
  endpoints: AdoptedEndpoints & { read: Map<string, WebhookEndpointRecord> };
  /** Whether it stored deliveries that wait to be claimed. */
  due: boolean;
}

const pending = (row: NewWebhookDelivery): WebhookDelivery => ({
  ...row,
  status: "pending",
  attempts: 0,
  finishedAt: null,
});

/** Test pings and samples reach only the endpoint they are sent to, never subscribers. */
const isSubscribable = (deps: PublisherDeps, event: DomainEvent): boolean =>
  deps.eventTypes.has(event.type) && event.type !== "test.ping" && event.sample !== true;

/**
 * The deliveries of these events, one per subscribed endpoint, and how many each got; the
 * subscribed endpoints go into `endpoints`.
 */
async function deliveriesOf(
  deps: PublisherDeps,
  repos: Repositories,
  events: readonly DomainEvent[],
  endpoints: Map<string, WebhookEndpointRecord>,
) {
  const subscribers = new Map<string, Promise<WebhookEndpointRecord[]>>();
  const now = deps.clock.now().toISOString();
  const rows: NewWebhookDelivery[] = [];
  const counts: number[] = [];
  for (const event of events) {
    const key = `${event.projectId}\n${event.type}`;
    let listing = subscribers.get(key);
    if (!listing) {
      listing = repos.webhookEndpoints.listSubscribers(event.projectId, event.type);
      subscribers.set(key, listing);
    }
    const targets = await listing;
    counts.push(targets.length);
    if (targets.length === 0) continue;
    const messageId = deps.newId("msg");
    // Serialized once per event; every attempt's body splices this text in.
    const payload = JSON.stringify(event.data);
    for (const endpoint of targets) {
      endpoints.set(endpoint.id, endpoint);
      rows.push({
        id: deps.newId("dlv"),
        projectId: event.projectId,
        endpointId: endpoint.id,
        messageId,
        eventId: event.id,
        event: event.type,
        payload,
        createdAt: now,
        nextAttemptAt: now,
      });
    }
  }
  return { rows, counts };
}

/** Stores the events' deliveries; with `handover`, leases what the deliverer has room for. */
async function store(
  deps: PublisherDeps,
  repos: Repositories,
  events: readonly DomainEvent[],
  handover?: Handover,
): Promise<number[]> {
  const subscribable = events.filter((event) => isSubscribable(deps, event));
  const { rows, counts } = await deliveriesOf(
    deps,
    repos,
    subscribable,
    handover?.endpoints.read ?? new Map(),
  );
  const reservation =
    handover && rows.length > 0 ? deps.deliverer.reserve?.(rows.length) : undefined;
  if (handover) handover.reservation = reservation;
  const leased = rows.slice(0, reservation?.count ?? 0);
  if (reservation) for (const row of leased) row.nextAttemptAt = reservation.leaseUntil;
  const inserted = new Set(await repos.webhookDeliveries.enqueue(rows));
  if (handover) {
    handover.leased = leased.filter((row) => inserted.has(row.id)).map(pending);
    handover.due = rows.slice(leased.length).some((row) => inserted.has(row.id));
  }
  let next = 0;
  return events.map((event) => (isSubscribable(deps, event) ? (counts[next++] ?? 0) : 0));
}

/** Stores events and hands the deliverer its share; resolves whether any wait to be claimed. */
async function enqueue(
  deps: PublisherDeps,
  events: readonly DomainEvent[],
): Promise<{ counts: number[]; due: boolean }> {
  const at = deps.deliverer.endpointChanges?.() ?? 0;
  const handover: Handover = { leased: [], endpoints: { read: new Map(), at }, due: false };
  let committed = false;
  try {
    // One event is one INSERT, atomic on its own; several share a transaction (one commit).
    const counts =
      events.length === 1
        ? await store(deps, deps.meta.repos, events, handover)
        : await deps.meta.transaction(({ repos }) => store(deps, repos, events, handover));
    committed = true;
    return { counts, due: handover.due };
  } finally {
    if (handover.reservation)
      deps.deliverer.adopt?.(
        handover.reservation,
        committed ? handover.leased : [],
        handover.endpoints,
      );
  }
}

/**
 * Publishing an event enqueues one durable delivery per subscribed endpoint (all sharing one
 * message id) and wakes the deliverer; it resolves, with how many endpoints get it, once they
 * are stored. An event id already enqueued for an endpoint is not enqueued again, so a
 * re-published event is delivered once. As many deliveries as the deliverer has room for are
 * stored leased to it and handed over after the commit with the endpoints read to fan the event
 * out: no claim, no second write, no second read.
 *
 * Group commit: one transaction is written at a time, holding every event published since the
 * one before began (at most PUBLISH_BATCH): those of one synchronous run (a burst of error
 * events), and those that came while a commit was in flight (on PostgreSQL a commit is a round
 * trip; on SQLite a transaction may wait for the connection). Each publish resolves only after
 * the commit that holds its deliveries. A batch that fails is written again event by event, so
 * one bad event fails alone and a failing store fails every caller; nothing is resolved unless
 * stored, and the unique (endpoint, event id) key keeps a retried event from being stored twice.
 */
export function createEventPublisher(deps: PublisherDeps): EventPublisher {
  const log = deps.logger.child({ component: "webhooks" });
  let waiting: Waiting[] = [];
  /** A flush is queued to run after the current synchronous code. */
  let scheduled = false;
  /** A flush is writing: what is published meanwhile waits for its next transaction. */
  let flushing = false;

  /** Writes one batch; settles each of its callers once its outcome is known. */
  async function write(batch: readonly Waiting[]): Promise<void> {
    let due = false;
    try {
      const stored = await enqueue(
        deps,
        batch.map((w) => w.event),
      );
      due = stored.due;
      for (const [i, w] of batch.entries()) w.resolve(stored.counts[i] ?? 0);
    } catch {
      // One event at a time, so each fails on its own. A subscriber deleted between the
      // listing and the insert fails the insert (its foreign key): the retry lists again.
      due = true;
      for (const w of batch) {
        try {
          const stored = await enqueue(deps, [w.event]).catch(() => enqueue(deps, [w.event]));
          w.resolve(stored.counts[0] ?? 0);
        } catch (error) {
          w.reject(error);
        }
      }
    }
    // What was handed over needs no claim; the rest is due now.
    if (due) deps.deliverer.kick();
  }

  async function flush(): Promise<void> {
    scheduled = false;
    flushing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.length <= PUBLISH_BATCH ? waiting : waiting.slice(0, PUBLISH_BATCH);
        waiting = batch === waiting ? [] : waiting.slice(batch.length);
        await write(batch);
      }
    } finally {
      flushing = false;
      if (waiting.length > 0) schedule();
    }
  }

  function schedule(): void {
    if (scheduled || flushing) return;
    scheduled = true;
    // After the current synchronous code: a loop of publish() calls lands in one batch.
    queueMicrotask(() => void flush());
  }

  return {
    publish(event) {
      if (!isSubscribable(deps, event)) {
        log.debug({ event: event.type }, "a sample or not a subscribable webhook event; ignored");
        return Promise.resolve(0);
      }
      return new Promise((resolve, reject) => {
        waiting.push({ event, resolve, reject });
        schedule();
      });
    },
    enqueueIn: (meta, events) => store(deps, meta.repos, events),
  };
}
