import { describe, expect, it } from "vitest";
import type { ErrorGroup } from "./error-groups.js";
import { ERROR_WEBHOOK_EVENTS, errorEventPayload } from "./error-webhook-events.js";

/** The payload schema the registry holds for an event of this domain. */
function payloadOf(name: string) {
  const type = ERROR_WEBHOOK_EVENTS.find((t) => t.name === name);
  if (!type) throw new Error(`no ${name} here`);
  return type.payload;
}

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
    const parsed = payloadOf(event).safeParse(payload);
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
    expect(payloadOf("error.regressed").safeParse(payload).success).toBe(true);
    expect(payload).toMatchObject({
      sampleTraceId: null,
      source: "frontend",
      status: "resolved",
      severity: "low",
      services: [],
    });
  });
});
