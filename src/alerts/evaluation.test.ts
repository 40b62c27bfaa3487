import { describe, expect, it } from "vitest";
import type { AlertRuleDefinition } from "../meta/repositories/alert-rule-definition.js";
import { type AlertRuleRecord, newAlertRuleRecord } from "../meta/repositories/alert-rules.js";
import type { AlertSeriesRecord } from "../meta/repositories/alert-series.js";
import { seriesKey } from "./definition.js";
import { type EvaluationPlan, isMuted, planEvaluation, type QueryOutcome } from "./evaluation.js";

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000);

function ruleOf(change: Partial<AlertRuleDefinition> = {}, extra: Partial<AlertRuleRecord> = {}) {
  const definition: AlertRuleDefinition = {
    preset: null,
    condition: { op: ">", threshold: 100 },
    interval: "1m",
    forSeconds: 120,
    noData: "ok",
    renotifyMinutes: 0,
    openIncident: false,
    messageTemplate: "{{value}}",
    escalationPolicyId: null,
    ...change,
  };
  const rule: AlertRuleRecord = {
    ...newAlertRuleRecord({
      id: "alr_1",
      projectId: "prj_1",
      name: "p95",
      description: "",
      severity: "high",
      definition,
      query: "SELECT 1 AS value",
      channelIds: [],
      at: at(0).toISOString(),
    }),
    ...extra,
  };
  return rule;
}

const values = (...pairs: [string, number | null][]): QueryOutcome => ({
  ok: true,
  samples: pairs.map(([service, value]) => ({
    seriesKey: seriesKey({ service }),
    labels: { service },
    value,
  })),
});
const empty: QueryOutcome = { ok: true, samples: [] };

/** Runs evaluations in sequence, carrying the series and the rule's state as the store would. */
function run(rule: AlertRuleRecord, steps: [number, QueryOutcome][]): EvaluationPlan[] {
  let series: AlertSeriesRecord[] = [];
  let current = rule;
  return steps.map(([seconds, outcome]) => {
    const plan = planEvaluation(current, series, outcome, at(seconds));
    const written = new Set([...plan.upserts.map((s) => s.seriesKey), ...plan.deletes]);
    series = [...series.filter((s) => !written.has(s.seriesKey)), ...plan.upserts];
    current = { ...current, state: plan.state, lastSeries: plan.lastSeries };
    return plan;
  });
}
const kinds = (plan: EvaluationPlan | undefined) => plan?.changes.map((c) => c.kind) ?? [];

