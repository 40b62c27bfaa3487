import { z } from "zod";
import { closestName } from "./name-suggestion.js";

// The webhook API's request and response schemas (zod: validation and OpenAPI alike), shared by
// the server and the dashboard (docs/webhooks.md).

/**
 * The subscribable event types, in the order the API lists them. Each is defined (payload,
 * example, description) by the domain that emits it and registered by the composition root; the
 * registry refuses to start unless the two agree. `endpoint.verify` is not here: it is sent only
 * to verify an endpoint and cannot be subscribed to.
 */
export const WEBHOOK_EVENT_NAMES = [
  "test.ping",
  "monitor.down",
  "monitor.recovered",
  "error.created",
  "error.regressed",
  "alert.fired",
  "alert.resolved",
  "incident.created",
  "incident.resolved",
  "incident.acknowledged",
  "incident.assigned",
  "incident.severity_changed",
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

export const isWebhookEventName = (name: string): name is WebhookEventName =>
  (WEBHOOK_EVENT_NAMES as readonly string[]).includes(name);

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
      if (isWebhookEventName(name)) continue;
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

export const CreateWebhookEndpointInput = z
  .object({ url: EndpointUrl, events: EventList })
  .strict()
  .meta({
    id: "CreateWebhookEndpointInput",
    example: {
      url: "https://hooks.example.com/vigil",
      events: ["monitor.down", "monitor.recovered"],
    },
  });
export type CreateWebhookEndpointInput = z.input<typeof CreateWebhookEndpointInput>;

export const UpdateWebhookEndpointInput = z
  .object({
    isActive: z.boolean().optional().describe("false disables the endpoint: it receives nothing"),
    url: EndpointUrl.optional().describe("A new URL is verified again before it is saved"),
    events: EventList.optional(),
  })
  .strict()
  .meta({ id: "UpdateWebhookEndpointInput", example: { isActive: false } });
export type UpdateWebhookEndpointInput = z.input<typeof UpdateWebhookEndpointInput>;

export const WebhookEndpointView = z
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
export type WebhookEndpointView = z.infer<typeof WebhookEndpointView>;

export const CreatedWebhookEndpointView = WebhookEndpointView.extend({
  secret: z
    .string()
    .describe("The signing secret (whsec_…): shown in this response only, never again"),
}).meta({ id: "CreatedWebhookEndpoint" });
export type CreatedWebhookEndpointView = z.infer<typeof CreatedWebhookEndpointView>;

export const WebhookDeliveryRecordView = z
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
export type WebhookDeliveryRecordView = z.infer<typeof WebhookDeliveryRecordView>;

export const WebhookEventTypeView = z
  .object({
    type: z.string(),
    description: z.string(),
    emittedBy: z.string(),
    schema: z.record(z.string(), z.unknown()).describe("JSON Schema of the envelope's data"),
    example: z.unknown(),
  })
  .meta({ id: "WebhookEventType" });
export type WebhookEventTypeView = z.infer<typeof WebhookEventTypeView>;
