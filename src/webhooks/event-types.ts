import { z } from "zod";
import { INCIDENT_SOURCES } from "../incidents/model.js";
import type { ErrorGroup } from "../ingest/error-groups.js";
import { ERROR_SEVERITIES } from "../ingest/ingest-batch.js";
import type { IncidentRecord } from "../meta/repositories/incidents.js";
import type { AlertNotification, MonitorNotification } from "../notifications/model.js";

/** One subscribable event type: its payload (the envelope's `data`) and an example of it. */
export interface WebhookEventType<S extends z.ZodType = z.ZodType> {
  description: string;
  /** What produces it today, or that nothing does yet. */
  emittedBy: string;
  payload: S;
  example: z.infer<S>;
}

const defineEventType = <S extends z.ZodType>(spec: WebhookEventType<S>) => spec;

const isoTime = z.string().describe("ISO 8601 UTC");
const AT = "2026-11-21T09:30:00.000Z";

const TestPing = z.object({
  type: z.literal("test.ping"),
  message: z.string(),
  timestamp: isoTime,
  projectId: z.string(),
});

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

const ErrorPayload = z.object({
  errorId: z
    .string()
    .describe("The error group's id (its fingerprint), as /v1/errors/:errorId takes it"),
  projectId: z.string(),
  exceptionType: z.string(),
  message: z.string(),
  culprit: z.string().describe("Where it was thrown: the top frame of the stack"),
  severity: z.enum(ERROR_SEVERITIES),
  status: z.enum(["active", "resolved"]),
  source: z.enum(["frontend", "backend"]),
  services: z.array(z.string()),
  firstSeen: isoTime,
  lastSeen: isoTime,
  occurrenceCount: z.number().int(),
  sampleTraceId: z.string().nullable(),
});
type ErrorPayload = z.infer<typeof ErrorPayload>;

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

const IncidentPayload = z.object({
  incidentId: z.string(),
  projectId: z.string(),
  title: z.string(),
  severity: z.string(),
  status: z.enum(["active", "resolved"]),
  ruleId: z.string().nullable(),
  startedAt: isoTime,
  resolvedAt: isoTime.nullable(),
  source: z.enum(INCIDENT_SOURCES).describe("What opened it"),
  sourceId: z.string().nullable().describe("The monitor or alert rule id; null when manual"),
});
type IncidentPayload = z.infer<typeof IncidentPayload>;

const PROJECT = "prj_01kaexample0000000000000";
const monitorExample = (recovered: boolean): MonitorPayload => ({
  monitorId: "mon_01kaexample0000000000000",
  incidentId: "inc_01kaexample0000000000000",
  projectId: PROJECT,
  monitor: {
    id: "mon_01kaexample0000000000000",
    name: "Checkout",
    type: "api",
    url: "https://shop.example.com/health",
  },
  incident: {
    id: "inc_01kaexample0000000000000",
    startedAt: AT,
    resolvedAt: recovered ? "2026-11-21T09:42:00.000Z" : null,
    endedAt: recovered ? "2026-11-21T09:42:00.000Z" : null,
    durationMs: recovered ? 720_000 : null,
  },
  check: {
    resultId: "run_01kaexample0000000000000",
    startedAt: recovered ? "2026-11-21T09:42:00.000Z" : AT,
    failedStep: recovered ? null : "health",
    reason: recovered ? null : "status_code equals 200: got 503",
    statusCode: recovered ? 200 : 503,
  },
});
const errorExample = (regressed: boolean): ErrorPayload => ({
  errorId: "5f0c6a3e9b1d4c2a8e7f6d5c4b3a2910",
  projectId: PROJECT,
  exceptionType: "TypeError",
  message: "Cannot read properties of undefined (reading 'id')",
  culprit: "handleCheckout (src/checkout.ts:42)",
  severity: "high",
  status: "active",
  source: "backend",
  services: ["checkout"],
  firstSeen: regressed ? "2026-11-01T08:00:00.000Z" : AT,
  lastSeen: AT,
  occurrenceCount: regressed ? 57 : 1,
  sampleTraceId: "4bf92f3577b34da6a3ce929d0e0e4736",
});
const RESOLVED_AT = "2026-11-21T09:50:00.000Z";
const alertExample = (resolved: boolean): AlertPayload => ({
  ruleId: "alr_01kaexample0000000000000",
  ruleName: "Checkout p95 over 800 ms",
  projectId: PROJECT,
  incidentId: "inc_01kaexample0000000000001",
  severity: "high",
  condition: "p95(duration_ms) > 800 over 5m",
  value: resolved ? 640.2 : 912.4,
  threshold: 800,
  firedAt: AT,
  resolvedAt: resolved ? RESOLVED_AT : null,
  labels: { service: "checkout" },
  seriesKey: '{"service":"checkout"}',
  message: resolved
    ? "checkout p95 is back at 640.2 ms"
    : "checkout p95 is 912.4 ms (threshold 800)",
});
const incidentExample = (resolved: boolean): IncidentPayload => ({
  incidentId: "inc_01kaexample0000000000001",
  projectId: PROJECT,
  title: "Checkout p95 over 800 ms",
  severity: "high",
  status: resolved ? "resolved" : "active",
  ruleId: "alr_01kaexample0000000000000",
  startedAt: AT,
  resolvedAt: resolved ? RESOLVED_AT : null,
  source: "alert",
  sourceId: "alr_01kaexample0000000000000",
});
const INCIDENTS =
  "incidents opened or resolved by hand, by monitor outages, and by alert rules with openIncident";

