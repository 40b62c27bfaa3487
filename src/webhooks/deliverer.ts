import type { Logger } from "pino";
import type { MetaAccess } from "../meta/meta-store.js";
import type { AttemptOutcome, WebhookDelivery } from "../meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../meta/repositories/webhook-endpoints.js";
import {
  ATTEMPT_TIMEOUT_MS,
  type AttemptDeps,
  createAttemptMaker,
  type DeliveryJob,
} from "./attempt.js";
import { createAttemptRecorder } from "./recorder.js";

/**
 * How long a claimed delivery stays this process's: longer than an attempt and its recording,
 * so a live process never loses one; a killed one's come due again this long after the claim.
 */
export const LEASE_MS = 30_000;
/** Time an attempt needs beyond its timeout to be recorded within its lease. */
const LEASE_MARGIN_MS = 5_000;
/** Deliveries claimed per query at most. */
const CLAIM_BATCH = 500;
/**
 * How much work a deliverer holds (claimed, in flight or not yet recorded), in multiples of its
 * concurrency: at least twice it, and up to eight times it while attempts are answered fast
 * enough that the last job held still starts within BACKLOG_MS. Holding more means fewer,
 * larger claims and hand-overs (measured: 20% less CPU per delivery at 8 than at 2); holding
 * it only while attempts are fast keeps slow endpoints' jobs from waiting out their lease.
 */
const MIN_BACKLOG = 2;
const MAX_BACKLOG = 8;
const BACKLOG_MS = 2_000;
/** The attempt duration assumed before any was measured, and how fast the average follows. */
const INITIAL_ATTEMPT_MS = 1_000;
const PACE_WEIGHT = 0.05;
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

const iso = (ms: number) => new Date(ms).toISOString();

