import { z } from "zod";
import type { WebhookEventName } from "../contracts/webhooks.js";

/**
 * One subscribable event type, defined by the domain that emits it: its payload (the envelope's
 * `data`, docs/webhooks.md) and an example of it. The composition root registers each domain's.
 */
export interface WebhookEventType<S extends z.ZodType = z.ZodType> {
  /** One of the contract's WEBHOOK_EVENT_NAMES. */
  name: WebhookEventName;
  description: string;
  /** What produces it today, or that nothing does yet. */
  emittedBy: string;
  payload: S;
  example: z.infer<S>;
}

/** Checks an event type's example against its payload schema at compile time. */
export const defineWebhookEventType = <S extends z.ZodType>(spec: WebhookEventType<S>) => spec;

/** A payload's timestamp. */
export const isoTime = z.string().describe("ISO 8601 UTC");

/** The time and project every example payload uses. */
export const EXAMPLE_AT = "2026-11-21T09:30:00.000Z";
export const EXAMPLE_PROJECT_ID = "prj_01kaexample0000000000000";
