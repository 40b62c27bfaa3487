import type { MetaStore } from "../../src/meta/meta-store.js";
import type {
  AttemptOutcome,
  NewWebhookDelivery,
} from "../../src/meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../../src/meta/repositories/webhook-endpoints.js";

// The records the webhook store contracts write: one project's endpoints, deliveries and attempts.

export const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
export const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
export const projectId = "prj_hook";
export const endpoint = (
  id: string,
  events: string[],
  extra: Partial<WebhookEndpointRecord> = {},
): WebhookEndpointRecord => ({
  id,
  projectId,
  url: `https://hooks.example.com/${id}`,
  events,
  isActive: true,
  secret: `v1.sealed-${id}`,
  createdBy: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...extra,
});
export const delivery = (
  id: string,
  endpointId: string,
  eventId: string,
  createdAt: string,
  nextAttemptAt = createdAt,
): NewWebhookDelivery => ({
  id,
  projectId,
  endpointId,
  messageId: `msg_${eventId}`,
  eventId,
  event: "monitor.down",
  payload: JSON.stringify({ eventId, nested: { n: 1 } }),
  createdAt,
  nextAttemptAt,
});
export const outcome = (
  attemptId: string,
  deliveryId: string,
  endpointId: string,
  number: number,
  statusCode: number,
  createdAt: string,
  next: Pick<AttemptOutcome, "status" | "nextAttemptAt" | "finishedAt">,
): Omit<AttemptOutcome, "leaseUntil"> => ({
  attempt: {
    id: attemptId,
    deliveryId,
    endpointId,
    messageId: `msg_of_${deliveryId}`,
    event: "monitor.down",
    attempt: number,
    statusCode,
    durationMs: 12,
    success: statusCode >= 200 && statusCode < 300,
    body: statusCode === 0 ? "timed out after 10s" : `answered ${statusCode}`,
    createdAt,
  },
  ...next,
});
/** The outcomes as made under each delivery's current lease (its next_attempt_at now). */
export const underLease = (
  getStore: () => MetaStore,
  outcomes: Omit<AttemptOutcome, "leaseUntil">[],
) =>
  Promise.all(
    outcomes.map(async (o) => ({
      ...o,
      leaseUntil:
        (await getStore().repos.webhookDeliveries.findById(o.attempt.deliveryId))?.nextAttemptAt ??
        "",
    })),
  );
