import type { AttemptOutcome, WebhookDelivery } from "../meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../meta/repositories/webhook-endpoints.js";

// What the publisher, the verbs and the service see of the deliverer; delivery-pump.ts builds it.

/** Room held for deliveries a publisher is enqueuing already leased to a deliverer. */
export interface Reservation {
  /** How many of them to lease (at most as many as were asked for). */
  count: number;
  /** Their lease: the next_attempt_at to enqueue them with. */
  leaseUntil: string;
}

/**
 * Drains the durable webhook queue: claims due deliveries with a lease (or adopts those a
 * publisher enqueued already leased to it), signs and POSTs each, and records every attempt
 * with its delivery's next state (retry in 60 s, succeeded, failed).
 */
export interface WebhookDeliverer {
  /** Starts delivering, beginning with whatever an earlier process left due. */
  start(): void;
  /**
   * Stops claiming; attempts in flight finish (each within its 10 s) and are recorded, and
   * claimed ones not yet started are handed back as due now.
   */
  stop(): Promise<void>;
  /** New deliveries were enqueued: claim them now. */
  kick(): void;
  /**
   * An endpoint changed or went away: its claimed, unstarted deliveries are handed back (due
   * now), so they are claimed again with its current URL and state instead of being sent.
   */
  forget(endpointId: string): Promise<void>;
  /**
   * Makes the attempts due at the clock's now, `concurrency` at a time, and waits until each
   * is recorded; resolves with how many (tests and one-off drains; no timers involved).
   */
  deliverDue(): Promise<number>;
  /**
   * Makes the next attempt of a delivery the caller enqueued under its own lease (the test
   * action) now, records it, and resolves with its outcome.
   */
  attemptNow(delivery: WebhookDelivery, endpoint: WebhookEndpointRecord): Promise<AttemptOutcome>;
  /**
   * Holds room for up to `wanted` deliveries about to be enqueued already leased to this process
   * (until `leaseUntil`), so they go out without a claim; undefined while it is not delivering
   * or has no room. Settle each reservation with `adopt` once the insert committed or failed.
   */
  reserve(wanted: number): Reservation | undefined;
  /**
   * Takes on the deliveries stored under a reservation (none if the insert failed), attempted
   * like claimed ones. `endpoints` are their endpoints as the publisher read them, after
   * `endpointChanges()` was `at`; any not among them, or changed (`forget`) since, is read now,
   * as a claim reads it. Those of an endpoint changed while they were being taken on are handed
   * back, due now, like claimed ones.
   */
  adopt(
    reservation: Reservation,
    deliveries: readonly WebhookDelivery[],
    endpoints?: AdoptedEndpoints,
  ): void;
  /** How many endpoint changes (`forget`) it has seen: read before reading endpoints to hand over. */
  endpointChanges(): number;
}

/** Endpoints a publisher read for deliveries it hands over, and when (`endpointChanges()`). */
export interface AdoptedEndpoints {
  read: ReadonlyMap<string, WebhookEndpointRecord>;
  at: number;
}
