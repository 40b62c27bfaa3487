import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { Metrics } from "../lib/metrics.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { AttemptOutcome, WebhookDelivery } from "../meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../meta/repositories/webhook-endpoints.js";
import { createAttemptRecorder } from "./recorder.js";
import { deliveryBody, openSecret, signatureHeaders, signingKey } from "./signing.js";
import { isSuccess, type WebhookAnswer, type WebhookPost } from "./transport.js";

/** Spec: each attempt times out after 10 seconds. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Spec: attempt 2 fires 60 seconds after a failed attempt 1, and there is no attempt 3. */
export const RETRY_DELAY_MS = 60_000;
export const MAX_ATTEMPTS = 2;
/**
 * How long a claimed delivery stays this process's: longer than an attempt and its recording,
 * so a live process never loses one; a killed one's come due again this long after the claim.
 */
export const LEASE_MS = 30_000;
/** Time an attempt needs beyond its timeout to be recorded within its lease. */
const LEASE_MARGIN_MS = 5_000;
/** Deliveries claimed per query at most. */
const CLAIM_BATCH = 500;
/** The longest the deliverer sleeps, so other processes' work and expired leases are noticed. */
const POLL_MS = 5_000;

export interface WebhookDelivererOptions {
  meta: MetaAccess;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  secretBox: SecretBox;
  /** Sends one POST (the transport over the guarded agent). */
  send(post: WebhookPost): Promise<WebhookAnswer>;
  /** Attempts in flight at once. */
  concurrency: number;
  metrics?: Pick<Metrics, "webhookDeliveries" | "webhookAttemptSeconds" | "webhookQueueSeconds">;
  /** The idle wake-up interval (default 5 s). */
  pollMs?: number;
}

/** A delivery claimed for an attempt, with the endpoint it goes to. */
interface Job {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpointRecord;
}

