import type { Logger } from "pino";
import type { WebhookDelivery } from "../meta/repositories/webhook-deliveries.js";
import type { DeliveryJob } from "./attempt.js";
import type { AdoptedEndpoints, Reservation } from "./deliverer.js";
import type { DeliveryQueue } from "./delivery-queue.js";

/**
 * The jobs a deliverer holds and has not started: claimed ones waiting for a slot, and room
 * reserved for (or being taken on from) publishers. An endpoint that changes has its unstarted
 * jobs handed back, so they are claimed again with its current URL and state.
 */
export interface DeliveryBacklog {
  /** Jobs waiting for a slot. */
  waiting(): number;
  /** Room reserved for, or being adopted from, publishers: counted as claimed. */
  held(): number;
  add(jobs: readonly DeliveryJob[]): void;
  /** The oldest waiting job. */
  next(): DeliveryJob | undefined;
  /** Takes every waiting job out (to hand them back). */
  drain(): DeliveryJob[];
  /** Holds room for `count` deliveries about to be enqueued leased to this process. */
  hold(count: number): void;
  /** See `WebhookDeliverer.adopt`. */
  adopt(
    reservation: Reservation,
    deliveries: readonly WebhookDelivery[],
    endpoints?: AdoptedEndpoints,
  ): void;
  /** Adoptions in flight. */
  adopting(): Promise<void>[];
  /** See `WebhookDeliverer.forget`. */
  forget(endpointId: string): Promise<void>;
  /** How many endpoint changes (`forget`) it has seen. */
  endpointChanges(): number;
}

export function createDeliveryBacklog(deps: {
  queue: DeliveryQueue;
  log: Logger;
  /** Whether the deliverer runs: jobs adopted after it stopped go back to the queue. */
  started(): boolean;
  /** Claim again now (jobs were handed back). */
  kick(): void;
  /** Something settled: the pump may have work or room. */
  settled(): void;
}): DeliveryBacklog {
  const { queue, log } = deps;
  let ready: DeliveryJob[] = [];
  let held = 0;
  const adopting = new Set<Promise<void>>();
  /** Endpoint changes seen (`forget`), and the number of each endpoint's latest one. */
  let changes = 0;
  const changedAt = new Map<string, number>();
  const changedSince = (endpointId: string, at: number) => (changedAt.get(endpointId) ?? 0) > at;

  /** Queues taken-on jobs, handing back those of an endpoint changed since `at`. */
  async function takeOn(jobs: DeliveryJob[], at: number): Promise<void> {
    // Stopped meanwhile: back to the queue, due now, like other unstarted jobs; so are
    // those of an endpoint changed meanwhile, to be claimed with its current state.
    if (!deps.started()) return queue.handBack(jobs);
    const stale: DeliveryJob[] = [];
    for (const job of jobs) (changedSince(job.endpoint.id, at) ? stale : ready).push(job);
    if (stale.length > 0) {
      await queue.handBack(stale);
      deps.kick();
    }
  }

  return {
    waiting: () => ready.length,
    held: () => held,
    add(jobs) {
      ready.push(...jobs);
    },
    next: () => ready.shift(),
    drain() {
      const unstarted = ready;
      ready = [];
      return unstarted;
    },
    hold(count) {
      held += count;
    },
    adopt(reservation, deliveries, endpoints) {
      const now = changes;
      const known: DeliveryJob[] = [];
      const unread: WebhookDelivery[] = [];
      for (const delivery of deliveries) {
        const endpoint = endpoints?.read.get(delivery.endpointId);
        if (endpoint && !changedSince(endpoint.id, endpoints?.at ?? 0))
          known.push({ delivery, endpoint });
        else unread.push(delivery);
      }
      const task = queue
        .jobsOf(unread)
        .then(
          (read) => takeOn(known.concat(read), now),
          (error: unknown) =>
            log.error(
              { err: (error as Error).message },
              "could not take on webhook deliveries; they come due when their lease ends",
            ),
        )
        .finally(() => {
          held -= reservation.count;
          adopting.delete(task);
          deps.settled();
        });
      adopting.add(task);
    },
    adopting: () => [...adopting],
    forget(endpointId) {
      changedAt.set(endpointId, ++changes);
      const dropped = ready.filter((job) => job.endpoint.id === endpointId);
      if (dropped.length === 0) return Promise.resolve();
      ready = ready.filter((job) => job.endpoint.id !== endpointId);
      return queue.handBack(dropped).then(deps.kick);
    },
    endpointChanges: () => changes,
  };
}
