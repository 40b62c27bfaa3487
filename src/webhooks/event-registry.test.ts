import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createWebhookEventTypes } from "../composition/webhooks.js";
import { WEBHOOK_EVENT_NAMES } from "../contracts/webhooks.js";
import { MONITOR_WEBHOOK_EVENTS } from "../monitors/monitor-webhook-events.js";
import { createWebhookEventRegistry } from "./event-registry.js";
import type { WebhookEventType } from "./webhook-event-type.js";

const registry = createWebhookEventTypes();
const ENTRIES = WEBHOOK_EVENT_NAMES.map((name) => [name, registry.get(name)] as const);

describe("the webhook event registry", () => {
  it("lists every entry by name, in the contract's order", () => {
    expect(registry.list().map((t) => t.type)).toEqual([...WEBHOOK_EVENT_NAMES]);
    expect(WEBHOOK_EVENT_NAMES).toEqual(
      expect.arrayContaining([
        "test.ping",
        "monitor.down",
        "monitor.recovered",
        "error.created",
        "error.regressed",
      ]),
    );
    for (const name of WEBHOOK_EVENT_NAMES) expect(registry.has(name)).toBe(true);
    // endpoint.verify is sent only to verify an endpoint: it cannot be subscribed to.
    expect(registry.has("endpoint.verify")).toBe(false);
    expect(registry.has("toString")).toBe(false);
    expect(registry.has("__proto__")).toBe(false);
  });

  it.each(ENTRIES)("%s: its example parses with its payload schema", (name, spec) => {
    expect(spec.name).toBe(name);
    const parsed = spec.payload.safeParse(spec.example);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    // The schemas drop nothing from their examples.
    expect(parsed.data).toEqual(spec.example);
    expect(spec.description.length).toBeGreaterThan(0);
    expect(spec.emittedBy.length).toBeGreaterThan(0);
  });

  it.each(ENTRIES)("%s: its payload converts to JSON Schema", (_name, spec) => {
    const schema = z.toJSONSchema(spec.payload) as Record<string, unknown>;
    expect(schema.type).toBe("object");
    const properties = schema.properties as Record<string, unknown>;
    expect(Object.keys(properties).sort()).toEqual(
      Object.keys(spec.example as Record<string, unknown>).sort(),
    );
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  it("rejects a payload missing a field or with a wrong type", () => {
    const down = registry.get("monitor.down");
    const { monitorId: _dropped, ...missing } = down.example as Record<string, unknown>;
    expect(down.payload.safeParse(missing).success).toBe(false);
    const created = registry.get("error.created");
    const example = created.example as Record<string, unknown>;
    expect(created.payload.safeParse({ ...example, severity: "urgent" }).success).toBe(false);
    expect(created.payload.safeParse({ ...example, occurrenceCount: 1.5 }).success).toBe(false);
  });

  it("refuses a type registered twice, one the contract does not name, and a name left undefined", () => {
    const all = WEBHOOK_EVENT_NAMES.filter((name) => name !== "test.ping").map((name) =>
      registry.get(name),
    );
    expect(() => createWebhookEventRegistry(all)).not.toThrow();
    expect(() => createWebhookEventRegistry([...all, ...MONITOR_WEBHOOK_EVENTS])).toThrow(
      "monitor.down is registered twice",
    );
    const stray = { ...all[0], name: "monitor.flapping" } as unknown as WebhookEventType;
    expect(() => createWebhookEventRegistry([...all, stray])).toThrow(
      "webhook event types not in the contract: monitor.flapping",
    );
    expect(() => createWebhookEventRegistry(all.slice(2))).toThrow(
      "webhook event types no domain registered: monitor.down, monitor.recovered",
    );
  });
});