/**
 * Drains the durable webhook queue: claims due deliveries with a lease, signs and POSTs each,
 * and records every attempt with its delivery's next state (retry in 60 s, succeeded, failed).
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
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createWebhookDeliverer(options: WebhookDelivererOptions): WebhookDeliverer {
  const { meta, clock, logger, metrics } = options;
  const log = logger.child({ component: "webhooks" });
  const pollMs = options.pollMs ?? POLL_MS;
  const keys = new Map<string, { sealed: string; key: Buffer }>();

  function keyOf(endpoint: WebhookEndpointRecord): Buffer {
    const cached = keys.get(endpoint.id);
    if (cached?.sealed === endpoint.secret) return cached.key;
    const key = signingKey(openSecret(options.secretBox, endpoint.secret));
    keys.set(endpoint.id, { sealed: endpoint.secret, key });
    return key;
  }

  const recorder = createAttemptRecorder(meta, log);

  // ---- one attempt ----

  /** Signs and sends the delivery's next attempt; never rejects. */
  async function attempt(job: Job): Promise<AttemptOutcome> {
    const { delivery, endpoint } = job;
    const number = delivery.attempts + 1;
    const startedAt = clock.now();
    const body = deliveryBody(delivery.event, delivery.data, number);
    if (number === 1)
      metrics?.webhookQueueSeconds.observe(
        Math.max(0, startedAt.getTime() - Date.parse(delivery.createdAt)) / 1000,
      );
    let key: Buffer | undefined;
    try {
      key = keyOf(endpoint);
    } catch (error) {
      log.error(
        { endpointId: endpoint.id, err: (error as Error).message },
        "unreadable signing secret",
      );
    }
    const answer: WebhookAnswer = key
      ? await options.send({
          url: endpoint.url,
          event: delivery.event,
          body,
          signature: signatureHeaders(key, delivery.messageId, startedAt, body),
          timeoutMs: ATTEMPT_TIMEOUT_MS,
        })
      : {
          statusCode: 0,
          durationMs: 0,
          body: "the endpoint's signing secret cannot be read with this server's key; create the endpoint again",
        };
    // Only a cancelled request is aborted, and attempts are never cancelled.
    if (answer.aborted) throw new Error("a webhook attempt was aborted");
    const success = isSuccess(answer.statusCode);
    const finishedMs = clock.now().getTime();
    const retry = !success && number < MAX_ATTEMPTS;
    const outcome: AttemptOutcome = {
      leaseUntil: delivery.nextAttemptAt ?? "",
      attempt: {
        id: options.newId("att"),
        deliveryId: delivery.id,
        endpointId: endpoint.id,
        messageId: delivery.messageId,
        event: delivery.event,
        attempt: number,
        statusCode: answer.statusCode,
        durationMs: answer.durationMs,
        success,
        body: answer.body,
        createdAt: startedAt.toISOString(),
      },
      status: success ? "succeeded" : retry ? "pending" : "failed",
      nextAttemptAt: retry ? iso(finishedMs + RETRY_DELAY_MS) : null,
      finishedAt: retry ? null : iso(finishedMs),
    };
    const result = success ? "succeeded" : retry ? "retry" : "failed";
    metrics?.webhookDeliveries.inc({ outcome: result });
    metrics?.webhookAttemptSeconds.observe(answer.durationMs / 1000);
    const fields = {
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      messageId: delivery.messageId,
      event: delivery.event,
      attempt: number,
      status: answer.statusCode,
      ...(answer.error ? { error: answer.error.code, detail: answer.error.message } : {}),
    };
    if (success) log.debug(fields, "webhook delivered");
    else if (retry)
      log.warn(
        { ...fields, nextAttemptAt: outcome.nextAttemptAt },
        "webhook attempt failed; will retry",
      );
    else log.warn(fields, "webhook delivery failed for good");
    return outcome;
  }

  /** Attempts a job and records the outcome; never rejects (a lost record is retried by lease). */
  async function run(job: Job): Promise<void> {
    try {
      const outcome = await attempt(job);
      await recorder.record(outcome);
      if (outcome.nextAttemptAt !== null) wakeBy(Date.parse(outcome.nextAttemptAt));
    } catch {
      // Logged where it failed; the lease brings the delivery back.
    }
  }

  // ---- claiming ----

  /** Claims up to `limit` due deliveries; those of disabled endpoints end without an attempt. */
  async function claim(limit: number): Promise<{ jobs: Job[]; claimed: number; at: number }> {
    const now = clock.now().getTime();
    const deliveries = await meta.repos.webhookDeliveries.claimDue(
      iso(now),
      limit,
      iso(now + LEASE_MS),
    );
    if (deliveries.length === 0) return { jobs: [], claimed: 0, at: now };
    const endpointIds = [...new Set(deliveries.map((d) => d.endpointId))];
    const endpoints = new Map(
      (await meta.repos.webhookEndpoints.findByIds(endpointIds)).map((e) => [e.id, e]),
    );
    const jobs: Job[] = [];
    const disabled: string[] = [];
    for (const delivery of deliveries) {
      const endpoint = endpoints.get(delivery.endpointId);
      // A deleted endpoint's deliveries are deleted with it.
      if (!endpoint) continue;
      if (endpoint.isActive) jobs.push({ delivery, endpoint });
      else disabled.push(delivery.id);
    }
    if (disabled.length > 0) {
      await meta.repos.webhookDeliveries.cancel(disabled, iso(clock.now().getTime()));
      log.info({ count: disabled.length }, "dropped webhook deliveries of disabled endpoints");
    }
    return { jobs, claimed: deliveries.length, at: now };
  }

  // ---- the pump: keeps up to `concurrency` attempts in flight while work is due ----

  let started = false;
  let inFlight = 0;
  const running = new Set<Promise<void>>();
  let ready: Job[] = [];
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

  function launch(job: Job): void {
    inFlight++;
    const task = run(job).finally(() => {
      inFlight--;
      running.delete(task);
      pump();
    });
    running.add(task);
  }

  /** Whether a claimed job still has time for its attempt and recording under its lease. */
  const leaseLeft = (job: Job) =>
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
    const room = Math.min(CLAIM_BATCH, 2 * options.concurrency - ready.length - inFlight);
    if (maybeMore && ready.length < options.concurrency && room > 0) {
      const kicksBefore = kicks;
      claiming = claim(room)
        .then(
          ({ jobs, claimed, at }) => {
            ready.push(...jobs);
            if (claimed === 0) emptyClaimAt = at;
            maybeMore = claimed >= room || kicks !== kicksBefore;
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
  async function handBack(jobs: readonly Job[]): Promise<void> {
    const byLease = new Map<string, Job[]>();
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
      while (claiming || arming || running.size > 0)
        await Promise.allSettled([claiming, arming, ...running]);
      await recorder.idle();
      const unstarted = ready;
      ready = [];
      await handBack(unstarted);
    },
    forget(endpointId) {
      const dropped = ready.filter((job) => job.endpoint.id === endpointId);
      if (dropped.length === 0) return Promise.resolve();
      ready = ready.filter((job) => job.endpoint.id !== endpointId);
      return handBack(dropped).then(kick);
    },
    kick,
    async deliverDue() {
      let total = 0;
      for (;;) {
        const { jobs, claimed } = await claim(options.concurrency);
        await Promise.all(jobs.map(run));
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
