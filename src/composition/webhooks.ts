import type { Logger } from "pino";
import { ALERT_WEBHOOK_EVENTS } from "../alerts/alert-webhook-events.js";
import type { Config } from "../config/config-schema.js";
import { readPemSetting } from "../config/load-config.js";
import { INCIDENT_WEBHOOK_EVENTS } from "../incidents/incident-webhook-events.js";
import type { ErrorTransition } from "../ingest/error-groups.js";
import { ERROR_WEBHOOK_EVENTS, errorEventPayload } from "../ingest/error-webhook-events.js";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { Metrics } from "../lib/metrics.js";
import { createRetentionSweep, type RetentionSweep } from "../lib/retention-sweep.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaStore } from "../meta/meta-store.js";
import { MONITOR_WEBHOOK_EVENTS } from "../monitors/monitor-webhook-events.js";
import {
  createWebhookEventRegistry,
  type WebhookEventRegistry,
} from "../webhooks/event-registry.js";
import { createWebhookService, type WebhookService } from "../webhooks/webhook-service.js";

/**
 * The subscribable webhook event types: test.ping and those each domain defines for what it
 * emits (docs/webhooks.md). A new domain's events are one more list here.
 */
export function createWebhookEventTypes(): WebhookEventRegistry {
  return createWebhookEventRegistry([
    ...MONITOR_WEBHOOK_EVENTS,
    ...ERROR_WEBHOOK_EVENTS,
    ...ALERT_WEBHOOK_EVENTS,
    ...INCIDENT_WEBHOOK_EVENTS,
  ]);
}

/** Webhook endpoints' delivery: the guarded transport, the deliverer and log retention. */
export type AppWebhooks = WebhookService & {
  retention: RetentionSweep;
  /** Resolves once the error events ingestion published so far are enqueued. */
  settled(): Promise<void>;
};

/** Publishes made outside a request (ingestion's error events), awaited before the store closes. */
export interface PendingPublishes {
  track(publishing: Promise<unknown>): void;
  settled(): Promise<void>;
}

export function createPendingPublishes(): PendingPublishes {
  const publishing = new Set<Promise<unknown>>();
  return {
    track(promise) {
      publishing.add(promise);
      void promise.finally(() => publishing.delete(promise));
    },
    async settled() {
      while (publishing.size > 0) await Promise.allSettled([...publishing]);
    },
  };
}

export interface WebhookWiring {
  meta: MetaStore;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  metrics: Metrics;
  secretBox: SecretBox;
  /** Where `settled()` waits; a fresh set when not given. */
  pending?: PendingPublishes;
}

/**
 * The webhook service as the service runs it (docs/webhooks.md): its transport trusts
 * `webhooks.caFile`, and the delivery log is swept after `webhooks.logRetentionDays`.
 * `close()` closes the transport's agent; stop the deliverer first.
 */
export function createWebhooks(
  config: Config,
  deps: WebhookWiring,
): AppWebhooks & { close(): Promise<void> } {
  const { meta, clock, logger } = deps;
  const service = createWebhookService(config.webhooks, {
    meta,
    clock,
    newId: deps.newId,
    logger,
    metrics: deps.metrics,
    secretBox: deps.secretBox,
    eventTypes: createWebhookEventTypes(),
    ca: readPemSetting("VIGIL_WEBHOOKS_CA_FILE", config.webhooks.caFile),
  });
  const pending = deps.pending ?? createPendingPublishes();
  return {
    ...service,
    settled: pending.settled,
    retention: createRetentionSweep({
      clock,
      logger,
      what: "webhook delivery records",
      retentionDays: config.webhooks.logRetentionDays,
      deleteBatch: async (cutoff, limit) =>
        (await meta.repos.webhookDeliveries.deleteAttemptsBefore(cutoff, limit)) +
        (await meta.repos.webhookDeliveries.deleteFinishedBefore(cutoff, limit)),
    }),
  };
}

/**
 * Ingestion's error transitions as webhooks: a new group becomes error.created, a regressed one
 * error.regressed (docs/webhooks.md). Publishing is not awaited by the write; `pending` holds it
 * until enqueued, and a failure is logged.
 */
export function errorTransitionWebhooks(deps: {
  publish: WebhookService["publish"];
  clock: Clock;
  logger: Logger;
  pending: PendingPublishes;
}): (transitions: readonly ErrorTransition[]) => void {
  const { publish, clock, logger, pending } = deps;
  return (transitions) => {
    for (const t of transitions) {
      const enqueued = publish({
        // One event per group, kind and last occurrence: a re-run never enqueues it twice.
        id: `error.${t.kind}:${t.group.fingerprint}:${t.group.lastSeenMs}`,
        type: `error.${t.kind}`,
        projectId: t.group.projectId,
        data: errorEventPayload(t.group),
        occurredAt: clock.now().toISOString(),
      }).catch((error: unknown) =>
        logger.error(
          { err: (error as Error).message, fingerprint: t.group.fingerprint },
          `could not enqueue the error.${t.kind} webhooks`,
        ),
      );
      pending.track(enqueued);
    }
  };
}