/**
 * The registry of subscribable event types. Adding one is one entry; `endpoint.verify` is not
 * here, since it is sent only to verify an endpoint and cannot be subscribed to.
 */
export const WEBHOOK_EVENT_TYPES = {
  "test.ping": defineEventType({
    description: "Sent by the endpoint's test action",
    emittedBy: "POST /webhooks/:projectId/endpoints/:endpointId/test",
    payload: TestPing,
    example: {
      type: "test.ping",
      message: "This is a test delivery from Vigil",
      timestamp: AT,
      projectId: PROJECT,
    },
  }),
  "monitor.down": defineEventType({
    description: "A monitor's consecutive failures reached its alertAfter: one per outage",
    emittedBy: "HTTP monitors with a webhook notification channel",
    payload: MonitorPayload,
    example: monitorExample(false),
  }),
  "monitor.recovered": defineEventType({
    description: "A monitor in an outage passed again; the incident carries its end and duration",
    emittedBy: "HTTP monitors with a webhook notification channel",
    payload: MonitorPayload,
    example: monitorExample(true),
  }),
  "error.created": defineEventType({
    description: "An error group was seen for the first time",
    emittedBy: "OTLP ingestion (exceptions in spans and error logs)",
    payload: ErrorPayload,
    example: errorExample(false),
  }),
  "error.regressed": defineEventType({
    description: "A resolved error group occurred again and is active once more",
    emittedBy: "OTLP ingestion (exceptions in spans and error logs)",
    payload: ErrorPayload,
    example: errorExample(true),
  }),
  "alert.fired": defineEventType({
    description:
      "A series of an alert rule fired (its condition held for the rule's `for`); not sent while the rule is muted",
    emittedBy: "alert rule evaluation",
    payload: AlertPayload,
    example: alertExample(false),
  }),
  "alert.resolved": defineEventType({
    description:
      "A fired series of an alert rule no longer breaches (or left the result); not sent while the rule is muted",
    emittedBy: "alert rule evaluation",
    payload: AlertPayload,
    example: alertExample(true),
  }),
  "incident.created": defineEventType({
    description: "An incident was opened",
    emittedBy: INCIDENTS,
    payload: IncidentPayload,
    example: incidentExample(false),
  }),
  "incident.resolved": defineEventType({
    description: "An incident was resolved (again after a reopen: a new event)",
    emittedBy: INCIDENTS,
    payload: IncidentPayload,
    example: incidentExample(true),
  }),
} satisfies Record<string, WebhookEventType>;

export type WebhookEventName = keyof typeof WEBHOOK_EVENT_TYPES;
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventName[];

export const isWebhookEvent = (name: string): name is WebhookEventName =>
  Object.hasOwn(WEBHOOK_EVENT_TYPES, name);

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

/** The payload of error.created / error.regressed for an error group. */
export function errorEventPayload(group: ErrorGroup): ErrorPayload {
  return {
    errorId: group.fingerprint,
    projectId: group.projectId,
    exceptionType: group.exceptionType,
    message: group.message,
    culprit: group.culprit,
    severity: group.severity,
    status: group.status,
    source: group.source,
    services: group.services,
    firstSeen: new Date(group.firstSeenMs).toISOString(),
    lastSeen: new Date(group.lastSeenMs).toISOString(),
    occurrenceCount: group.occurrenceCount,
    sampleTraceId: group.sampleTraceId === "" ? null : group.sampleTraceId,
  };
}

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

/** The payload of incident.created / incident.resolved for an incident as stored. */
export function incidentEventPayload(incident: IncidentRecord): IncidentPayload {
  return {
    incidentId: incident.id,
    projectId: incident.projectId,
    title: incident.title,
    severity: incident.severity,
    status: incident.status,
    ruleId: incident.source === "alert" ? incident.sourceId : null,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    source: incident.source,
    sourceId: incident.sourceId,
  };
}
