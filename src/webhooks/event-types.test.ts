import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ErrorGroup } from "../ingest/error-groups.js";
import type { MonitorNotification } from "../notifications/model.js";
import {
  errorEventPayload,
  isWebhookEvent,
  monitorEventPayload,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from "./event-types.js";

const ENTRIES = Object.entries(WEBHOOK_EVENT_TYPES) as [string, WebhookEventType][];

describe("the webhook event registry", () => {
  it("lists every entry by name", () => {
    expect(WEBHOOK_EVENT_NAMES).toEqual(Object.keys(WEBHOOK_EVENT_TYPES));
    expect(WEBHOOK_EVENT_NAMES).toEqual(
      expect.arrayContaining([
        "test.ping",
        "monitor.down",
        "monitor.recovered",
        "error.created",
        "error.regressed",
      ]),
    );
    for (const name of WEBHOOK_EVENT_NAMES) expect(isWebhookEvent(name)).toBe(true);
    // endpoint.verify is sent only to verify an endpoint: it cannot be subscribed to.
    expect(isWebhookEvent("endpoint.verify")).toBe(false);
    expect(isWebhookEvent("toString")).toBe(false);
    expect(isWebhookEvent("__proto__")).toBe(false);
  });

  it.each(ENTRIES)("%s: its example parses with its payload schema", (_name, spec) => {
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
    const down = WEBHOOK_EVENT_TYPES["monitor.down"];
    const { monitorId: _dropped, ...missing } = down.example;
    expect(down.payload.safeParse(missing).success).toBe(false);
    const created = WEBHOOK_EVENT_TYPES["error.created"];
    expect(created.payload.safeParse({ ...created.example, severity: "urgent" }).success).toBe(
      false,
    );
    expect(created.payload.safeParse({ ...created.example, occurrenceCount: 1.5 }).success).toBe(
      false,
    );
  });
});

describe("monitorEventPayload", () => {
  const down: MonitorNotification = {
    event: "monitor.down",
    projectId: "prj_test",
    monitor: { id: "mon_1", name: "Checkout", type: "api", url: "https://shop.example.com/health" },
    incident: {
      id: "inc_1",
      startedAt: "2026-01-02T03:04:05.000Z",
      resolvedAt: null,
      durationMs: null,
    },
    check: {
      resultId: "run_1",
      startedAt: "2026-01-02T03:04:05.000Z",
      failedStep: "health",
      reason: "status_code equals 200: got 503",
      statusCode: 503,
    },
  };
  const recovered: MonitorNotification = {
    ...down,
    event: "monitor.recovered",
    incident: { ...down.incident, resolvedAt: "2026-01-02T03:16:05.000Z", durationMs: 720_000 },
    check: {
      resultId: "run_2",
      startedAt: "2026-01-02T03:16:05.000Z",
      failedStep: null,
      reason: null,
      statusCode: null,
    },
  };

  it.each([
    ["monitor.down", down],
    ["monitor.recovered", recovered],
  ] as const)("gives a valid %s payload with the ids on top", (event, notification) => {
    const payload = monitorEventPayload(notification);
    const parsed = WEBHOOK_EVENT_TYPES[event].payload.safeParse(payload);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(payload).toEqual({
      monitorId: notification.monitor.id,
      incidentId: notification.incident.id,
      projectId: notification.projectId,
      monitor: notification.monitor,
      // resolvedAt as /v1/incidents and incident.* events name it; endedAt is its deprecated
      // alias, kept so receivers written against the earlier payload go on working.
      incident: { ...notification.incident, endedAt: notification.incident.resolvedAt },
      check: notification.check,
    });
    // The envelope names the event; the payload does not repeat it.
    expect(payload).not.toHaveProperty("event");
  });
});

describe("errorEventPayload", () => {
  const group: ErrorGroup = {
    projectId: "prj_test",
    fingerprint: "0123456789abcdef0123456789abcdef",
    exceptionType: "TypeError",
    message: "Cannot read properties of undefined (reading 'id')",
    stacktrace:
      "TypeError: Cannot read properties of undefined\n    at handleCheckout (src/checkout.ts:42:7)",
    culprit: "handleCheckout (src/checkout.ts:42)",
    firstSeenMs: Date.UTC(2026, 0, 2, 3, 4, 5),
    lastSeenMs: Date.UTC(2026, 0, 2, 4, 5, 6, 789),
    occurrenceCount: 7,
    status: "active",
    resolvedAtMs: 0,
    severity: "critical",
    services: ["checkout", "payments"],
    sampleTraceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    sampleSpanId: "00f067aa0ba902b7",
    source: "backend",
  };

  it.each(["error.created", "error.regressed"] as const)("gives a valid %s payload", (event) => {
    const payload = errorEventPayload(group);
    const parsed = WEBHOOK_EVENT_TYPES[event].payload.safeParse(payload);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(payload).toEqual({
      errorId: group.fingerprint,
      projectId: "prj_test",
      exceptionType: "TypeError",
      message: group.message,
      culprit: group.culprit,
      severity: "critical",
      status: "active",
      source: "backend",
      services: ["checkout", "payments"],
      firstSeen: "2026-01-02T03:04:05.000Z",
      lastSeen: "2026-01-02T04:05:06.789Z",
      occurrenceCount: 7,
      sampleTraceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    });
    // Internal fields stay out of the payload.
    expect(payload).not.toHaveProperty("stacktrace");
    expect(payload).not.toHaveProperty("sampleSpanId");
    expect(payload).not.toHaveProperty("resolvedAtMs");
  });

  it("gives null for a group without a sample trace, and carries a frontend source", () => {
    const payload = errorEventPayload({
      ...group,
      sampleTraceId: "",
      source: "frontend",
      status: "resolved",
      severity: "low",
      services: [],
    });
    expect(WEBHOOK_EVENT_TYPES["error.regressed"].payload.safeParse(payload).success).toBe(true);
    expect(payload).toMatchObject({
      sampleTraceId: null,
      source: "frontend",
      status: "resolved",
      severity: "low",
      services: [],
    });
  });
});
