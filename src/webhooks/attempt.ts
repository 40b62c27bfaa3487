import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { Metrics } from "../lib/metrics.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { AttemptOutcome, WebhookDelivery } from "../meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../meta/repositories/webhook-endpoints.js";
import { deliveryBody, openSecret, signatureHeaders, signingKey } from "./signing.js";
import { isSuccess, type WebhookAnswer, type WebhookPost } from "./transport.js";

/** Spec: each attempt times out after 10 seconds. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Spec: attempt 2 fires 60 seconds after a failed attempt 1, and there is no attempt 3. */
export const RETRY_DELAY_MS = 60_000;
export const MAX_ATTEMPTS = 2;

/** A delivery due for an attempt, with the endpoint it goes to. */
export interface DeliveryJob {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpointRecord;
}

export interface AttemptDeps {
  clock: Clock;
  newId: IdGenerator;
  /** Already the webhooks' child logger. */
  log: Logger;
  secretBox: SecretBox;
  /** Sends one POST (the transport over the guarded agent). */
  send(post: WebhookPost): Promise<WebhookAnswer>;
  metrics?: Pick<Metrics, "webhookDeliveries" | "webhookAttemptSeconds" | "webhookQueueSeconds">;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** An answer, or what went wrong instead (anything but a cancelled request). */
type Answered = Extract<WebhookAnswer, { statusCode: number }>;

const UNREADABLE_SECRET: Answered = {
  statusCode: 0,
  durationMs: 0,
  body: "the endpoint's signing secret cannot be read with this server's key; create the endpoint again",
};

/**
 * Makes attempts: signs the delivery's next attempt, POSTs it and says what it means for the
 * delivery (retry in 60 s, succeeded, failed). Never rejects except for a cancelled request.
 */
export function createAttemptMaker(
  deps: AttemptDeps,
): (job: DeliveryJob) => Promise<AttemptOutcome> {
  const { clock, log, metrics } = deps;
  // Unsealing costs an AES-GCM open and a JSON parse: once per endpoint and sealed secret.
  // The key stays in this process's memory only, like the server key that unseals it.
  const keys = new Map<string, { sealed: string; key: Buffer }>();

  function keyOf(endpoint: WebhookEndpointRecord): Buffer | undefined {
    const cached = keys.get(endpoint.id);
    if (cached?.sealed === endpoint.secret) return cached.key;
    try {
      const key = signingKey(openSecret(deps.secretBox, endpoint.secret));
      keys.set(endpoint.id, { sealed: endpoint.secret, key });
      return key;
    } catch (error) {
      log.error(
        { endpointId: endpoint.id, err: (error as Error).message },
        "unreadable signing secret",
      );
      return undefined;
    }
  }

  function observe(outcome: AttemptOutcome, queuedSince: string): void {
    if (!metrics) return;
    const { attempt } = outcome;
    const result = attempt.success ? "succeeded" : outcome.nextAttemptAt ? "retry" : "failed";
    metrics.webhookDeliveries.inc({ outcome: result });
    metrics.webhookAttemptSeconds.observe(attempt.durationMs / 1000);
    if (attempt.attempt === 1)
      metrics.webhookQueueSeconds.observe(
        Math.max(0, Date.parse(attempt.createdAt) - Date.parse(queuedSince)) / 1000,
      );
  }

  /** Fields are only gathered when the level is on (a delivered attempt logs at debug). */
  function logOutcome(job: DeliveryJob, outcome: AttemptOutcome, answer: Answered): void {
    const { attempt } = outcome;
    if (!log.isLevelEnabled(attempt.success ? "debug" : "warn")) return;
    const fields = {
      deliveryId: job.delivery.id,
      endpointId: job.endpoint.id,
      messageId: job.delivery.messageId,
      event: job.delivery.event,
      attempt: attempt.attempt,
      status: attempt.statusCode,
      ...(answer.error ? { error: answer.error.code, detail: answer.error.message } : {}),
    };
    if (attempt.success) log.debug(fields, "webhook delivered");
    else if (outcome.nextAttemptAt !== null)
      log.warn(
        { ...fields, nextAttemptAt: outcome.nextAttemptAt },
        "webhook attempt failed; will retry",
      );
    else log.warn(fields, "webhook delivery failed for good");
  }

  return async function attempt(job) {
    const { delivery, endpoint } = job;
    const number = delivery.attempts + 1;
    const startedAt = clock.now();
    const body = deliveryBody(delivery.event, delivery.payload, number);
    const key = keyOf(endpoint);
    const answer = key
      ? await deps.send({
          url: endpoint.url,
          event: delivery.event,
          body,
          signature: signatureHeaders(key, delivery.messageId, startedAt, body),
          timeoutMs: ATTEMPT_TIMEOUT_MS,
        })
      : UNREADABLE_SECRET;
    // Only a cancelled request is aborted, and attempts are never cancelled.
    if (answer.aborted) throw new Error("a webhook attempt was aborted");
    const success = isSuccess(answer.statusCode);
    const finishedMs = clock.now().getTime();
    const retry = !success && number < MAX_ATTEMPTS;
    const outcome: AttemptOutcome = {
      leaseUntil: delivery.nextAttemptAt ?? "",
      attempt: {
        id: deps.newId("att"),
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
    observe(outcome, delivery.createdAt);
    logOutcome(job, outcome, answer);
    return outcome;
  };
}
