import { z } from "zod";
import type { MonitorNotification } from "../notifications/notification-payloads.js";
import {
  defineWebhookEventType,
  EXAMPLE_AT,
  EXAMPLE_PROJECT_ID,
  isoTime,
} from "../webhooks/webhook-event-type.js";

// The monitors' webhook events, monitor.down and monitor.recovered (docs/webhooks.md).

const MonitorPayload = z.object({
  monitorId: z.string(),
  incidentId: z.string().describe("The outage; the same in its monitor.down and monitor.recovered"),
  projectId: z.string(),
  monitor: z.object({ id: z.string(), name: z.string(), type: z.string(), url: z.string() }),
  incident: z.object({
    id: z.string(),
    startedAt: isoTime,
    resolvedAt: isoTime.nullable().describe("When the outage ended; null while it lasts"),
    endedAt: isoTime
      .nullable()
      .describe("Deprecated: the same as resolvedAt, kept for receivers of earlier payloads"),
    durationMs: z.number().int().nullable(),
  }),
  check: z.object({
    resultId: z.string().describe("The check that opened or ended the outage"),
    startedAt: isoTime,
    failedStep: z.string().nullable(),
    reason: z.string().nullable(),
    statusCode: z.number().int().nullable(),
  }),
});
type MonitorPayload = z.infer<typeof MonitorPayload>;

const monitorExample = (recovered: boolean): MonitorPayload => ({
  monitorId: "mon_01kaexample0000000000000",
  incidentId: "inc_01kaexample0000000000000",
  projectId: EXAMPLE_PROJECT_ID,
  monitor: {
    id: "mon_01kaexample0000000000000",
    name: "Checkout",
    type: "api",
    url: "https://shop.example.com/health",
  },
  incident: {
    id: "inc_01kaexample0000000000000",
    startedAt: EXAMPLE_AT,
    resolvedAt: recovered ? "2026-11-21T09:42:00.000Z" : null,
    endedAt: recovered ? "2026-11-21T09:42:00.000Z" : null,
    durationMs: recovered ? 720_000 : null,
  },
  check: {
    resultId: "run_01kaexample0000000000000",
    startedAt: recovered ? "2026-11-21T09:42:00.000Z" : EXAMPLE_AT,
    failedStep: recovered ? null : "health",
    reason: recovered ? null : "status_code equals 200: got 503",
    statusCode: recovered ? 200 : 503,
  },
});

const EMITTED_BY = "HTTP monitors with a webhook notification channel";

export const MONITOR_WEBHOOK_EVENTS = [
  defineWebhookEventType({
    name: "monitor.down",
    description: "A monitor's consecutive failures reached its alertAfter: one per outage",
    emittedBy: EMITTED_BY,
    payload: MonitorPayload,
    example: monitorExample(false),
  }),
  defineWebhookEventType({
    name: "monitor.recovered",
    description: "A monitor in an outage passed again; the incident carries its end and duration",
    emittedBy: EMITTED_BY,
    payload: MonitorPayload,
    example: monitorExample(true),
  }),
] as const;

/**
 * A monitor notification as the webhook channel publishes it: the incident and the event make
 * the id, so a retried notification, or a monitor with two webhook channels, is delivered once.
 */
export function monitorNotificationEvent(notification: MonitorNotification): {
  id: string;
  type: string;
  data: MonitorPayload;
} {
  return {
    id: `${notification.incident.id}:${notification.event}`,
    type: notification.event,
    data: monitorEventPayload(notification),
  };
}

/** The payload of monitor.down / monitor.recovered: the notification, with its ids on top. */
export function monitorEventPayload(notification: MonitorNotification): MonitorPayload {
  const { monitor, incident, check, projectId } = notification;
  return {
    monitorId: monitor.id,
    incidentId: incident.id,
    projectId,
    monitor,
    incident: { ...incident, endedAt: incident.resolvedAt },
    check,
  };
}