export function createWebhookDeliverer(options: WebhookDelivererOptions): WebhookDeliverer {
  const { meta, clock } = options;
  const log = options.logger.child({ component: "webhooks" });
  const pollMs = options.pollMs ?? POLL_MS;
  const attempt = createAttemptMaker({ ...options, log });
  const recorder = createAttemptRecorder(meta, log);

  /**
   * Attempts a job, calls `answered` once the attempt is over, and records the outcome; never
   * rejects (logged where it failed; the lease brings the delivery back).
   */
  async function run(job: DeliveryJob, answered: () => void = () => {}): Promise<void> {
    let outcome: AttemptOutcome;
    try {
      outcome = await attempt(job);
      attemptMs += PACE_WEIGHT * (Math.max(1, outcome.attempt.durationMs) - attemptMs);
    } catch {
      return;
    } finally {
      answered();
    }
    try {
      await recorder.record(outcome);
    } catch {
      return;
    }
    if (outcome.nextAttemptAt !== null) wakeBy(Date.parse(outcome.nextAttemptAt));
  }

  // ---- claiming and adopting ----

  /**
   * The jobs of deliveries leased to this process, with their endpoints as they are now; those
   * of disabled endpoints end without an attempt, those of deleted ones went with them.
   */
  async function jobsOf(deliveries: readonly WebhookDelivery[]): Promise<DeliveryJob[]> {
    if (deliveries.length === 0) return [];
    const endpointIds = [...new Set(deliveries.map((d) => d.endpointId))];
    const endpoints = new Map(
      (await meta.repos.webhookEndpoints.findByIds(endpointIds)).map((e) => [e.id, e]),
    );
    const jobs: DeliveryJob[] = [];
    const disabled: string[] = [];
    for (const delivery of deliveries) {
      const endpoint = endpoints.get(delivery.endpointId);
      if (!endpoint) continue;
      if (endpoint.isActive) jobs.push({ delivery, endpoint });
      else disabled.push(delivery.id);
    }
    if (disabled.length > 0) {
      await meta.repos.webhookDeliveries.cancel(disabled, iso(clock.now().getTime()));
      log.info({ count: disabled.length }, "dropped webhook deliveries of disabled endpoints");
    }
    return jobs;
  }

  /** Claims up to `limit` due deliveries. */
  async function claim(
    limit: number,
  ): Promise<{ jobs: DeliveryJob[]; claimed: number; at: number }> {
    const now = clock.now().getTime();
    const deliveries = await meta.repos.webhookDeliveries.claimDue(
      iso(now),
      limit,
      iso(now + LEASE_MS),
    );
    return { jobs: await jobsOf(deliveries), claimed: deliveries.length, at: now };
  }

  // ---- the pump: keeps up to `concurrency` attempts in flight while work is due ----

  let started = false;
  let inFlight = 0;
  const running = new Set<Promise<void>>();
  let ready: DeliveryJob[] = [];
  let claiming: Promise<void> | undefined;
  /** Whether more may be due now: set by kicks, wake-ups and full claims, cleared by a short one. */
  let maybeMore = false;
  let kicks = 0;
  /** When the last claim that found nothing ran (ms), to tell a held row from a due one. */
  let emptyClaimAt = Number.NEGATIVE_INFINITY;
  /** The wake-up timer: armed whenever claiming has stopped, busy or idle. */
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Number.POSITIVE_INFINITY;
  let arming: Promise<void> | undefined;
  /** Reserved for, or being adopted from, publishers: counted as claimed. */
  let held = 0;
  const adopting = new Set<Promise<void>>();
  /** Endpoint changes seen (`forget`), and the number of each endpoint's latest one. */
  let changes = 0;
  const changedAt = new Map<string, number>();
  const changedSince = (endpointId: string, at: number) => (changedAt.get(endpointId) ?? 0) > at;

  /** The running average of attempt durations (ms). */
  let attemptMs = INITIAL_ATTEMPT_MS;

  /**
   * How many more jobs to take on now: the backlog the attempts' pace allows, less those
   * claimed, in flight or not yet recorded (`running`), so a slow store slows claiming too.
   */
  function room(): number {
    const factor = Math.min(MAX_BACKLOG, Math.max(MIN_BACKLOG, 1 + BACKLOG_MS / attemptMs));
    const backlog = Math.floor(factor * options.concurrency);
    return Math.min(CLAIM_BATCH, backlog - ready.length - running.size - held);
  }

  /** Starts a job: its slot is free once it is answered, before its outcome is recorded. */
  function launch(job: DeliveryJob): void {
    inFlight++;
    const answered = () => {
      inFlight--;
      pump();
    };
    const task = run(job, answered).finally(() => {
      running.delete(task);
      pump();
    });
    running.add(task);
  }

  /** Whether a claimed job still has time for its attempt and recording under its lease. */
  const leaseLeft = (job: DeliveryJob) =>
    Date.parse(job.delivery.nextAttemptAt ?? "") - clock.now().getTime() >=
    ATTEMPT_TIMEOUT_MS + LEASE_MARGIN_MS;

  function pump(): void {
    if (!started) return;
    while (inFlight < options.concurrency && ready.length > 0) {
      const job = ready.shift();
      // One that waited too long is left to its lease, lest it be sent twice.
      if (job && leaseLeft(job)) launch(job);
    }
    if (claiming) return;
    const limit = room();
    if (maybeMore && ready.length < options.concurrency && limit > 0) {
      const kicksBefore = kicks;
      claiming = claim(limit)
        .then(
          ({ jobs, claimed, at }) => {
            ready.push(...jobs);
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
      return;
    }
    // A timer stays armed for the next delivery that comes due (a retry, another process's
    // work, a lease that runs out), so nothing due waits for the attempts in flight to end.
    if (!maybeMore) armTimer();
  }

  /** Makes sure the deliverer wakes by `atMs`, and never sleeps longer than the poll interval. */
  function wakeBy(atMs: number): void {
    if (!started) return;
    const now = clock.now().getTime();
    const target = Math.min(atMs, now + pollMs);
    if (timer && wakeAt <= target) return;
    clearTimeout(timer);
    wakeAt = target;
    timer = setTimeout(wake, Math.max(0, target - now));
    timer.unref();
  }

  function armTimer(): void {
    if (timer || arming) return;
    arming = meta.repos.webhookDeliveries
      .nextDueAt()
      .then(
        (next) => {
          const now = clock.now().getTime();
          const due = next === undefined ? now + pollMs : Date.parse(next);
          // Due already, yet the last claim found nothing (another process holds it): no spin.
          wakeBy(due <= emptyClaimAt ? now + 250 : due);
        },
        (error: unknown) => {
          log.error({ err: (error as Error).message }, "could not read the webhook queue");
          wakeBy(clock.now().getTime() + pollMs);
        },
      )
      .finally(() => {
        arming = undefined;
      });
  }

  function wake(): void {
    timer = undefined;
    wakeAt = Number.POSITIVE_INFINITY;
    maybeMore = true;
    kicks++;
    pump();
  }

  function kick(): void {
    kicks++;
    maybeMore = true;
    pump();
  }

  /** Hands claimed, unstarted jobs back, due now (each only while still under its lease). */
  async function handBack(jobs: readonly DeliveryJob[]): Promise<void> {
    const byLease = new Map<string, DeliveryJob[]>();
    for (const job of jobs) {
      const lease = job.delivery.nextAttemptAt ?? "";
      byLease.set(lease, [...(byLease.get(lease) ?? []), job]);
    }
    const now = clock.now().toISOString();
    try {
      for (const [lease, group] of byLease)
        await meta.repos.webhookDeliveries.release(
          group.map((job) => job.delivery.id),
          now,
          lease,
        );
    } catch (error) {
      log.warn(
        { err: (error as Error).message },
        "could not hand back webhook deliveries; they come due when their lease ends",
      );
    }
  }

  /** Takes on deliveries enqueued under a reservation; see `WebhookDeliverer.adopt`. */
  function adopt(
    reservation: Reservation,
    deliveries: readonly WebhookDelivery[],
    endpoints?: AdoptedEndpoints,
  ): void {
    const now = changes;
    const known: DeliveryJob[] = [];
    const unread: WebhookDelivery[] = [];
    for (const delivery of deliveries) {
      const endpoint = endpoints?.read.get(delivery.endpointId);
      if (endpoint && !changedSince(endpoint.id, endpoints?.at ?? 0))
        known.push({ delivery, endpoint });
      else unread.push(delivery);
    }
    const task = jobsOf(unread)
      .then(
        async (read) => {
          const jobs = known.concat(read);
          // Stopped meanwhile: back to the queue, due now, like other unstarted jobs; so are
          // those of an endpoint changed meanwhile, to be claimed with its current state.
          if (!started) return handBack(jobs);
          const stale: DeliveryJob[] = [];
          for (const job of jobs) (changedSince(job.endpoint.id, now) ? stale : ready).push(job);
          if (stale.length > 0) {
            await handBack(stale);
            kick();
          }
        },
        (error: unknown) =>
          log.error(
            { err: (error as Error).message },
            "could not take on webhook deliveries; they come due when their lease ends",
          ),
      )
      .finally(() => {
        held -= reservation.count;
        adopting.delete(task);
        pump();
      });
    adopting.add(task);
  }

  return {
    start() {
      if (started) return;
      started = true;
      wake();
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      timer = undefined;
      wakeAt = Number.POSITIVE_INFINITY;
      // Attempts in flight end within their 10 s and are recorded; unstarted ones go back.
      while (claiming || arming || running.size > 0 || adopting.size > 0)
        await Promise.allSettled([claiming, arming, ...running, ...adopting]);
      await recorder.idle();
      const unstarted = ready;
      ready = [];
      await handBack(unstarted);
    },
    forget(endpointId) {
      changedAt.set(endpointId, ++changes);
      const dropped = ready.filter((job) => job.endpoint.id === endpointId);
      if (dropped.length === 0) return Promise.resolve();
      ready = ready.filter((job) => job.endpoint.id !== endpointId);
      return handBack(dropped).then(kick);
    },
    kick,
    reserve(wanted) {
      const count = started ? Math.min(wanted, room()) : 0;
      if (count <= 0) return undefined;
      held += count;
      return { count, leaseUntil: iso(clock.now().getTime() + LEASE_MS) };
    },
    adopt,
    endpointChanges: () => changes,
    async deliverDue() {
      let total = 0;
      for (;;) {
        const { jobs, claimed } = await claim(options.concurrency);
        await Promise.all(jobs.map((job) => run(job)));
        total += jobs.length;
        if (claimed === 0) return total;
      }
    },
    async attemptNow(delivery, endpoint) {
      const outcome = await attempt({ delivery, endpoint });
      await recorder.record(outcome);
      if (outcome.nextAttemptAt !== null) wakeBy(Date.parse(outcome.nextAttemptAt));
      return outcome;
    },
  };
}
