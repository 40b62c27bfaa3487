import type { WebhookDeliveryRecordView, WebhookEndpointView } from "../contracts/webhooks.js";
import type { WebhookAttemptWithRetry } from "../meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../meta/repositories/webhook-endpoints.js";
import { deliveryBody } from "./signing.js";

/** An endpoint as the API shows it (its sealed secret never). */
export const toWebhookEndpointView = (e: WebhookEndpointRecord): WebhookEndpointView => ({
  id: e.id,
  projectId: e.projectId,
  url: e.url,
  events: e.events,
  isActive: e.isActive,
  status: e.isActive ? "enabled" : "disabled",
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

/**
 * A log row; `payload` is its delivery's data as stored JSON text, from which the sent body is
 * rebuilt exactly.
 */
export const toWebhookDeliveryRecordView = (
  a: WebhookAttemptWithRetry,
  payload: string,
): WebhookDeliveryRecordView => ({
  id: a.id,
  messageId: a.messageId,
  event: a.event,
  attempt: a.attempt,
  status: a.statusCode,
  durationMs: a.durationMs,
  success: a.success,
  body: a.body,
  request: deliveryBody(a.event, payload, a.attempt),
  attemptedAt: a.createdAt,
  retryAt: a.retryAt,
});
