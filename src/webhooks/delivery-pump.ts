import type { Logger } from "pino";
import type { MetaAccess } from "../meta/meta-store.js";
import { ATTEMPT_TIMEOUT_MS, type AttemptDeps, type DeliveryJob } from "./attempt.js";
import type { WebhookDeliverer } from "./deliverer.js";
import { createDeliveryBacklog } from "./delivery-backlog.js";
import { createDeliveryQueue, LEASE_MS } from "./delivery-queue.js";
import { createDeliveryRunner } from "./delivery-runner.js";
import { createDeliverySlots } from "./delivery-slots.js";
import { createWakeTimer } from "./wake-timer.js";

/** Time an attempt needs beyond its timeout to be recorded within its lease. */
const LEASE_MARGIN_MS = 5_000;
/** Deliveries claimed per query at most. */
const CLAIM_BATCH = 500;
/** The longest the deliverer sleeps, so other processes' work and expired leases are noticed. */
const POLL_MS = 5_000;

export interface WebhookDelivererOptions extends Omit<AttemptDeps, "log"> {
  meta: MetaAccess;
  logger: Logger;
  /** Attempts in flight at once. */
  concurrency: number;
  /** The idle wake-up interval (default 5 s). */
  pollMs?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The deliverer (see `WebhookDeliverer`): a pump that keeps up to `concurrency` attempts in
 * flight while work is due, claiming from the queue (delivery-queue.ts) or taking on what
 * publishers hand over (delivery-backlog.ts), and sleeping until the next due delivery
 * (wake-timer.ts); each job's attempt and recording is the runner's (delivery-runner.ts).
 */
export function createWebhookDeliverer(options: WebhookDelivererOptions): WebhookDeliverer {
  const { clock, concurrency } = options;
  const log = options.logger.child({ component: "webhooks" });
  const runner = createDeliveryRunner({ ...options, log });
  const queue = createDeliveryQueue(options.meta, clock, log);

  let started = false;
  let claiming: Promise<void> | undefined;
  /** Whether more may be due now: set by kicks, wake-ups and full claims, cleared by a short one. */
  let maybeMore = false;
  let kicks = 0;
  /** When the last claim that found nothing ran (ms), to tell a held row from a due one. */
  let emptyClaimAt = Number.NEGATIVE_INFINITY;

  const kick = (): void => {
    kicks++;
    maybeMore = true;
    pump();
  };
  /** The wake-up timer: armed whenever claiming has stopped, busy or idle. */
  const timer = createWakeTimer({
    clock,
    pollMs: options.pollMs ?? POLL_MS,
    log,
    nextDueAt: queue.nextDueAt,
    active: () => started,
    onWake: kick,
  });
  const backlog = createDeliveryBacklog({
    queue,
    log,
    started: () => started,
    kick,
    settled: () => pump(),
  });

  const slots = createDeliverySlots({
    runner,
    concurrency,
    dueAgain: (atMs) => timer.wakeBy(atMs),
    changed: () => pump(),
  });

  /**
   * How many more jobs to take on now: the backlog the attempts' pace allows, less those
   * claimed, in flight or not yet recorded, so a slow store slows claiming too.
   */
  const room = (): number =>
    Math.min(CLAIM_BATCH, slots.backlog() - backlog.waiting() - slots.busy() - backlog.held());

  /** Whether a claimed job still has time for its attempt and recording under its lease. */
  const leaseLeft = (job: DeliveryJob) =>
    Date.parse(job.delivery.nextAttemptAt ?? "") - clock.now().getTime() >=
    ATTEMPT_TIMEOUT_MS + LEASE_MARGIN_MS;

  /** Claims up to `limit` due jobs into the backlog; then pumps again. */
  function claim(limit: number): void {
    const kicksBefore = kicks;
    claiming = queue
      .claim(limit)
      .then(
        ({ jobs, claimed, at }) => {
          backlog.add(jobs);
          if (claimed === 0) emptyClaimAt = at;
          maybeMore = claimed >= limit || kicks !== kicksBefore;
        },
        (error: unknown) => {
          log.error({ err: (error as Error).message }, "could not claim webhook deliveries");
          emptyClaimAt = clock.now().getTime();
          maybeMore = false;
        },
      )
      .finally(() => {
        claiming = undefined;
        pump();
      });
  }

  function pump(): void {
    if (!started) return;
    while (slots.free() && backlog.waiting() > 0) {
      const job = backlog.next();
      // One that waited too long is left to its lease, lest it be sent twice.
      if (job && leaseLeft(job)) slots.launch(job);
    }
    if (claiming) return;
    const limit = room();
    if (maybeMore && backlog.waiting() < concurrency && limit > 0) claim(limit);
    // A timer stays armed for the next delivery that comes due (a retry, another process's
    // work, a lease that runs out), so nothing due waits for the attempts in flight to end.
    else if (!maybeMore) timer.arm(emptyClaimAt);
  }

  return {
    start() {
      if (started) return;
      started = true;
      kick();
    },
    async stop() {
      started = false;
      timer.cancel();
      // Attempts in flight end within their 10 s and are recorded; unstarted ones go back.
      const busy = () => [claiming, timer.arming(), ...slots.running(), ...backlog.adopting()];
      while (claiming || timer.arming() || slots.busy() > 0 || backlog.adopting().length > 0)
        await Promise.allSettled(busy());
      await runner.idle();
      await queue.handBack(backlog.drain());
    },
    forget: (endpointId) => backlog.forget(endpointId),
    kick,
    reserve(wanted) {
      const count = started ? Math.min(wanted, room()) : 0;
      if (count <= 0) return undefined;
      backlog.hold(count);
      return { count, leaseUntil: iso(clock.now().getTime() + LEASE_MS) };
    },
    adopt: (reservation, deliveries, endpoints) =>
      backlog.adopt(reservation, deliveries, endpoints),
    endpointChanges: () => backlog.endpointChanges(),
    async deliverDue() {
      let total = 0;
      for (;;) {
        const { jobs, claimed } = await queue.claim(concurrency);
        await Promise.all(jobs.map((job) => slots.run(job)));
        total += jobs.length;
        if (claimed === 0) return total;
      }
    },
    async attemptNow(delivery, endpoint) {
      const outcome = await runner.attemptNow({ delivery, endpoint });
      if (outcome.nextAttemptAt !== null) timer.wakeBy(Date.parse(outcome.nextAttemptAt));
      return outcome;
    },
  };
}
