import pino from "pino";
import { describe, expect, it } from "vitest";
import { createAlertEngine } from "../src/alerts/evaluator.js";
import { incidentVerbs } from "../src/alerts/incidents-port.js";
import { UnavailableError } from "../src/lib/domain-errors.js";
import { alertEvaluationHarness, QUERY } from "./helpers/alert-evaluation.js";

/** A rule whose query fails or whose engine slot is busy: error states, backoff, recovery. */
describe("alert evaluation failures", () => {
  const h = alertEvaluationHarness();
  const { clock, ingest, addRule, evaluateAt, eventsOf, deliveriesOf } = h;

  it("a query error puts the rule in error once, never fires or resolves, and recovers", async () => {
    const rule = await addRule({ forSeconds: 0 });
    const t0 = h.nowMs;
    await ingest({ shop: 900 });
    await evaluateAt(rule.id, 0, t0);
    const repos = h.service.deps.meta.repos;
    const current = await repos.alertRules.findById(rule.id);
    if (!current) throw new Error("rule gone");
    const broken = "SELECT no_such_column AS value FROM traces";
    await repos.alertRules.updateDefinition(rule.id, { ...current, query: broken });
    await ingest({ shop: 10 }); // would resolve, if the query worked
    await evaluateAt(rule.id, 60, t0);
    await evaluateAt(rule.id, 120, t0);
    const failed = await repos.alertRules.findById(rule.id);
    expect(failed?.state).toBe("error");
    expect(failed?.lastError).toMatch(/no_such_column/);
    expect(await repos.alertSeries.list(rule.id)).toMatchObject([{ state: "firing" }]);
    await repos.alertRules.updateDefinition(rule.id, { ...current, query: QUERY });
    await evaluateAt(rule.id, 180, t0);
    expect((await eventsOf(rule.id)).map((e) => e.kind)).toEqual([
      "fired",
      "error",
      "recovered_from_error",
      "resolved",
    ]);
    expect((await deliveriesOf()).map((d) => d.event)).toEqual(["alert.fired", "alert.resolved"]);
  });

  it("a rule whose evaluations keep failing is shown as failing and backs off, then recovers", async () => {
    const rule = await addRule(
      { forSeconds: 0 },
      { query: "SELECT no_such_column AS value FROM traces" },
    );
    const t0 = h.nowMs;
    const engine = h.service.deps.alerts.engine;
    const repos = h.service.deps.meta.repos;
    const at = (seconds: number) => {
      h.nowMs = t0 + seconds * 1000;
      return engine.evaluateScheduled(rule.id);
    };
    const attempts = async () => (await repos.alertRules.findById(rule.id))?.failures;
    // One failure keeps the interval: it may have been the engine's, not the rule's.
    expect(await at(0)).toMatchObject({ plan: { state: "error", failures: 1 } });
    expect(await at(60)).toMatchObject({ plan: { failures: 2 } });
    // Two in a row: the next slot (60 s on) is skipped, the one after (120 s on) runs.
    expect(await at(120)).toBe("backing_off");
    expect(await attempts()).toBe(2);
    expect(await at(180)).toMatchObject({ plan: { failures: 3 } });
    // Three: four intervals.
    for (const seconds of [240, 300, 360]) expect(await at(seconds)).toBe("backing_off");
    expect(await at(420)).toMatchObject({ plan: { failures: 4 } });

    // The API says so: failing, why, since when and when it runs next; not a verdict on the data.
    const view = await h.service.fetch(`/v1/alerts/${rule.id}`, {
      headers: { "x-api-key": h.apiKey },
    });
    expect(view.status).toBe(200);
    const body = (await view.json()) as { state: string; failing: Record<string, unknown> };
    expect(body.state).toBe("error");
    expect(body.failing).toEqual({
      since: new Date(t0).toISOString(),
      failures: 4,
      reason: expect.stringMatching(/no_such_column/),
      nextEvaluationAt: new Date(t0 + (420 + 8 * 60) * 1000).toISOString(),
    });
    // Evaluated by hand (the preview, a test), it never backs off.
    h.nowMs = t0 + 430_000;
    expect(await engine.evaluate(rule.id)).toMatchObject({ plan: { failures: 5 } });

    // Backing off for 15 minutes now; an edit ends it: the next slot runs, works and clears it.
    expect(await at(490)).toBe("backing_off");
    const current = await repos.alertRules.findById(rule.id);
    if (!current) throw new Error("rule gone");
    await repos.alertRules.updateDefinition(rule.id, { ...current, query: QUERY });
    expect(await at(500)).toMatchObject({ plan: { failures: 0, failingSince: null } });
    const healed = (await (
      await h.service.fetch(`/v1/alerts/${rule.id}`, { headers: { "x-api-key": h.apiKey } })
    ).json()) as { failing: unknown };
    expect(healed.failing).toBeNull();
  });

  it("skips a slot the engine was too busy for, unrecorded: others' load never fails a rule", async () => {
    const rule = await addRule({ forSeconds: 0 });
    const busy = createAlertEngine({
      meta: h.service.deps.meta,
      clock,
      newId: h.service.deps.domain.newId,
      query: async () => {
        throw new UnavailableError("The telemetry engine is busy with other projects' queries", 1);
      },
      incidents: incidentVerbs(h.service.deps.domain),
      webhooks: h.service.deps.webhooks,
      logger: pino({ level: "silent" }),
    });
    expect(await busy.evaluateScheduled(rule.id)).toBe("engine_busy");
    expect(await busy.evaluateScheduled(rule.id)).toBe("engine_busy");
    const stored = await h.service.deps.meta.repos.alertRules.findById(rule.id);
    expect(stored).toMatchObject({ state: "ok", failures: 0, lastEvaluatedAt: null });
    expect(await eventsOf(rule.id)).toEqual([]);
  });
});
