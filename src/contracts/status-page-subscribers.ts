import { z } from "zod";
import { Email } from "./auth.js";

// Status page subscribers (docs/status-page-subscribers.md): people who follow a page by email
// (double opt-in, from the public page) and systems that follow it by webhook (added by the
// organization's owners and admins). Shared by the server and the dashboard's editor.

export const SUBSCRIBER_KINDS = ["email", "webhook"] as const;
export const SubscriberKind = z.enum(SUBSCRIBER_KINDS);
export type SubscriberKind = z.infer<typeof SubscriberKind>;

export const SUBSCRIBER_STATUSES = ["pending", "confirmed"] as const;
export const SubscriberStatus = z.enum(SUBSCRIBER_STATUSES);
export type SubscriberStatus = z.infer<typeof SubscriberStatus>;

/** What subscribers are told of, in the order the docs list them (the webhook `event`). */
export const SUBSCRIBER_EVENTS = [
  "incident.created",
  "incident.updated",
  "incident.resolved",
  "incident.reopened",
  "maintenance.scheduled",
  "maintenance.started",
  "maintenance.completed",
] as const;
export type SubscriberEvent = (typeof SUBSCRIBER_EVENTS)[number];

/** Hours an email subscriber has to confirm before the request is dropped. */
export const CONFIRM_HOURS = 48;
/** Components one subscriber may follow (each one of the page's). */
export const MAX_SUBSCRIBER_COMPONENTS = 100;

const ComponentIds = z
  .array(z.string().min(1).max(64))
  .max(MAX_SUBSCRIBER_COMPONENTS)
  .default([])
  .describe("Components of the page to follow; empty (the default) for the whole page");

/** What the public page's Subscribe form (or a JSON client) sends. */
export const PublicSubscribeInput = z
  .object({
    email: z
      .string({ error: "enter your email address" })
      .max(254, "an email address has at most 254 characters")
      .pipe(Email),
    componentIds: ComponentIds,
  })
  .meta({ id: "StatusPageSubscribeInput" });
export type PublicSubscribeInput = z.input<typeof PublicSubscribeInput>;

/** The same answer whatever was already subscribed: nothing about other subscribers leaks. */
export const PublicSubscribeAnswer = z
  .object({ message: z.string() })
  .meta({ id: "StatusPageSubscribeAnswer" });
export type PublicSubscribeAnswer = z.infer<typeof PublicSubscribeAnswer>;

/** A subscriber added by a member: an email (sent a confirmation) or a webhook URL. */
export const CreateSubscriberInput = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("email"),
      email: z.string().max(254).pipe(Email),
      componentIds: ComponentIds,
    }),
    z.object({
      kind: z.literal("webhook"),
      url: z
        .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
        .max(2048, "a URL has at most 2048 characters"),
      componentIds: ComponentIds,
    }),
  ])
  .meta({ id: "CreateStatusPageSubscriberInput" });
export type CreateSubscriberInput = z.input<typeof CreateSubscriberInput>;

export const SubscriberView = z
  .object({
    id: z.string(),
    pageId: z.string(),
    kind: SubscriberKind,
    /** The email address or the webhook URL. */
    address: z.string(),
    status: SubscriberStatus,
    componentIds: z.array(z.string()),
    createdAt: z.string(),
    confirmedAt: z.string().nullable(),
  })
  .meta({ id: "StatusPageSubscriber" });
export type SubscriberView = z.infer<typeof SubscriberView>;

/** A new subscriber; a webhook's signing secret is in it this once. */
export const CreatedSubscriberView = SubscriberView.extend({
  secret: z
    .string()
    .optional()
    .describe("A webhook subscriber's signing secret (whsec_…), shown only in this answer"),
}).meta({ id: "CreatedStatusPageSubscriber" });
export type CreatedSubscriberView = z.infer<typeof CreatedSubscriberView>;

export const SubscriberCountsView = z
  .object({
    confirmedEmail: z.number().int(),
    pendingEmail: z.number().int(),
    webhook: z.number().int(),
  })
  .meta({ id: "StatusPageSubscriberCounts" });
export type SubscriberCountsView = z.infer<typeof SubscriberCountsView>;
