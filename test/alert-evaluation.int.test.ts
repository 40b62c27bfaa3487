import { describe, expect, it } from "vitest";
import { listChannelDeliveries } from "../src/notifications/channels.js";
import { createEndpoint } from "../src/webhooks/endpoints.js";
import { alertEvaluationHarness } from "./helpers/alert-evaluation.js";

/** A rule's series through pending, firing and resolved: notifications, mutes, noData, restarts. */
describe("alert evaluation", () => {
  const h = alertEvaluationHarness();
  const { boot, ingest, addRule, evaluateAt, eventsOf, deliveriesOf } = h;

  it("goes pending, fires after `for`, re-notifies on schedule and resolves when the value drops", async () => {
    const rule = await addRule({ forSeconds: 120, renotifyMinutes: 2 });
    const t0 = h.nowMs;
    await ingest({ shop: 900 });
    const first = await evaluateAt(rule.id, 0, t0);
    expect(first?.plan.changes.map((c) => c.kind)).toEqual(["pending"]);
    expect((await h.service.deps.meta.repos.alertRules.findById(rule.id))?.state).toBe("pending");
    expect(await deliveriesOf()).toHaveLength(0);

    await evaluateAt(rule.id, 60, t0);
    await evaluateAt(rule.id, 120, t0); // the breach has lasted `for`: fires
    const fired = await h.service.deps.meta.repos.alertRules.findById(rule.id);
    expect(fired).toMatchObject({
      state: "firing",
      lastValue: 900,
      lastSeries: 1,
      lastError: null,
    });
    await evaluateAt(rule.id, 180, t0);
    await evaluateAt(rule.id, 240, t0); // two minutes after the fire: a reminder
    await ingest({ shop: 120 });
    await evaluateAt(rule.id, 300, t0);

    const events = await eventsOf(rule.id);
    expect(events.map((e) => [e.kind, e.value, e.notified])).toEqual([
      ["pending", 900, false],
      ["fired", 900, true],
      ["renotified", 900, true],
      ["resolved", 120, true],
    ]);
    expect(events[1]).toMatchObject({
      labels: { service: "shop" },
      seriesKey: '{"service":"shop"}',
      threshold: 500,
      message: "shop checkout took 900 ms (over 500)",
      at: new Date(t0 + 120_000).toISOString(),
    });
    const deliveries = await deliveriesOf();
    expect(deliveries.map((d) => [d.event, d.ruleId, d.monitorId])).toEqual([
      ["alert.fired", rule.id, null],
      ["alert.renotified", rule.id, null],
      ["alert.resolved", rule.id, null],
    ]);
    expect(deliveries[2]?.payload).toMatchObject({
      event: "alert.resolved",
      rule: { id: rule.id, condition: "value > 500" },
      value: 120,
      firedAt: new Date(t0 + 120_000).toISOString(),
      resolvedAt: new Date(t0 + 300_000).toISOString(),
    });
    // The outbox sends them through the channel; its log names the rule.
    await h.service.deps.notifier.deliverDue();
    const log = await listChannelDeliveries({
      ctx: { deps: h.service.deps.domain, actor: { kind: "system" } },
      projectId: h.projectId,
      channelId: h.channelId,
    });
    expect(log.map((d) => [d.event, d.ruleId, d.status])).toEqual([
      ["alert.resolved", rule.id, "sent"],
      ["alert.renotified", rule.id, "sent"],
      ["alert.fired", rule.id, "sent"],
    ]);
    const after = await h.service.deps.meta.repos.alertRules.findById(rule.id);
    expect(after).toMatchObject({ state: "ok", lastValue: 120 });
    expect(await h.service.deps.meta.repos.alertSeries.list(rule.id)).toMatchObject([
      { state: "ok", lastValue: 120, firedAt: null },
    ]);
  });

  it("a muted rule is evaluated and recorded, but notifies no channel and sends no webhook", async () => {
    await createEndpoint({
      ctx: { deps: h.service.deps.domain, actor: { kind: "system" } },
      projectId: h.projectId,
      input: { url: `${h.receiver.url}/muted`, events: ["alert.fired", "alert.resolved"] },
    });
    const rule = await addRule({ forSeconds: 0 }, { muted: true, mutedUntil: null });
    const t0 = h.nowMs;
    await ingest({ shop: 900 });
    await evaluateAt(rule.id, 0, t0);
    await ingest({ shop: 100 });
    await evaluateAt(rule.id, 60, t0);
    expect((await eventsOf(rule.id)).map((e) => [e.kind, e.notified])).toEqual([
      ["fired", false],
      ["resolved", false],
    ]);
    expect(await deliveriesOf()).toHaveLength(0);
    await h.service.deps.webhooks.deliverer.deliverDue();
    // Only the endpoint's verification request reached the h.receiver.
    expect(h.receiver.requests.map((r) => r.headers["x-service-event"])).toEqual([
      "endpoint.verify",
    ]);
  });

  it("noData: ok resolves, alerting fires after `for` on the {} series, keep changes nothing", async () => {
    const empty =
      "SELECT service_name AS service, max(duration_ms) AS value FROM traces WHERE operation_name = 'none' GROUP BY service";
    const t0 = h.nowMs;
    const alerting = await addRule({ noData: "alerting", forSeconds: 60 }, { query: empty });
    const keep = await addRule({ noData: "keep", forSeconds: 0 });
    const ok = await addRule({ noData: "ok", forSeconds: 0 });
    await ingest({ shop: 900 });
    for (const rule of [keep, ok]) await evaluateAt(rule.id, 0, t0);
    // The data goes away for both: their query now returns no rows.
    const repos = h.service.deps.meta.repos;
    for (const rule of [keep, ok]) {
      const current = await repos.alertRules.findById(rule.id);
      if (!current) throw new Error("rule gone");
      await repos.alertRules.updateDefinition(rule.id, {
        ...current,
        query: empty,
        updatedAt: current.updatedAt,
      });
    }
    for (const seconds of [0, 60]) await evaluateAt(alerting.id, seconds, t0);
    for (const rule of [keep, ok]) await evaluateAt(rule.id, 60, t0);

    // no_data and pending share their instant: compared without their order.
    expect((await eventsOf(alerting.id)).map((e) => [e.kind, e.seriesKey, e.value]).sort()).toEqual(
      [
        ["fired", "{}", null],
        ["no_data", "{}", null],
        ["pending", "{}", null],
      ],
    );
    expect((await repos.alertRules.findById(alerting.id))?.state).toBe("firing");
    expect((await eventsOf(keep.id)).map((e) => e.kind)).toEqual(["fired", "no_data"]);
    expect((await repos.alertRules.findById(keep.id))?.state).toBe("firing");
    expect((await eventsOf(ok.id)).map((e) => e.kind).sort()).toEqual([
      "fired",
      "no_data",
      "resolved",
    ]);
    expect((await repos.alertRules.findById(ok.id))?.state).toBe("ok");
  });

  it("a restart mid-pending neither loses nor duplicates the series' state", async () => {
    const rule = await addRule({ forSeconds: 120 });
    const t0 = h.nowMs;
    await ingest({ shop: 900, cart: 800 });
    await evaluateAt(rule.id, 0, t0);
    await h.service.stop();
    h.service = await boot(h.dir.path);
    await evaluateAt(rule.id, 60, t0);
    await h.service.stop();
    h.service = await boot(h.dir.path);
    await evaluateAt(rule.id, 120, t0);
    await evaluateAt(rule.id, 180, t0);
    const events = await eventsOf(rule.id);
    expect(events.map((e) => [e.kind, e.labels.service]).sort()).toEqual([
      ["fired", "cart"],
      ["fired", "shop"],
      ["pending", "cart"],
      ["pending", "shop"],
    ]);
    expect(
      events
        .filter((e) => e.kind === "fired")
        .every((e) => e.at === new Date(t0 + 120_000).toISOString()),
    ).toBe(true);
    expect((await deliveriesOf()).map((d) => d.event)).toEqual(["alert.fired", "alert.fired"]);
  });
});
