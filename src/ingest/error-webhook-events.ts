import { z } from "zod";
import { ERROR_SEVERITIES } from "../contracts/error-groups.js";
import {
  defineWebhookEventType,
  EXAMPLE_AT,
  EXAMPLE_PROJECT_ID,
  isoTime,
} from "../webhooks/webhook-event-type.js";
import type { ErrorGroup } from "./error-groups.js";

// Ingestion's webhook events, error.created and error.regressed (docs/webhooks.md).

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

const errorExample = (regressed: boolean): ErrorPayload => ({
  errorId: "5f0c6a3e9b1d4c2a8e7f6d5c4b3a2910",
  projectId: EXAMPLE_PROJECT_ID,
  exceptionType: "TypeError",
  message: "Cannot read properties of undefined (reading 'id')",
  culprit: "handleCheckout (src/checkout.ts:42)",
  severity: "high",
  status: "active",
  source: "backend",
  services: ["checkout"],
  firstSeen: regressed ? "2026-11-01T08:00:00.000Z" : EXAMPLE_AT,
  lastSeen: EXAMPLE_AT,
  occurrenceCount: regressed ? 57 : 1,
  sampleTraceId: "4bf92f3577b34da6a3ce929d0e0e4736",
});

const EMITTED_BY = "OTLP ingestion (exceptions in spans and error logs)";

export const ERROR_WEBHOOK_EVENTS = [
  defineWebhookEventType({
    name: "error.created",
    description: "An error group was seen for the first time",
    emittedBy: EMITTED_BY,
    payload: ErrorPayload,
    example: errorExample(false),
  }),
  defineWebhookEventType({
    name: "error.regressed",
    description: "A resolved error group occurred again and is active once more",
    emittedBy: EMITTED_BY,
    payload: ErrorPayload,
    example: errorExample(true),
  }),
] as const;

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
