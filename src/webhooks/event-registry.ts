import { z } from "zod";
import {
  WEBHOOK_EVENT_NAMES,
  type WebhookEventName,
  type WebhookEventTypeView,
} from "../contracts/webhooks.js";
import { TEST_PING_EVENT } from "./test-ping-event.js";
import type { WebhookEventType } from "./webhook-event-type.js";

/**
 * The subscribable webhook event types (docs/webhooks.md): test.ping, which the webhooks send
 * themselves, and those each domain defines for what it emits, registered by the composition root.
 */
export interface WebhookEventRegistry {
  /** Whether endpoints can subscribe to, and publishers publish, an event of this name. */
  has(name: string): name is WebhookEventName;
  get(name: WebhookEventName): WebhookEventType;
  /** Every type in the contract's order, with the JSON Schema and an example of its payload. */
  list(): WebhookEventTypeView[];
}

/**
 * The registry of test.ping and the domains' event types. It refuses a type registered twice or
 * missing from contracts/webhooks.ts's WEBHOOK_EVENT_NAMES, and a name there no domain registered,
 * so the API never offers an event nothing defines.
 */
export function createWebhookEventRegistry(
  domainTypes: readonly WebhookEventType[],
): WebhookEventRegistry {
  const types = new Map<string, WebhookEventType>();
  for (const type of [TEST_PING_EVENT as WebhookEventType, ...domainTypes]) {
    if (types.has(type.name))
      throw new Error(`the webhook event type ${type.name} is registered twice`);
    types.set(type.name, type);
  }
  const unknown = [...types.keys()].filter(
    (name) => !(WEBHOOK_EVENT_NAMES as readonly string[]).includes(name),
  );
  if (unknown.length > 0)
    throw new Error(`webhook event types not in the contract: ${unknown.join(", ")}`);
  const missing = WEBHOOK_EVENT_NAMES.filter((name) => !types.has(name));
  if (missing.length > 0)
    throw new Error(`webhook event types no domain registered: ${missing.join(", ")}`);

  let listed: WebhookEventTypeView[] | undefined;
  const get = (name: WebhookEventName): WebhookEventType => {
    const type = types.get(name);
    if (!type) throw new Error(`unknown webhook event type ${name}`);
    return type;
  };
  return {
    has: (name): name is WebhookEventName => types.has(name),
    get,
    list() {
      listed ??= WEBHOOK_EVENT_NAMES.map((name) => {
        const spec = get(name);
        return {
          type: name,
          description: spec.description,
          emittedBy: spec.emittedBy,
          schema: z.toJSONSchema(spec.payload) as Record<string, unknown>,
          example: spec.example,
        };
      });
      return listed;
    },
  };
}
