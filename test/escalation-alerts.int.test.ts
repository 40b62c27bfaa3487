import { describe, expect, it } from "vitest";
import type { Notification } from "../src/notifications/notification-payloads.js";
import { alertEvaluationHarness } from "./helpers/alert-evaluation.js";

/** An alert rule's escalation policy: its incident's first fire starts it, the resolve stops it. */
describe("alert evaluation: escalation", () => {
  const h = alertEvaluationHarness();
  const { ingest, addRule, evaluateAt } = h;

  /** A policy of two steps to the rules' channel, five minutes apart. */
  const addPolicy = async () => {
    const at = new Date(h.nowMs).toISOString();
    await h.service.deps.meta.repos.escalationPolicies.insert({
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
  };
  const escalated = async () =>
    (await h.service.deps.meta.repos.notificationDeliveries.listByChannel(h.channelId, 100))
      .map((d) => d.payload as Notification)
      .filter((n) => n.escalation)
      .reverse();

  it("escalates the rule's alert.fired step by step until the incident resolves", async () => {
    const repos = h.service.deps.meta.repos;
    await addPolicy();
    const rule = await addRule({
      forSeconds: 0,
      openIncident: true,
      escalationPolicyId: "esc_alerts",
    });
    const t0 = h.nowMs;
    const worker = h.service.deps.escalation.worker;

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

  it("sends no step while the rule is muted; the timeline says the step went by", async () => {
    const repos = h.service.deps.meta.repos;
    // Passes run only when the test says, so none comes between the fire and the mute.
    await h.service.deps.escalation.worker.stop();
    await addPolicy();
    const rule = await addRule({
      forSeconds: 0,
      openIncident: true,
      escalationPolicyId: "esc_alerts",
    });
    const t0 = h.nowMs;
    await ingest({ shop: 900 });
    const incidentId = (await evaluateAt(rule.id, 0, t0))?.incidentId ?? "";
    const at = new Date(t0).toISOString();
    await repos.alertRules.setMute(rule.id, { muted: true, mutedUntil: null, updatedAt: at });
    await h.service.deps.escalation.worker.runOnce();
    expect(await escalated()).toEqual([]);
    const timeline = await repos.incidents.listEvents([incidentId], ["escalated"]);
    expect(timeline.map((e) => e.message)).toEqual([
      "escalation step 1 of 2 — Latency on call not sent: the alert rule is muted",
    ]);
  });
});
