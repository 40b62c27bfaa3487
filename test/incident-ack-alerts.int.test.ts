import { describe, expect, it } from "vitest";
import type { Notification } from "../src/notifications/notification-payloads.js";
import { alertEvaluationHarness } from "./helpers/alert-evaluation.js";

/** An alert rule's problems carry a one-click acknowledge link while its incident is open. */
describe("alert notifications: acknowledge links", () => {
  const h = alertEvaluationHarness();
  const { ingest, addRule, evaluateAt, deliveriesOf } = h;

  it("alert.fired carries a link to the rule's incident; alert.resolved none; none once acknowledged", async () => {
    const rule = await addRule({ forSeconds: 0, openIncident: true });
    const t0 = h.nowMs;
    const repos = h.service.deps.meta.repos;
    await ingest({ shop: 900 });
    await evaluateAt(rule.id, 0, t0);
    const payloads = async () =>
      (await deliveriesOf())
        .map((d) => d.payload as Notification)
        .sort((a, b) => a.event.localeCompare(b.event));
    const [fired] = await payloads();
    expect(fired?.event).toBe("alert.fired");
    expect(fired?.acknowledgeUrl).toMatch(/\/ack\/[A-Za-z0-9_-]{43}$/);
    const incident = await repos.incidents.findOpenBySource("alert", rule.id);
    const token = new URL(fired?.acknowledgeUrl ?? "").pathname;
    const page = await h.service.fetch(token);
    expect(await page.text()).toContain(rule.name);
    // Acknowledged: a second series' fire carries no link (it would do nothing).
    await repos.incidents.acknowledge(incident?.id ?? "", {
      at: new Date(t0).toISOString(),
      by: { kind: "system", id: null, label: null },
    });
    await ingest({ cart: 800 });
    await evaluateAt(rule.id, 60, t0);
    await ingest({ shop: 100, cart: 100 });
    await evaluateAt(rule.id, 120, t0);
    const all = await payloads();
    expect(all.map((p) => [p.event, p.acknowledgeUrl === undefined])).toEqual([
      ["alert.fired", false],
      ["alert.fired", true],
      ["alert.resolved", true],
      ["alert.resolved", true],
    ]);
  });
});
