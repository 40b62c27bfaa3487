import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import type { AlertEventRecord } from "../src/meta/repositories/alert-events.js";
import type { AlertRuleDefinition } from "../src/meta/repositories/alert-rule-definition.js";
import type { AlertRuleRecord } from "../src/meta/repositories/alert-rules.js";
import { initialize } from "../src/setup/initialize.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
}
interface Alert {
  id: string;
  name: string;
  severity: string;
  status: string;
  state: string;
  condition: { op: string; threshold: number };
  mutedUntil: string | null;
  firingSeries: number;
  recentEvents: {
    id: string;
    kind: string;
    value: number | null;
    labels: Record<string, string>;
  }[];
}

/** /v1/alerts, /v1/alerts/:alertId and /v1/alerts/dashboard over rules, series and events stored through the repositories. */
describe("/v1 alerts", () => {
  const dir = makeTempDir();
  let service: TestService;
  let projectId: string;
  let key: string;
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
  const definition: AlertRuleDefinition = {
    preset: null,
    condition: { op: ">", threshold: 10 },
    interval: "1m",
    forSeconds: 60,
    noData: "ok",
    renotifyMinutes: 0,
    openIncident: false,
    messageTemplate: "{{value}}",
    escalationPolicyId: null,
  };
  const rule = (
    id: string,
    name: string,
    overrides: Partial<AlertRuleRecord> = {},
  ): AlertRuleRecord => ({
    id,
    projectId,
    name,
    description: "",
    severity: "high",
    definition,
    query: "SELECT service_name AS service, count() AS value FROM logs GROUP BY service",
    channelIds: [],
    muted: false,
    mutedUntil: null,
    state: "ok",
    lastEvaluatedAt: ago(1),
    lastDurationMs: 4,
    lastValue: 3,
    lastSeries: 1,
    lastError: null,
    failures: 0,
    failingSince: null,
    createdBy: null,
    createdAt: ago(600),
    updatedAt: ago(600),
    ...overrides,
  });
  const event = (
    id: string,
    ruleId: string,
    kind: AlertEventRecord["kind"],
    minutesAgo: number,
    series = "api",
    severity: AlertEventRecord["severity"] = ruleId === "alr_firing" ? "critical" : "high",
  ): AlertEventRecord => ({
    id,
    ruleId,
    projectId,
    seriesKey: JSON.stringify({ service: series }),
    labels: { service: series },
    kind,
    severity,
    value: kind === "fired" ? 12 : 4,
    threshold: 10,
    at: ago(minutesAgo),
    notified: true,
    incidentId: null,
    message: null,
  });
  const get = async <T>(path: string, apiKey = key): Promise<{ status: number; body: T }> => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "alerts-v1@example.com",
        password: "correct horse battery",
      },
    });
    projectId = setup.projectId;
    key = setup.apiKey ?? "";
    const { repos } = service.deps.meta;
    // Firing (critical, two fire/resolve cycles), muted until later, muted but expired (→ resolved), quiet.
    await repos.alertRules.insert(
      rule("alr_firing", "Checkout errors", { severity: "critical", state: "firing" }),
    );
    await repos.alertRules.insert(
      rule("alr_muted", "Muted", { muted: true, mutedUntil: ago(-60) }),
    );
    await repos.alertRules.insert(
      rule("alr_expired", "Expired mute", { muted: true, mutedUntil: ago(5) }),
    );
    await repos.alertRules.insert(rule("alr_quiet", "Quiet", { severity: "low" }));
    await repos.alertSeries.upsert({
      ruleId: "alr_firing",
      seriesKey: '{"service":"api"}',
      labels: { service: "api" },
      state: "firing",
      pendingSince: null,
      firedAt: ago(10),
      lastValue: 12,
      lastEvaluatedAt: ago(1),
      lastNotifiedAt: ago(10),
      incidentId: null,
    });
    await repos.alertSeries.upsert({
      ruleId: "alr_muted",
      seriesKey: "{}",
      labels: {},
      state: "firing",
      pendingSince: null,
      firedAt: ago(30),
      lastValue: 50,
      lastEvaluatedAt: ago(1),
      lastNotifiedAt: null,
      incidentId: null,
    });
    await repos.alertEvents.insertMany([
      // alr_firing: fired 120 min ago (while high), resolved 100 (20 min), fired 40, resolved 30
      // (10 min), fired 10.
      event("ale_1", "alr_firing", "fired", 120, "api", "high"),
      event("ale_2", "alr_firing", "resolved", 100),
      event("ale_3", "alr_firing", "pending", 41),
      event("ale_4", "alr_firing", "fired", 40),
      event("ale_5", "alr_firing", "resolved", 30),
      event("ale_6", "alr_firing", "fired", 10),
      // alr_muted fired once, 30 min ago; alr_quiet fired and resolved two days ago (outside 24h).
      event("ale_7", "alr_muted", "fired", 30, "web"),
      event("ale_8", "alr_quiet", "fired", 2 * 1440),
      event("ale_9", "alr_quiet", "resolved", 2 * 1440 - 5),
    ]);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists alerts with their status, threshold and recent fire/resolve events", async () => {
    const { status, body } = await get<Page<Alert>>("/v1/alerts?sort_by=name&sort_order=asc");
    expect(status).toBe(200);
    expect(body.data.map((a) => [a.id, a.status])).toEqual([
      ["alr_firing", "active"],
      ["alr_expired", "resolved"],
      ["alr_muted", "muted"],
      ["alr_quiet", "resolved"],
    ]);
    const firing = body.data[0];
    expect(firing).toMatchObject({ condition: { op: ">", threshold: 10 }, firingSeries: 1 });
    expect(firing?.recentEvents.map((e) => e.id)).toEqual([
      "ale_6",
      "ale_5",
      "ale_4",
      "ale_2",
      "ale_1",
    ]);
    expect(body.data[1]?.mutedUntil).toBeNull();
    expect(body.pagination).toMatchObject({ total: 4, page: 1 });
  });

  it("filters by status and severity, pages, sorts and narrows to a window", async () => {
    const ids = async (query: string) =>
      (await get<Page<Alert>>(`/v1/alerts?${query}`)).body.data.map((a) => a.id);
    expect(await ids("status=active")).toEqual(["alr_firing"]);
    expect(await ids("status=muted")).toEqual(["alr_muted"]);
    expect((await ids("status=resolved")).sort()).toEqual(["alr_expired", "alr_quiet"]);
    expect(await ids("severity=critical")).toEqual(["alr_firing"]);
    expect(await ids("sort_by=severity&sort_order=asc&limit=1")).toEqual(["alr_quiet"]);
    expect(await ids("sort_by=severity&sort_order=desc&limit=1")).toEqual(["alr_firing"]);
    // Rules that fired or resolved in the last hour, with only those events.
    const windowed = await get<Page<Alert>>("/v1/alerts?time_range=1h&sort_by=name&sort_order=asc");
    expect(windowed.body.data.map((a) => a.id)).toEqual(["alr_firing", "alr_muted"]);
    expect(windowed.body.data[0]?.recentEvents.map((e) => e.id)).toEqual([
      "ale_6",
      "ale_5",
      "ale_4",
    ]);
    const bad = await get<{ errors: { field: string }[] }>("/v1/alerts?status=firing");
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.field)).toEqual(["status"]);
    expect((await get<unknown>("/v1/alerts?sort_by=value")).status).toBe(400);
  });

  it("shows one alert's rule, configuration, series and last evaluation", async () => {
    const { status, body } = await get<Record<string, unknown>>("/v1/alerts/alr_firing");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: "alr_firing",
      status: "active",
      query: "SELECT service_name AS service, count() AS value FROM logs GROUP BY service",
      interval: "1m",
      forSeconds: 60,
      channels: [],
      series: [{ seriesKey: '{"service":"api"}', state: "firing", lastValue: 12 }],
      lastEvaluation: { durationMs: 4, value: 3, series: 1, error: null },
    });
    expect((body.recentEvents as { id: string }[]).map((e) => e.id).slice(0, 3)).toEqual([
      "ale_6",
      "ale_5",
      "ale_4",
    ]);
    expect((await get<unknown>("/v1/alerts/alr_nope")).status).toBe(404);
    // dashboard is its own route, not an alert id.
    expect((await get<{ fires: number }>("/v1/alerts/dashboard")).body.fires).toBeTypeOf("number");
  });

  it("aggregates fires over time, by severity, noisiest rules and mean time to resolve", async () => {
    const { status, body } = await get<{
      fires: number;
      resolves: number;
      firingNow: number;
      rules: Record<string, number>;
      meanTimeToResolveMs: number | null;
      bucketSeconds: number;
      series: { time: string; fires: number; resolves: number }[];
      firesBySeverity: Record<string, number>;
      topRules: { id: string; fires: number }[];
    }>("/v1/alerts/dashboard?time_range=24h");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      fires: 4,
      resolves: 2,
      firingNow: 2,
      rules: { total: 4, active: 1, muted: 1 },
      meanTimeToResolveMs: 15 * 60_000,
      // By the severity each fire had: alr_firing's first fire was high.
      firesBySeverity: { low: 0, medium: 0, high: 2, critical: 2 },
      topRules: [
        { id: "alr_firing", fires: 3 },
        { id: "alr_muted", fires: 1 },
      ],
    });
    // Every bucket of the window, the first one aligned down to the step.
    expect(body.series.length - (24 * 3600) / body.bucketSeconds).toBeOneOf([0, 1]);
    expect(body.series.reduce((n, b) => n + b.fires, 0)).toBe(4);
    expect(body.series.filter((b) => b.fires === 0).length).toBeGreaterThan(0);
    const week = await get<{ fires: number; resolves: number }>(
      "/v1/alerts/dashboard?time_range=7d",
    );
    expect(week.body).toMatchObject({ fires: 5, resolves: 3 });
    const empty = await get<{ meanTimeToResolveMs: null; fires: number }>(
      "/v1/alerts/dashboard?time_range=5m",
    );
    expect(empty.body).toMatchObject({ fires: 0, meanTimeToResolveMs: null });
  });

  it("with a window, lists a rule firing since before it, with the fire that opened it", async () => {
    const { repos } = service.deps.meta;
    // Fired three hours ago and firing ever since: active all through the last hour.
    await repos.alertRules.insert(rule("alr_long", "Long firing", { state: "firing" }));
    // Fired and resolved before the last hour: not active in it.
    await repos.alertRules.insert(rule("alr_earlier", "Earlier"));
    await repos.alertSeries.upsert({
      ruleId: "alr_long",
      seriesKey: JSON.stringify({ service: "db" }),
      labels: { service: "db" },
      state: "firing",
      pendingSince: null,
      firedAt: ago(180),
      lastValue: 12,
      lastEvaluatedAt: ago(1),
      lastNotifiedAt: ago(180),
      incidentId: null,
    });
    await repos.alertEvents.insertMany([
      // An older cycle of the same series, closed long before the window.
      event("ale_l1", "alr_long", "fired", 300, "db"),
      event("ale_l2", "alr_long", "resolved", 290, "db"),
      event("ale_l3", "alr_long", "fired", 180, "db"),
      event("ale_e1", "alr_earlier", "fired", 180),
      event("ale_e2", "alr_earlier", "resolved", 120),
    ]);
    const windowed = await get<Page<Alert>>("/v1/alerts?time_range=1h&sort_by=name&sort_order=asc");
    expect(windowed.body.data.map((a) => a.id)).toEqual(["alr_firing", "alr_long", "alr_muted"]);
    expect(windowed.body.pagination.total).toBe(3);
    // The fire still open when the window began, not the closed cycle before it.
    expect(windowed.body.data[1]?.recentEvents.map((e) => e.id)).toEqual(["ale_l3"]);
    // alr_firing's fire at -120 was resolved at -100: only its events in the window.
    expect(windowed.body.data[0]?.recentEvents.map((e) => e.id)).toEqual([
      "ale_6",
      "ale_5",
      "ale_4",
    ]);
    // A past window: alr_earlier was active from -180 to -120.
    const from = ago(150);
    const to = ago(140);
    const past = await get<Page<Alert>>(
      `/v1/alerts?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&sort_by=name&sort_order=asc`,
    );
    expect(past.body.data.map((a) => a.id)).toEqual(["alr_earlier", "alr_long"]);
    expect(past.body.data[0]?.recentEvents.map((e) => e.id)).toEqual(["ale_e1"]);
    await repos.alertRules.delete("alr_long");
    await repos.alertRules.delete("alr_earlier");
  });

  it("shows a rule whose evaluations fail as failing, with the reason, and filters on it", async () => {
    const { repos } = service.deps.meta;
    // Its query fails since 20 minutes: no series fires, so the spec's status is resolved.
    await repos.alertRules.insert(
      rule("alr_broken", "Broken query", {
        state: "error",
        lastError: "Unknown column 'duration' in table traces",
        failures: 3,
        failingSince: ago(20),
      }),
    );
    type Failing = Alert & { failing: { reason: string; failures: number; since: string } | null };
    const all = await get<Page<Failing>>("/v1/alerts?sort_by=name&sort_order=asc");
    const broken = all.body.data.find((a) => a.id === "alr_broken");
    expect(broken).toMatchObject({
      status: "resolved",
      state: "error",
      failing: {
        reason: "Unknown column 'duration' in table traces",
        failures: 3,
        since: ago(20),
      },
    });
    expect(all.body.data.find((a) => a.id === "alr_quiet")?.failing).toBeNull();
    const ids = async (query: string) =>
      (await get<Page<Failing>>(`/v1/alerts?${query}`)).body.data.map((a) => a.id);
    expect(await ids("failing=true")).toEqual(["alr_broken"]);
    expect(await ids("failing=false")).not.toContain("alr_broken");
    expect(await ids("status=resolved&failing=true")).toEqual(["alr_broken"]);
    const bad = await get<{ errors: { field: string }[] }>("/v1/alerts?failing=yes");
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.field)).toEqual(["failing"]);
    // The detail and the dashboard's counts say so too.
    expect((await get<Failing>("/v1/alerts/alr_broken")).body.failing?.reason).toMatch(
      /Unknown column/,
    );
    const dashboard = await get<{ rules: Record<string, number> }>("/v1/alerts/dashboard");
    expect(dashboard.body.rules.failing).toBe(1);
    await repos.alertRules.delete("alr_broken");
  });

  it("another project's key sees none of these", async () => {
    const other = await addProjectWithKey(
      service,
      (await service.deps.meta.repos.projects.findById(projectId))?.orgId ?? "",
      "prj_alerts_other",
    );
    expect((await get<Page<Alert>>("/v1/alerts", other.key)).body.data).toEqual([]);
    expect((await get<unknown>("/v1/alerts/alr_firing", other.key)).status).toBe(404);
    expect((await get<{ fires: number }>("/v1/alerts/dashboard", other.key)).body.fires).toBe(0);
  });
});
