import { z } from "zod";
import type { AlertNotification } from "../notifications/notification-payloads.js";
import {
  defineWebhookEventType,
  EXAMPLE_AT,
  EXAMPLE_PROJECT_ID,
  isoTime,
} from "../webhooks/webhook-event-type.js";

// The alert rules' webhook events, alert.fired and alert.resolved (docs/webhooks.md).

const AlertPayload = z.object({
  ruleId: z.string(),
  ruleName: z.string(),
  projectId: z.string(),
  incidentId: z.string().nullable(),
  severity: z.string(),
  condition: z.string().describe("The rule's condition, as written"),
  value: z
    .number()
    .nullable()
    .describe(
      "The value that crossed the threshold (or came back); null when the query returned no data",
    ),
  threshold: z.number(),
  firedAt: isoTime,
  resolvedAt: isoTime.nullable(),
  labels: z
    .record(z.string(), z.string())
    .describe("The series' labels: the query's columns other than value"),
  seriesKey: z.string().describe("The labels sorted by name, JSON-encoded: one series of the rule"),
  message: z.string().describe("The rule's message template, rendered"),
});
type AlertPayload = z.infer<typeof AlertPayload>;

const alertExample = (resolved: boolean): AlertPayload => ({
  ruleId: "alr_01kaexample0000000000000",
  ruleName: "Checkout p95 over 800 ms",
  projectId: EXAMPLE_PROJECT_ID,
  incidentId: "inc_01kaexample0000000000001",
  severity: "high",
  condition: "p95(duration_ms) > 800 over 5m",
  value: resolved ? 640.2 : 912.4,
  threshold: 800,
  firedAt: EXAMPLE_AT,
  resolvedAt: resolved ? "2026-11-21T09:50:00.000Z" : null,
  labels: { service: "checkout" },
  seriesKey: '{"service":"checkout"}',
  message: resolved
    ? "checkout p95 is back at 640.2 ms"
    : "checkout p95 is 912.4 ms (threshold 800)",
});

export const ALERT_WEBHOOK_EVENTS = [
  defineWebhookEventType({
    name: "alert.fired",
    description:
      "A series of an alert rule fired (its condition held for the rule's `for`); not sent while the rule is muted",
    emittedBy: "alert rule evaluation",
    payload: AlertPayload,
    example: alertExample(false),
  }),
  defineWebhookEventType({
    name: "alert.resolved",
    description:
      "A fired series of an alert rule no longer breaches (or left the result); not sent while the rule is muted",
    emittedBy: "alert rule evaluation",
    payload: AlertPayload,
    example: alertExample(true),
  }),
] as const;

/**
 * The id of an alert.fired / alert.resolved event: one per fire of one series, so a retried
 * evaluation, or a webhook channel publishing it again, never enqueues it twice.
 */
export function alertEventId(
  type: "alert.fired" | "alert.resolved",
  ruleId: string,
  seriesKeyHash: string,
  firedAtMs: number,
): string {
  return `${type}:${ruleId}:${seriesKeyHash}:${firedAtMs}`;
}

/**
 * An alert notification as the webhook channel publishes it: fires and resolves under the id the
 * evaluation already enqueued them with (never sent twice); a reminder has no webhook event.
 */
export function alertNotificationEvent(
  notification: AlertNotification,
): { id: string; type: string; data: AlertPayload } | undefined {
  if (notification.event === "alert.renotified") return undefined;
  const { rule, series, firedAt } = notification;
  return {
    id: alertEventId(notification.event, rule.id, series.keyHash, Date.parse(firedAt)),
    type: notification.event,
    data: alertEventPayload(notification),
  };
}

/** The payload of alert.fired / alert.resolved: the notification of one series, flattened. */
export function alertEventPayload(notification: AlertNotification): AlertPayload {
  const { rule, series } = notification;
  return {
    ruleId: rule.id,
    ruleName: rule.name,
    projectId: notification.projectId,
    incidentId: notification.incidentId,
    severity: rule.severity,
    condition: rule.condition,
    value: notification.value,
    threshold: notification.threshold,
    firedAt: notification.firedAt,
    resolvedAt: notification.resolvedAt,
    labels: series.labels,
    seriesKey: series.key,
    message: notification.message,
  };
}
