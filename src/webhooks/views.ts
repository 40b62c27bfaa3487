import { z } from "zod";
import { closestName } from "../contracts/name-suggestion.js";
import type { WebhookAttemptWithRetry } from "../meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../meta/repositories/webhook-endpoints.js";
import { isWebhookEvent, WEBHOOK_EVENT_NAMES } from "./event-types.js";
import { deliveryBody } from "./signing.js";

// The webhook API's request and response schemas (zod: validation and OpenAPI alike).

const MAX_URL_LENGTH = 2048;

const EndpointUrl = z
  .string()
  .trim()
  .min(1)
  .max(MAX_URL_LENGTH)
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: "custom", message: "is not a valid URL" });
      return;
    }
    // http:// passes here only to be judged against the server's setting (requireAllowedScheme in endpoints.ts).
    if (url.protocol !== "https:" && url.protocol !== "http:")
      ctx.addIssue({ code: "custom", message: "must be an https:// URL" });
    if (url.username !== "" || url.password !== "")
      ctx.addIssue({
        code: "custom",
        message: "must not carry a user name or password; receivers check the signature instead",
      });
    if (url.hash !== "") ctx.addIssue({ code: "custom", message: "must not have a #fragment" });
  })
  .describe(
    "A publicly reachable https:// URL; it is verified before it is saved. Plain http:// is accepted only on a loopback host (localhost, 127.0.0.0/8, [::1]) of a server started with --dev (VIGIL_WEBHOOKS_ALLOW_HTTP_LOOPBACK)",
  );

const EventList = z
  .array(z.string().max(100))
  .min(1, "subscribe to at least one event")
  .max(WEBHOOK_EVENT_NAMES.length * 2)
  .superRefine((events, ctx) => {
    for (const [index, name] of events.entries()) {
      if (isWebhookEvent(name)) continue;
      const hint =
        name === "endpoint.verify"
          ? "it is sent only to verify an endpoint and cannot be subscribed to"
          : `unknown event type${suggestion(name)}; GET /webhooks/event-types lists them`;
      ctx.addIssue({ code: "custom", path: [index], message: `'${name}': ${hint}` });
    }
  })
  // Each type once, in the order given.
  .transform((events) => [...new Set(events)])
  .describe(`Event types to receive: ${WEBHOOK_EVENT_NAMES.join(", ")}`);

function suggestion(name: string): string {
  const near = closestName(name, WEBHOOK_EVENT_NAMES);
  return near ? ` (did you mean '${near}'?)` : "";
}

export const CreateEndpointInput = z
  .object({ url: EndpointUrl, events: EventList })
  .strict()
  .meta({
    id: "CreateWebhookEndpointInput",
    example: {
      url: "https://hooks.example.com/vigil",
      events: ["monitor.down", "monitor.recovered"],
    },
  });
export type CreateEndpointInput = z.input<typeof CreateEndpointInput>;

export const UpdateEndpointInput = z
  .object({
    isActive: z.boolean().optional().describe("false disables the endpoint: it receives nothing"),
    url: EndpointUrl.optional().describe("A new URL is verified again before it is saved"),
    events: EventList.optional(),
  })
  .strict()
  .meta({ id: "UpdateWebhookEndpointInput", example: { isActive: false } });
export type UpdateEndpointInput = z.input<typeof UpdateEndpointInput>;

export const EndpointView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    isActive: z.boolean(),
    status: z.enum(["enabled", "disabled"]),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "WebhookEndpoint" });
export type EndpointView = z.infer<typeof EndpointView>;

export const CreatedEndpointView = EndpointView.extend({
  secret: z
    .string()
    .describe("The signing secret (whsec_…): shown in this response only, never again"),
}).meta({ id: "CreatedWebhookEndpoint" });
export type CreatedEndpointView = z.infer<typeof CreatedEndpointView>;

export const DeliveryRecordView = z
  .object({
    id: z.string(),
    messageId: z.string().describe("The webhook-id header: the same on both attempts"),
    event: z.string(),
    attempt: z.number().int().describe("1 (initial) or 2 (the retry)"),
    status: z
      .number()
      .int()
      .describe("The receiver's HTTP status; 0 for a network error or timeout"),
    durationMs: z.number().int(),
    success: z.boolean().describe("Whether the answer was a 2xx"),
    body: z.string().describe("The first 500 characters of the answer, or what went wrong"),
    request: z
      .string()
      .describe("The JSON body this attempt sent (the envelope with its event, data and attempt)"),
    attemptedAt: z.string(),
    retryAt: z
      .string()
      .nullable()
      .describe("When attempt 2 is due, after this failed attempt 1; null otherwise"),
  })
  .meta({ id: "WebhookDeliveryRecord" });
export type DeliveryRecordView = z.infer<typeof DeliveryRecordView>;

export const EventTypeView = z
  .object({
    type: z.string(),
    description: z.string(),
    emittedBy: z.string(),
    schema: z.record(z.string(), z.unknown()).describe("JSON Schema of the envelope's data"),
    example: z.unknown(),
  })
  .meta({ id: "WebhookEventType" });
export type EventTypeView = z.infer<typeof EventTypeView>;

export const toView = (e: WebhookEndpointRecord): EndpointView => ({
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
export const toDeliveryRecordView = (
  a: WebhookAttemptWithRetry,
  payload: string,
): DeliveryRecordView => ({
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
