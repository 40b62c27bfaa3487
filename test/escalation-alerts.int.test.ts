import { describe, expect, it } from "vitest";
import type { Notification } from "../src/notifications/notification-payloads.js";
import { alertEvaluationHarness } from "./helpers/alert-evaluation.js";

/** An alert rule's escalation policy: its incident's first fire starts it, the resolve stops it. */
describe("alert evaluation: escalation", () => {
  const h = alertEvaluationHarness();
  const { ingest, addRule, evaluateAt } = h;

  it("escalates the rule's alert.fired step by step until the incident resolves", async () => {
    const repos = h.service.deps.meta.repos;
    const at = new Date(h.nowMs).toISOString();
    await repos.escalationPolicies.insert({
      id: "esc_alerts",
      projectId: h.projectId,
      name: "Latency on call",
      steps: [
        { delayMinutes: 0, channelIds: [h.channelId] },
        { delayMinutes: 5, channelIds: [h.channelId] },
      ],
      repeat: 0,
      createdBy: null,
      createdAt: at,
      updatedAt: at,
    });
    const rule = await addRule({
      forSeconds: 0,
      openIncident: true,
      escalationPolicyId: "esc_alerts",
    });
    const t0 = h.nowMs;
    const worker = h.service.deps.escalation.worker;
    const escalated = async () =>
      (await repos.notificationDeliveries.listByChannel(h.channelId, 100))
        .map((d) => d.payload as Notification)
        .filter((n) => n.escalation)
        .reverse();

    await ingest({ shop: 900 });
    const fired = await evaluateAt(rule.id, 0, t0);
    const incidentId = fired?.incidentId ?? "";
    expect(await repos.incidentEscalations.findByIncident(incidentId)).toMatchObject({
      policyId: "esc_alerts",
      status: "active",
      payload: { event: "alert.fired", rule: { id: rule.id }, incidentId },
    });
    // A second series firing adds to the incident: still one escalation.
    await ingest({ cart: 800 });
    await evaluateAt(rule.id, 30, t0);
    await worker.runOnce();
    const first = await escalated();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      event: "alert.fired",
      incidentId,
      escalation: { policyName: "Latency on call", step: 1, steps: 2, round: 1, rounds: 1 },
      acknowledgeUrl: expect.stringMatching(/\/ack\/[A-Za-z0-9_-]{43}$/),
    });

    await ingest({ shop: 100, cart: 100 });
    await evaluateAt(rule.id, 60, t0);
    expect((await repos.incidents.findById(incidentId))?.status).toBe("resolved");
    h.nowMs = t0 + 10 * 60_000;
    await worker.runOnce();
    expect(await escalated()).toHaveLength(1);
    expect(await repos.incidentEscalations.findByIncident(incidentId)).toMatchObject({
      status: "stopped",
      stopReason: "resolved",
    });
  });
});
