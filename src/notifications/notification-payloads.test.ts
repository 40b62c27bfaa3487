import { describe, expect, it } from "vitest";
import { type MonitorNotification, readStoredNotification } from "./notification-payloads.js";

const recovered: MonitorNotification = {
  event: "monitor.recovered",
  projectId: "prj_1",
  monitor: { id: "mon_1", name: "Checkout", type: "api", url: "https://shop.example.com/health" },
  incident: {
    id: "inc_1",
    startedAt: "2026-01-02T03:04:05.000Z",
    resolvedAt: "2026-01-02T03:16:05.000Z",
    durationMs: 720_000,
  },
  check: {
    resultId: "run_2",
    startedAt: "2026-01-02T03:16:05.000Z",
    failedStep: null,
    reason: null,
    statusCode: null,
  },
};

describe("readStoredNotification", () => {
  it("reads a payload stored by this version as it was written", () => {
    expect(readStoredNotification(JSON.parse(JSON.stringify(recovered)))).toEqual(recovered);
  });

  it("reads a monitor payload queued before resolvedAt, which named the end endedAt", () => {
    const { resolvedAt, ...rest } = recovered.incident;
    const stored: unknown = { ...recovered, incident: { ...rest, endedAt: resolvedAt } };
    expect(readStoredNotification(stored)).toEqual(recovered);
  });

  it("reads an alert payload, which has no incident object, and one it does not know, as stored", () => {
    const fired = { event: "alert.fired", projectId: "prj_1", incidentId: "inc_2" };
    expect(readStoredNotification(fired)).toEqual(fired);
    expect(readStoredNotification({})).toEqual({});
  });
});
