import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { seriesKeyHash } from "../src/alerts/definition.js";
import { createEndpoint } from "../src/webhooks/endpoints.js";
import { alertEvaluationHarness } from "./helpers/alert-evaluation.js";

/** What a firing rule opens and sends: its incident (openIncident) and signed alert webhooks. */
describe("alert evaluation: incidents and webhooks", () => {
  const h = alertEvaluationHarness();
  const { ingest, addRule, evaluateAt, eventsOf, deliveriesOf } = h;

  it("openIncident opens exactly one incident for the rule and resolves it with the last series", async () => {
    const rule = await addRule({ forSeconds: 0, openIncident: true });
    const t0 = h.nowMs;
    const repos = h.service.deps.meta.repos;
    await ingest({ shop: 900 });
    const first = await evaluateAt(rule.id, 0, t0);
    await ingest({ cart: 700 });
    await evaluateAt(rule.id, 60, t0);
    const open = await repos.incidents.findOpenBySource("alert", rule.id);
    expect(open).toMatchObject({
      source: "alert",
      sourceId: rule.id,
      status: "active",
      severity: "high",
    });
    expect(first?.incidentId).toBe(open?.id);
    await ingest({ shop: 100 });
    await evaluateAt(rule.id, 120, t0);
    expect(await repos.incidents.findOpenBySource("alert", rule.id)).toMatchObject({
      id: open?.id,
    });
    await ingest({ cart: 100 });
    await evaluateAt(rule.id, 180, t0);
    expect(await repos.incidents.findOpenBySource("alert", rule.id)).toBeUndefined();
    const incident = await repos.incidents.findById(open?.id ?? "");
    expect(incident).toMatchObject({ status: "resolved", durationMs: 180_000 });
    const timeline = await repos.incidents.listEvents([open?.id ?? ""]);
    expect(timeline.map((e) => e.type)).toEqual([
      "opened",
      "alert_fired",
      "alert_fired",
      "alert_resolved",
      "alert_resolved",
      "resolved",
    ]);
    expect(
      await repos.incidents.count({ projectId: h.projectId, source: "alert", sourceId: rule.id }),
    ).toBe(1);
    expect((await eventsOf(rule.id)).every((e) => e.incidentId === open?.id)).toBe(true);
  });

  it("a muted rule opens no incident; once unmuted, a series still firing opens it", async () => {
    const rule = await addRule({ forSeconds: 0, openIncident: true }, { muted: true });
    const t0 = h.nowMs;
    const repos = h.service.deps.meta.repos;
    await ingest({ shop: 900 });
    await evaluateAt(rule.id, 0, t0);
    expect(await repos.incidents.findOpenBySource("alert", rule.id)).toBeUndefined();
    await repos.alertRules.setMute(rule.id, {
      muted: false,
      mutedUntil: null,
      updatedAt: new Date(t0).toISOString(),
    });
    const unmuted = await evaluateAt(rule.id, 60, t0);
    const open = await repos.incidents.findOpenBySource("alert", rule.id);
    expect(open).toMatchObject({
      status: "active",
      startedAt: new Date(t0 + 60_000).toISOString(),
    });
    expect(unmuted?.incidentId).toBe(open?.id);
    // Its fire was made while muted: it is not sent again, and nothing new fired.
    expect(unmuted?.plan.changes).toEqual([]);
    expect(await deliveriesOf()).toHaveLength(0);
    expect(await repos.alertSeries.list(rule.id)).toMatchObject([{ incidentId: open?.id }]);
  });

  it("delivers alert.fired and alert.resolved webhooks with ruleId, signed per Standard Webhooks", async () => {
    const endpoint = await createEndpoint({
      ctx: { deps: h.service.deps.domain, actor: { kind: "system" } },
      projectId: h.projectId,
      input: { url: `${h.receiver.url}/alerts`, events: ["alert.fired", "alert.resolved"] },
    });
    const rule = await addRule({ forSeconds: 0 });
    const t0 = h.nowMs;
    await ingest({ shop: 900 });
    await evaluateAt(rule.id, 0, t0);
    // Evaluating again while firing enqueues nothing new.
    await evaluateAt(rule.id, 30, t0);
    await ingest({ shop: 100 });
    await evaluateAt(rule.id, 60, t0);
    const requests = (await h.receiver.waitFor(3, 10_000)).slice(1);
    await h.service.deps.notifier.deliverDue();
    await h.service.deps.webhooks.deliverer.deliverDue();
    expect(h.receiver.requests).toHaveLength(3);
    const verifier = new Webhook(endpoint.secret);
    const bodies = requests.map((r) => {
      const headers = {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"]),
      };
      return verifier.verify(r.body, headers) as { event: string; data: Record<string, unknown> };
    });
    expect(bodies.map((b) => b.event)).toEqual(["alert.fired", "alert.resolved"]);
    const firedAt = new Date(t0).toISOString();
    expect(bodies[0]?.data).toMatchObject({
      ruleId: rule.id,
      projectId: h.projectId,
      value: 900,
      threshold: 500,
      labels: { service: "shop" },
      firedAt,
      resolvedAt: null,
    });
    expect(bodies[1]?.data).toMatchObject({ ruleId: rule.id, value: 100, firedAt });
    expect(requests.map((r) => r.headers["x-service-event"])).toEqual([
      "alert.fired",
      "alert.resolved",
    ]);
    // The ids the store de-duplicates on: a retried evaluation (or the rule's webhook channel
    // publishing the same fire) never enqueues it twice.
    let attempts = await h.service.deps.meta.repos.webhookDeliveries.listAttempts(endpoint.id, 10);
    // The receiver has the requests; the deliverer records their outcome just after.
    for (let i = 0; i < 100 && attempts.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      attempts = await h.service.deps.meta.repos.webhookDeliveries.listAttempts(endpoint.id, 10);
    }
    const stored = await Promise.all(
      attempts.map((a) => h.service.deps.meta.repos.webhookDeliveries.findById(a.deliveryId)),
    );
    const hash = seriesKeyHash('{"service":"shop"}');
    expect(stored.map((d) => d?.eventId).sort()).toEqual([
      `alert.fired:${rule.id}:${hash}:${t0}`,
      `alert.resolved:${rule.id}:${hash}:${t0}`,
    ]);
  });
});
