import { describe, expect, it } from "vitest";
import type { MonitorNotification } from "../notifications/notification-payloads.js";
import { MONITOR_WEBHOOK_EVENTS, monitorEventPayload } from "./monitor-webhook-events.js";

/** The payload schema the registry holds for an event of this domain. */
function payloadOf(name: string) {
  const type = MONITOR_WEBHOOK_EVENTS.find((t) => t.name === name);
  if (!type) throw new Error(`no ${name} here`);
  return type.payload;
}

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
    const parsed = payloadOf(event).safeParse(payload);
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
