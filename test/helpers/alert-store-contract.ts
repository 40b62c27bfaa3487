import { expect, it } from "vitest";
import { ConflictError } from "../../src/lib/domain-errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { AlertEventRecord } from "../../src/meta/repositories/alert-events.js";
import type { AlertRuleDefinition } from "../../src/meta/repositories/alert-rule-definition.js";
import type { AlertRuleRecord } from "../../src/meta/repositories/alert-rules.js";
import type { AlertSeriesRecord } from "../../src/meta/repositories/alert-series.js";

/** Alert rules, their series and events: the repositories the evaluator and the API use. */
export function alertStoreContract(getStore: () => MetaStore): void {
  const t0 = Date.UTC(2026, 0, 2, 12, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  const definition: AlertRuleDefinition = {
    preset: { kind: "error_rate", params: { window: "5m" } },
    condition: { op: ">", threshold: 0.05 },
    interval: "5m",
    forSeconds: 120,
    noData: "keep",
    renotifyMinutes: 30,
    openIncident: true,
    messageTemplate: "{{value}} > {{threshold}} on {{labels.service}}",
    escalationPolicyId: null,
  };
  const rule: AlertRuleRecord = {
    id: "alr_contract",
    projectId: "prj_alr",
    name: "Error rate",
    description: "checkout errors",
    severity: "high",
    definition,
    query: "SELECT 1 AS value",
    channelIds: ["chn_alr"],
    muted: false,
    mutedUntil: null,
    state: "ok",
    lastEvaluatedAt: null,
    lastDurationMs: null,
    lastValue: null,
    lastSeries: null,
    lastError: null,
    failures: 0,
    failingSince: null,
    createdBy: null,
    createdAt: at(0),
    updatedAt: at(0),
  };
  const series = (key: string, state: AlertSeriesRecord["state"]): AlertSeriesRecord => ({
    ruleId: rule.id,
    seriesKey: key,
    labels: JSON.parse(key) as Record<string, string>,
    state,
    pendingSince: state === "pending" ? at(60) : null,
    firedAt: state === "firing" ? at(120) : null,
    lastValue: 0.25,
    lastEvaluatedAt: at(120),
    lastNotifiedAt: null,
    incidentId: null,
  });

  it("stores an alert rule with its channels, updates it, mutes it and records evaluations", async () => {
    const store = getStore();
    const { repos } = store;
    await repos.organizations.insert({ id: "org_alr", name: "Alr", createdAt: at(0) });
    await repos.projects.insert({ id: "prj_alr", orgId: "org_alr", name: "a", createdAt: at(0) });
    await repos.notificationChannels.insert({
      id: "chn_alr",
      projectId: "prj_alr",
      name: "hook",
      type: "webhook",
      config: {},
      secret: null,
      createdAt: at(0),
      updatedAt: at(0),
    });
    await repos.alertRules.insert(rule);
    expect(await repos.alertRules.findById(rule.id)).toEqual(rule);
    await expect(
      store.run((r) => r.alertRules.insert({ ...rule, id: "alr_dup", channelIds: [] })),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await repos.alertRules.listChannels(rule.id)).toEqual(["chn_alr"]);
    expect(await repos.notificationChannels.listAlertRulesUsing("chn_alr")).toEqual([
      { id: rule.id, name: "Error rate" },
    ]);
    expect(await repos.alertRules.listSchedulable()).toContainEqual({
      id: rule.id,
      projectId: rule.projectId,
      orgId: "org_alr",
      intervalMs: 300_000,
      lastEvaluatedAt: null,
    });

    await repos.alertRules.recordEvaluation(rule.id, {
      state: "firing",
      lastEvaluatedAt: at(300),
      lastDurationMs: 12,
      lastValue: 0.5,
      lastSeries: 2,
      lastError: null,
      failures: 0,
      failingSince: null,
    });
    expect(await store.transaction((tx) => tx.repos.alertRules.lock(rule.id))).toBe(true);
    expect(await store.transaction((tx) => tx.repos.alertRules.lock("alr_gone"))).toBe(false);
    await repos.alertRules.updateDefinition(rule.id, {
      name: "Error rate v2",
      description: "",
      severity: "critical",
      definition: { ...definition, preset: null, interval: "1m" },
      query: "SELECT 2 AS value",
      channelIds: [],
      updatedAt: at(301),
    });
    await repos.alertRules.setMute(rule.id, {
      muted: true,
      mutedUntil: at(900),
      updatedAt: at(302),
    });
    expect(await repos.alertRules.findById(rule.id)).toEqual({
      ...rule,
      name: "Error rate v2",
      description: "",
      severity: "critical",
      definition: { ...definition, preset: null, interval: "1m" },
      query: "SELECT 2 AS value",
      channelIds: [],
      muted: true,
      mutedUntil: at(900),
      state: "firing",
      lastEvaluatedAt: at(300),
      lastDurationMs: 12,
      lastValue: 0.5,
      lastSeries: 2,
      updatedAt: at(302),
    });
    expect(await repos.notificationChannels.listAlertRulesUsing("chn_alr")).toEqual([]);
  });

  it("upserts, lists and deletes a rule's series", async () => {
    const { repos } = getStore();
    await repos.alertSeries.upsert(series('{"service":"api"}', "pending"));
    await repos.alertSeries.upsert(series('{"service":"web"}', "firing"));
    const updated = { ...series('{"service":"api"}', "firing"), lastNotifiedAt: at(130) };
    await repos.alertSeries.upsert(updated);
    expect(await repos.alertSeries.list(rule.id)).toEqual([
      updated,
      series('{"service":"web"}', "firing"),
    ]);
    expect(await repos.alertSeries.countFiring("prj_alr")).toBe(2);
    expect((await repos.alertSeries.listForRules([rule.id])).get(rule.id)).toHaveLength(2);
    await repos.alertSeries.delete(rule.id, '{"service":"web"}');
    expect((await repos.alertSeries.list(rule.id)).map((s) => s.seriesKey)).toEqual([
      '{"service":"api"}',
    ]);
  });

  it("derives the alert status (muted, active, resolved) in lists, with an expired mute unmuted", async () => {
    const { repos } = getStore();
    const filter = (status: "active" | "muted" | "resolved", now: number) => ({
      projectId: "prj_alr",
      status,
      now: at(now),
    });
    const page = { limit: 10, offset: 0, sort: "created_at" as const, order: "desc" as const };
    // Muted until at(900) with a firing series: muted before then, active after.
    expect((await repos.alertRules.list(filter("muted", 600), page)).map((r) => r.id)).toEqual([
      rule.id,
    ]);
    expect(await repos.alertRules.count(filter("active", 600))).toBe(0);
    expect(await repos.alertRules.count(filter("active", 1000))).toBe(1);
    await repos.alertSeries.upsert(series('{"service":"api"}', "ok"));
    expect(await repos.alertRules.count(filter("resolved", 1000))).toBe(1);
    await repos.alertRules.setMute(rule.id, { muted: true, mutedUntil: null, updatedAt: at(1001) });
    expect(await repos.alertRules.count(filter("muted", 99_999))).toBe(1);
    await repos.alertRules.setMute(rule.id, {
      muted: false,
      mutedUntil: null,
      updatedAt: at(1002),
    });
    expect(await repos.alertRules.count(filter("resolved", 1003))).toBe(1);
  });

  it("records events and pages them newest first, by rule or project, kind and window", async () => {
    const { repos } = getStore();
    const events: AlertEventRecord[] = Array.from({ length: 6 }, (_, i) => ({
      id: `ale_${i}`,
      ruleId: rule.id,
      projectId: "prj_alr",
      seriesKey: "{}",
      labels: {},
      kind: i % 2 === 0 ? "fired" : "resolved",
      // The rule was low when it first fired: fires count by the severity they had.
      severity: i === 0 ? "low" : "high",
      value: i % 2 === 0 ? 0.5 : null,
      threshold: 0.05,
      at: at(i * 60),
      notified: i !== 0,
      incidentId: i === 0 ? "inc_x" : null,
      message: `event ${i}`,
    }));
    await repos.alertEvents.insertMany(events);
    await repos.alertEvents.insertMany([]);
    const page = await repos.alertEvents.list({ ruleId: rule.id }, { limit: 2, offset: 1 });
    expect(page).toEqual([events[4], events[3]]);
    expect(await repos.alertEvents.count({ projectId: "prj_alr" })).toBe(6);
    expect(await repos.alertEvents.count({ projectId: "prj_alr" }, { kinds: ["fired"] })).toBe(3);
    expect(await repos.alertEvents.count({ ruleId: rule.id }, { from: at(60), to: at(240) })).toBe(
      3,
    );
    // The dashboard's aggregates: per bucket (at(120) starts the second), by severity at fire
    // time, the noisiest rules, and the mean time from each series' fire to its resolve.
    const stats = await repos.alertEvents.transitionStats("prj_alr", {
      from: at(0),
      to: at(400),
      stepMs: 120_000,
      top: 10,
    });
    expect([...stats.buckets].sort((a, b) => a.startMs - b.startMs)).toEqual(
      [0, 120, 240].map((s) => ({ startMs: t0 + s * 1000, fires: 1, resolves: 1 })),
    );
    expect([...stats.firesBySeverity].sort((a, b) => a.fires - b.fires)).toEqual([
      { severity: "low", fires: 1 },
      { severity: "high", fires: 2 },
    ]);
    const stored = await repos.alertRules.findById(rule.id);
    expect(stats.topRules).toEqual([
      { ruleId: rule.id, name: stored?.name, severity: stored?.severity, fires: 3 },
    ]);
    expect(stats.meanTimeToResolveMs).toBe(60_000);
    const later = await repos.alertEvents.transitionStats("prj_alr", {
      from: at(9000),
      to: at(9600),
      stepMs: 60_000,
      top: 10,
    });
    expect(later).toEqual({
      buckets: [],
      firesBySeverity: [],
      topRules: [],
      meanTimeToResolveMs: null,
    });
    // The latest events of several rules in one query, newest first, at most perRule each.
    const recent = await repos.alertEvents.listRecent([rule.id, "alr_none"], {
      perRule: 2,
      kinds: ["fired", "resolved"],
    });
    expect(recent.get(rule.id)).toEqual([events[5], events[4]]);
    expect(recent.has("alr_none")).toBe(false);
    expect(
      (await repos.alertEvents.listRecent([rule.id], { perRule: 5, to: at(120) })).get(rule.id),
    ).toEqual([events[1], events[0]]);
    const rulePage = { limit: 10, offset: 0, sort: "severity" as const, order: "desc" as const };
    const activeIn = (from: number, to: number) => ({
      projectId: "prj_alr",
      now: at(0),
      activeIn: { from: at(from), to: at(to) },
    });
    expect((await repos.alertRules.list(activeIn(60, 61), rulePage)).map((r) => r.id)).toEqual([
      rule.id,
    ]);
    expect(await repos.alertRules.count(activeIn(9999, 10_000))).toBe(0);
    // Fired at 120, resolved at 180: active all through [130, 170), with no event in it.
    expect(await repos.alertRules.count(activeIn(130, 170))).toBe(1);
    expect(
      (
        await repos.alertEvents.listRecent([rule.id], {
          perRule: 5,
          activeIn: activeIn(130, 170).activeIn,
        })
      ).get(rule.id),
    ).toEqual([events[2]]);
    // Fired at 0, resolved at 60: not active in [61, 62).
    expect(await repos.alertRules.count(activeIn(61, 62))).toBe(0);
    expect(
      (await repos.alertEvents.list({ projectId: "prj_alr" }, { limit: 10, offset: 5 }))[0],
    ).toEqual(events[0]);
  });

  it("sorts by last evaluation alike on both engines: never-evaluated last in desc, first in asc", async () => {
    const { repos } = getStore();
    await repos.alertRules.recordEvaluation(rule.id, {
      state: "ok",
      lastEvaluatedAt: at(500),
      lastDurationMs: 3,
      lastValue: 0,
      lastSeries: 1,
      lastError: null,
      failures: 0,
      failingSince: null,
    });
    await repos.alertRules.insert({ ...rule, id: "alr_never", name: "Never run", channelIds: [] });
    const ids = async (order: "asc" | "desc") =>
      (
        await repos.alertRules.list(
          { projectId: "prj_alr", now: at(600) },
          { limit: 10, offset: 0, sort: "last_evaluated_at", order },
        )
      ).map((r) => r.id);
    expect(await ids("desc")).toEqual([rule.id, "alr_never"]);
    expect(await ids("asc")).toEqual(["alr_never", rule.id]);
    expect((await repos.alertRules.findByName("prj_alr", "Never run"))?.id).toBe("alr_never");
    expect(await repos.alertRules.delete("alr_never")).toBe(true);
  });

  it("deletes a rule with its channels, series and events", async () => {
    const { repos } = getStore();
    expect(await repos.alertRules.delete(rule.id)).toBe(true);
    expect(await repos.alertRules.delete(rule.id)).toBe(false);
    expect(await repos.alertSeries.list(rule.id)).toEqual([]);
    expect(await repos.alertEvents.count({ ruleId: rule.id })).toBe(0);
  });
}