describe("planEvaluation", () => {
  it("goes pending, fires once the breach lasted `for`, and resolves when the value drops", () => {
    const plans = run(ruleOf(), [
      [0, values(["shop", 150])],
      [60, values(["shop", 150])],
      [120, values(["shop", 150])],
      [180, values(["shop", 150])],
      [240, values(["shop", 50])],
    ]);
    expect(plans.map(kinds)).toEqual([["pending"], [], ["fired"], [], ["resolved"]]);
    expect(plans.map((p) => p.state)).toEqual(["pending", "pending", "firing", "firing", "ok"]);
    expect(plans[2]?.changes[0]).toMatchObject({ firedAt: at(120).toISOString(), value: 150 });
    // The resolve belongs to the fire: same firedAt (the stable webhook id).
    expect(plans[4]?.changes[0]?.firedAt).toBe(at(120).toISOString());
  });

  it("fires at once with for 0, and a pending series that stops breaching goes back to ok", () => {
    expect(run(ruleOf({ forSeconds: 0 }), [[0, values(["a", 101])]]).map(kinds)).toEqual([
      ["fired"],
    ]);
    const plans = run(ruleOf(), [
      [0, values(["a", 101])],
      [60, values(["a", 99])],
    ]);
    expect(plans.map(kinds)).toEqual([["pending"], []]);
    expect(plans[1]?.state).toBe("ok");
  });

  it("re-notifies every renotifyMinutes while firing, not while muted", () => {
    const firing: [number, QueryOutcome][] = [0, 60, 120, 180, 240, 300, 360].map((s) => [
      s,
      values(["a", 500]),
    ]);
    const plans = run(ruleOf({ forSeconds: 0, renotifyMinutes: 2 }), firing);
    expect(plans.map(kinds)).toEqual([
      ["fired"],
      [],
      ["renotified"],
      [],
      ["renotified"],
      [],
      ["renotified"],
    ]);
    const muted = run(ruleOf({ forSeconds: 0, renotifyMinutes: 2 }, { muted: true }), firing);
    expect(muted.map(kinds)).toEqual([["fired"], [], [], [], [], [], []]);
    expect(muted.every((p) => p.muted)).toBe(true);
  });

  it("counts a mute that has expired as unmuted", () => {
    const rule = ruleOf({}, { muted: true, mutedUntil: at(60).toISOString() });
    expect(isMuted(rule, at(59))).toBe(true);
    expect(isMuted(rule, at(60))).toBe(false);
    expect(isMuted(ruleOf({}, { muted: true }), at(1e6))).toBe(true);
  });

  it("resolves a known series missing from a non-empty result", () => {
    const plans = run(ruleOf({ forSeconds: 0 }), [
      [0, values(["a", 500], ["b", 500])],
      [60, values(["b", 500])],
    ]);
    expect(plans[1]?.changes).toMatchObject([{ kind: "resolved", key: '{"service":"a"}' }]);
    expect(plans[1]?.deletes).toEqual(['{"service":"a"}']);
    expect(plans[1]?.state).toBe("firing");
  });

  it("noData ok resolves every series, once, with one no_data event", () => {
    const plans = run(ruleOf({ forSeconds: 0, noData: "ok" }), [
      [0, values(["a", 500])],
      [60, empty],
      [120, empty],
    ]);
    expect(plans.map(kinds)).toEqual([["fired"], ["resolved"], []]);
    expect(plans.map((p) => p.ruleEvents.map((e) => e.kind))).toEqual([[], ["no_data"], []]);
    expect(plans[1]?.state).toBe("ok");
  });

  it("noData alerting breaches the {} series and known ones, honouring for", () => {
    const plans = run(ruleOf({ forSeconds: 120, noData: "alerting" }), [
      [0, empty],
      [60, empty],
      [120, empty],
    ]);
    expect(plans.map(kinds)).toEqual([["pending"], [], ["fired"]]);
    expect(plans[2]?.changes[0]).toMatchObject({ key: "{}", value: null });
    expect(plans[2]?.state).toBe("firing");
  });

  it("noData keep leaves every state as it was", () => {
    const plans = run(ruleOf({ forSeconds: 60, noData: "keep" }), [
      [0, values(["a", 500])],
      [60, empty],
      [120, empty],
    ]);
    expect(plans.map(kinds)).toEqual([["pending"], [], []]);
    expect(plans.map((p) => p.state)).toEqual(["pending", "pending", "pending"]);
    expect(plans[1]?.upserts).toEqual([]);
  });

  it("a query error changes no series, records error once, and recovers", () => {
    const broken: QueryOutcome = { ok: false, error: "Unknown column 'nope'" };
    const plans = run(ruleOf({ forSeconds: 0 }), [
      [0, values(["a", 500])],
      [60, broken],
      [120, broken],
      [180, values(["a", 500])],
      [240, values(["a", 1])],
    ]);
    expect(plans.map(kinds)).toEqual([["fired"], [], [], [], ["resolved"]]);
    expect(plans.map((p) => p.state)).toEqual(["firing", "error", "error", "firing", "ok"]);
    expect(plans.map((p) => p.ruleEvents.map((e) => e.kind))).toEqual([
      [],
      ["error"],
      [],
      ["recovered_from_error"],
      [],
    ]);
    expect(plans[1]).toMatchObject({ upserts: [], deletes: [], lastError: broken.error });
  });

  it("a null value is no data for its series", () => {
    const plans = run(ruleOf({ forSeconds: 0, noData: "keep" }), [
      [0, values(["a", 500])],
      [60, values(["a", null], ["b", 1])],
    ]);
    expect(plans.map(kinds)).toEqual([["fired"], []]);
    expect(plans[1]?.state).toBe("firing");
  });
});
