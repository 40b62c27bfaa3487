import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSourceIncident } from "../src/incidents/source-incidents.js";
import { logsBody, sendOtlp } from "./helpers/otlp.js";
import { addKey, addProjectWithKey } from "./helpers/projects.js";
import { OWNER, type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

interface Problem {
  status: number;
  detail: string;
  position?: { line: number; column: number };
  errors?: { field: string; message: string }[];
}
interface Rule {
  id: string;
  name: string;
  severity: string;
  query: string;
  preset: { kind: string; params: Record<string, unknown> } | null;
  condition: { op: string; threshold: number };
  interval: string;
  forSeconds: number;
  noData: string;
  renotifyMinutes: number;
  openIncident: boolean;
  messageTemplate: string;
  channelIds: string[];
  status: string;
  state: string;
  muted: boolean;
  mutedUntil: string | null;
  firingSeries: number;
  lastEvaluation: unknown;
  unit: string | null;
  warnings: { code: string; message: string }[];
}
interface Preview {
  labels: string[];
  noData: boolean;
  series: {
    labels: Record<string, string>;
    value: number | null;
    breaching: boolean | string;
    state: string;
    nextState: string;
    transition: string;
    message: string;
  }[];
}
interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
}

/** The alert rule management API (docs/design.md §4) over HTTP, on the real engine and metadata store. */
describe("alert rule management API", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let projectId: string;
  let orgId: string;

  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
  const base = () => `/api/projects/${projectId}/alert-rules`;
  const rule = (overrides: Record<string, unknown> = {}) => ({
    name: "Errors by service",
    query:
      "SELECT service_name AS service, count() AS value FROM logs WHERE level = 'error' AND timestamp > now() - INTERVAL 1 HOUR GROUP BY service",
    condition: { op: ">", threshold: 2 },
    ...overrides,
  });
  const create = async (body: Record<string, unknown>): Promise<Rule> => {
    const response = await owner.post(base(), body);
    const created = await json<Rule & Problem>(response);
    if (response.status !== 201)
      throw new Error(`create ${response.status}: ${JSON.stringify(created)}`);
    return created;
  };
  const refused = async (response: Response, status = 400) => {
    const problem = await json<Problem>(response);
    expect(response.status, JSON.stringify(problem)).toBe(status);
    return problem;
  };
  const fields = (problem: Problem) => (problem.errors ?? []).map((e) => e.field);

  beforeAll(async () => {
    ({ service, owner, viewer, outsider, projectId, orgId } = await startWithRoles(dir.path, {
      // The stored state the tests check is theirs: no scheduled evaluation changes it meanwhile.
      VIGIL_ALERTS_ENABLED: "false",
    }));
    // Error logs in two services (3 in api, 1 in web), a minute old.
    const key = await addKey(service, projectId, { name: "ingest", role: "full" });
    const t = Date.now() - 60_000;
    const errors = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        timeMs: t + i,
        severityNumber: 17,
        body: `payment timeout ${i}`,
      }));
    await sendOtlp(service, key, "logs", logsBody("api", errors(3)));
    await sendOtlp(service, key, "logs", logsBody("web", errors(1)));
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("creates a rule with the defaults, lists it and gets it", async () => {
    const created = await create(rule());
    expect(created.id).toMatch(/^alr_/);
    expect(created).toMatchObject({
      severity: "medium",
      preset: null,
      interval: "1m",
      forSeconds: 0,
      noData: "ok",
      renotifyMinutes: 0,
      openIncident: false,
      channelIds: [],
      status: "resolved",
      state: "ok",
      muted: false,
      mutedUntil: null,
      firingSeries: 0,
      lastEvaluation: null,
    });
    expect(await json<Rule>(await owner.get(`${base()}/${created.id}`))).toEqual(created);
    const list = await json<Page<Rule>>(await viewer.get(base()));
    expect(list.data.map((r) => r.id)).toContain(created.id);
    expect(await refused(await owner.post(base(), rule()), 409)).toMatchObject({ status: 409 });
  });

  it("stores a preset with its parameters and evaluates the compiled query", async () => {
    const created = await create({
      name: "API error logs",
      preset: {
        kind: "log_count",
        params: { level: "error", search: "timeout", groupBy: "service" },
      },
      condition: { op: ">=", threshold: 1 },
    });
    expect(created.preset).toEqual({
      kind: "log_count",
      params: { window: "5m", level: "error", search: "timeout", groupBy: "service" },
    });
    expect(created.query).toBe(
      "SELECT service_name AS service, count() AS value FROM logs WHERE timestamp >= now() - INTERVAL 5 MINUTE AND level = 'error' AND lower(message) LIKE '%timeout%' GROUP BY service",
    );
    const preview = await json<Preview>(await owner.post(`${base()}/${created.id}/preview`));
    expect(preview.labels).toEqual(["service"]);
    expect(preview.series.map((s) => [s.labels.service, s.value, s.nextState]).sort()).toEqual([
      ["api", 3, "firing"],
      ["web", 1, "firing"],
    ]);
  });

  it("lists the presets with their parameters as JSON Schema, for members of the project", async () => {
    const presets = await json<
      Page<{
        kind: string;
        title: string;
        params: {
          type: string;
          properties: Record<string, { enum?: string[]; default?: unknown }>;
          required?: string[];
        };
      }>
    >(await viewer.get(`${base()}/presets`));
    expect(presets.data.map((p) => p.kind)).toEqual([
      "error_rate",
      "latency_percentile",
      "log_count",
      "error_group_occurrences",
      "metric_aggregate",
    ]);
    const metric = presets.data.find((p) => p.kind === "metric_aggregate");
    expect(metric?.title).toBe("Metric aggregate");
    expect(metric?.params.type).toBe("object");
    // Input side: only the parameter without a default is required.
    expect(metric?.params.required).toEqual(["metric"]);
    expect(metric?.params.properties.window).toMatchObject({ default: "5m" });
    expect(metric?.params.properties.aggregation?.enum).toContain("percentile");
    expect((await outsider.get(`${base()}/presets`)).status).toBe(404);
  });

  it("refuses bad input with 400s naming the field", async () => {
    const syntax = await refused(
      await owner.post(base(), rule({ query: "SELECT count( AS value FROM logs" })),
    );
    expect(fields(syntax)).toEqual(["query"]);
    expect(syntax.position).toMatchObject({ line: 1 });
    const unknown = await refused(
      await owner.post(base(), rule({ query: "SELECT count() AS value FROM nope" })),
    );
    expect(fields(unknown)).toEqual(["query"]);
    const noValue = await refused(
      await owner.post(base(), rule({ query: "SELECT count() AS n FROM logs" })),
    );
    expect(fields(noValue)).toEqual(["query"]);
    expect(noValue.detail).toContain("value");
    const text = await refused(
      await owner.post(base(), rule({ query: "SELECT 'high' AS value FROM logs" })),
    );
    expect(fields(text)).toEqual(["query"]);
    expect(text.detail).toContain("numeric");
    const writes = await refused(await owner.post(base(), rule({ query: "DROP TABLE logs" })));
    expect(fields(writes)).toEqual(["query"]);
    expect(fields(await refused(await owner.post(base(), rule({ query: undefined }))))).toEqual([
      "query",
    ]);
    expect(
      fields(
        await refused(await owner.post(base(), rule({ condition: { op: "~", threshold: 1 } }))),
      ),
    ).toEqual(["condition.op"]);
    expect(fields(await refused(await owner.post(base(), rule({ interval: "2m" }))))).toEqual([
      "interval",
    ]);
    expect(fields(await refused(await owner.post(base(), rule({ forSeconds: 90_000 }))))).toEqual([
      "forSeconds",
    ]);
    expect(
      fields(await refused(await owner.post(base(), rule({ messageTemplate: "{{labels.zone}}" })))),
    ).toEqual(["messageTemplate"]);
    expect(
      fields(
        await refused(
          await owner.post(
            base(),
            rule({ query: undefined, preset: { kind: "error_rate", params: { window: "2d" } } }),
          ),
        ),
      ),
    ).toEqual(["preset.params.window"]);
    expect(
      fields(
        await refused(
          await owner.post(base(), rule({ query: undefined, preset: { kind: "cpu", params: {} } })),
        ),
      ),
    ).toEqual(["preset.kind"]);
    // A channel of another project of the same organization.
    const other = await addProjectWithKey(service, orgId, "prj_alr_other");
    const foreign = await json<{ id: string }>(
      await owner.post(`/api/projects/${other.projectId}/channels`, {
        name: "elsewhere",
        type: "webhook",
        settings: {},
      }),
    );
    const channel = await refused(
      await owner.post(base(), rule({ name: "c", channelIds: [foreign.id] })),
    );
    expect(fields(channel)).toEqual(["channelIds.0"]);
  });

  it("lets viewers read only, and hides rules from other organizations and projects", async () => {
    const created = await create(rule({ name: "Roles" }));
    expect((await viewer.get(`${base()}/${created.id}`)).status).toBe(200);
    expect((await viewer.get(`${base()}/${created.id}/events`)).status).toBe(200);
    expect((await viewer.post(base(), rule({ name: "Viewer's" }))).status).toBe(403);
    expect((await viewer.patch(`${base()}/${created.id}`, { name: "x" })).status).toBe(403);
    expect((await viewer.post(`${base()}/${created.id}/mute`)).status).toBe(403);
    expect((await viewer.post(`${base()}/${created.id}/preview`)).status).toBe(403);
    expect((await viewer.delete(`${base()}/${created.id}`)).status).toBe(403);
    expect((await outsider.get(`${base()}/${created.id}`)).status).toBe(404);
    expect((await outsider.get(base())).status).toBe(404);
    expect((await outsider.delete(`${base()}/${created.id}`)).status).toBe(404);
    // The rule seen through another project's path does not exist there.
    const other = await addProjectWithKey(service, orgId, "prj_alr_path");
    expect(
      (await owner.get(`/api/projects/${other.projectId}/alert-rules/${created.id}`)).status,
    ).toBe(404);
    // A cross-site write carrying the session cookie is refused (CSRF rule of /api).
    const crossSite = await service.fetch(base(), {
      method: "POST",
      headers: {
        cookie: owner.cookie,
        origin: "https://evil.example",
        "content-type": "application/json",
      },
      body: JSON.stringify(rule({ name: "csrf" })),
    });
    expect(crossSite.status).toBe(403);
  });

  it("patches fields, swaps a query for a preset, and keeps the rule's state", async () => {
    const created = await create(rule({ name: "Patch me" }));
    await service.deps.meta.repos.alertRules.recordEvaluation(created.id, {
      state: "firing",
      lastEvaluatedAt: new Date().toISOString(),
      lastDurationMs: 3,
      lastValue: 3,
      lastSeries: 2,
      lastError: null,
      failures: 0,
      failingSince: null,
    });
    const patched = await json<Rule>(
      await owner.patch(`${base()}/${created.id}`, {
        name: "Patched",
        condition: { op: "<", threshold: 1 },
      }),
    );
    expect(patched).toMatchObject({
      name: "Patched",
      condition: { op: "<", threshold: 1 },
      query: created.query,
      state: "firing",
      lastEvaluation: { value: 3, series: 2 },
    });
    const preset = await json<Rule>(
      await owner.patch(`${base()}/${created.id}`, { preset: { kind: "error_rate", params: {} } }),
    );
    expect(preset.preset?.kind).toBe("error_rate");
    expect(preset.query).toContain("FROM http_requests");
    const back = await json<Rule>(
      await owner.patch(`${base()}/${created.id}`, { query: "SELECT 1 AS value" }),
    );
    expect(back).toMatchObject({ preset: null, query: "SELECT 1 AS value" });
    const bad = await refused(
      await owner.patch(`${base()}/${created.id}`, { query: "SELECT 1 AS v" }),
    );
    expect(fields(bad)).toEqual(["query"]);
    expect(fields(await refused(await owner.patch(`${base()}/${created.id}`, {})))).toEqual([
      "body",
    ]);
  });

  it("mutes indefinitely or until a time, refuses a past time, and unmutes", async () => {
    const created = await create(rule({ name: "Mute me" }));
    const muted = await json<Rule>(await owner.post(`${base()}/${created.id}/mute`));
    expect(muted).toMatchObject({ status: "muted", muted: true, mutedUntil: null });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const timed = await json<Rule>(await owner.post(`${base()}/${created.id}/mute`, { until }));
    expect(timed).toMatchObject({ status: "muted", mutedUntil: until });
    const past = await refused(
      await owner.post(`${base()}/${created.id}/mute`, { until: "2020-01-01T00:00:00Z" }),
    );
    expect(fields(past)).toEqual(["until"]);
    expect(
      fields(
        await refused(await owner.post(`${base()}/${created.id}/mute`, { until: "tomorrow" })),
      ),
    ).toEqual(["until"]);
    // No body at all mutes indefinitely too.
    const bare = await service.fetch(`${base()}/${created.id}/mute`, {
      method: "POST",
      headers: { cookie: owner.cookie, origin: service.url },
    });
    expect(await json<Rule>(bare)).toMatchObject({ status: "muted", mutedUntil: null });
    const unmuted = await json<Rule>(await owner.post(`${base()}/${created.id}/unmute`));
    expect(unmuted).toMatchObject({ status: "resolved", muted: false, mutedUntil: null });
  });

  it("previews the state each series would take from the stored states and `for`", async () => {
    const created = await create(
      rule({
        name: "Preview",
        forSeconds: 300,
        messageTemplate: "{{labels.service}}: {{value}} > {{threshold}}",
      }),
    );
    const { alertSeries } = service.deps.meta.repos;
    // web is firing but now has 1 error (≤ 2): it resolves; a series gone from the result resolves too.
    for (const [key, labels] of [
      ['{"service":"web"}', { service: "web" }],
      ['{"service":"gone"}', { service: "gone" }],
    ] as const)
      await alertSeries.upsert({
        ruleId: created.id,
        seriesKey: key,
        labels,
        state: "firing",
        pendingSince: null,
        firedAt: new Date(Date.now() - 600_000).toISOString(),
        lastValue: 5,
        lastEvaluatedAt: null,
        lastNotifiedAt: null,
        incidentId: null,
      });
    const preview = await json<Preview>(await owner.post(`${base()}/${created.id}/preview`));
    const byService = Object.fromEntries(preview.series.map((s) => [s.labels.service, s]));
    expect(byService.api).toMatchObject({
      value: 3,
      breaching: true,
      state: "ok",
      nextState: "pending",
      transition: "pending",
      message: "api: 3 > 2",
    });
    expect(byService.web).toMatchObject({
      value: 1,
      state: "firing",
      nextState: "ok",
      transition: "resolved",
    });
    expect(byService.gone).toMatchObject({ value: null, nextState: "ok", transition: "resolved" });
    // Nothing was recorded.
    expect((await alertSeries.list(created.id)).map((s) => s.state)).toEqual(["firing", "firing"]);
    const rules = await json<Rule>(await owner.get(`${base()}/${created.id}`));
    expect(rules).toMatchObject({ lastEvaluation: null, status: "active", firingSeries: 2 });

    const draft = await json<Preview>(
      await owner.post(
        `${base()}/preview`,
        rule({
          query: "SELECT count() AS value FROM logs WHERE level = 'fatal'",
          noData: "alerting",
        }),
      ),
    );
    expect(draft).toMatchObject({ labels: [], noData: false });
    expect(draft.series).toEqual([
      expect.objectContaining({ labels: {}, value: 0, breaching: false, nextState: "ok" }),
    ]);
    const empty = await json<Preview>(
      await owner.post(
        `${base()}/preview`,
        rule({
          query:
            "SELECT service_name AS s, count() AS value FROM logs WHERE level = 'fatal' GROUP BY s",
          noData: "alerting",
        }),
      ),
    );
    expect(empty.noData).toBe(true);
    expect(empty.series).toEqual([
      expect.objectContaining({ labels: {}, value: null, breaching: true, nextState: "firing" }),
    ]);
    expect(
      fields(await refused(await owner.post(`${base()}/preview`, rule({ query: "SELECT 1" })))),
    ).toEqual(["query"]);
  });

  it("lists a rule's events newest first, by page and kind", async () => {
    const created = await create(rule({ name: "Events" }));
    const t0 = Date.now() - 3_600_000;
    await service.deps.meta.repos.alertEvents.insertMany(
      Array.from({ length: 5 }, (_, i) => ({
        id: `ale_evt${i}`,
        ruleId: created.id,
        projectId,
        seriesKey: '{"service":"api"}',
        labels: { service: "api" },
        kind: i % 2 === 0 ? ("fired" as const) : ("resolved" as const),
        severity: "medium" as const,
        value: 3 + i,
        threshold: 2,
        at: new Date(t0 + i * 60_000).toISOString(),
        notified: true,
        incidentId: null,
        message: `event ${i}`,
      })),
    );
    const page = await json<Page<{ id: string; kind: string }>>(
      await viewer.get(`${base()}/${created.id}/events?limit=2&page=1`),
    );
    expect(page.data.map((e) => e.id)).toEqual(["ale_evt4", "ale_evt3"]);
    expect(page.pagination).toMatchObject({ total: 5, hasMore: true });
    const fired = await json<Page<{ id: string }>>(
      await owner.get(`${base()}/${created.id}/events?kind=fired`),
    );
    expect(fired.data.map((e) => e.id)).toEqual(["ale_evt4", "ale_evt2", "ale_evt0"]);
    expect((await owner.get(`${base()}/${created.id}/events?kind=nope`)).status).toBe(400);
  });

  it("takes an error-rate threshold in percent, as the Overview shows it, and refuses one no value can reach", async () => {
    const errorRate = (threshold: number, op = ">") =>
      rule({
        name: `Error rate ${op} ${threshold}`,
        query: undefined,
        preset: { kind: "error_rate", params: {} },
        condition: { op, threshold },
      });
    // 5 is 5%: the preset's query gives percent, so the rule can fire.
    const five = await create(errorRate(5));
    expect(five).toMatchObject({ unit: "percent", condition: { op: ">", threshold: 5 } });
    expect(five.query).toContain("100 * sum(error_count) / sum(request_count)");
    // Past 100% (or below 0%) the rule could never fire: 400 naming the threshold.
    for (const [threshold, op] of [
      [100, ">"],
      [500, ">"],
      [-1, "<="],
      [0, "<"],
    ] as const) {
      const problem = await refused(await owner.post(base(), errorRate(threshold, op)));
      expect(fields(problem), `${op} ${threshold}`).toEqual(["condition.threshold"]);
      expect(problem.errors?.[0]?.message).toMatch(/percentage, from 0 to 100.*never hold/);
    }
    // The preview refuses it alike, and so does a change to a saved rule.
    expect(fields(await refused(await owner.post(`${base()}/preview`, errorRate(101))))).toEqual([
      "condition.threshold",
    ]);
    expect(
      fields(
        await refused(
          await owner.patch(`${base()}/${five.id}`, { condition: { op: ">=", threshold: 150 } }),
        ),
      ),
    ).toEqual(["condition.threshold"]);
    // Counts are whole and never negative; latency is in ms.
    const logs = (condition: { op: string; threshold: number }) =>
      owner.post(
        base(),
        rule({
          name: `Logs ${condition.op} ${condition.threshold}`,
          query: undefined,
          preset: { kind: "log_count", params: {} },
          condition,
        }),
      );
    expect(fields(await refused(await logs({ op: "<", threshold: 0 })))).toEqual([
      "condition.threshold",
    ]);
    expect(fields(await refused(await logs({ op: "=", threshold: 2.5 })))).toEqual([
      "condition.threshold",
    ]);
    expect((await logs({ op: ">", threshold: 1000 })).status).toBe(201);
    const latency = await create(
      rule({
        name: "Slow",
        query: undefined,
        preset: { kind: "latency_percentile", params: {} },
        condition: { op: ">", threshold: 800 },
      }),
    );
    expect(latency.unit).toBe("ms");
    // A TQL query: refused only where its value's type bounds it (count() is unsigned).
    expect(
      fields(
        await refused(
          await owner.post(
            base(),
            rule({ name: "Below zero", condition: { op: "<", threshold: 0 } }),
          ),
        ),
      ),
    ).toEqual(["condition.threshold"]);
    const unbounded = await create(
      rule({
        name: "Unbounded",
        query:
          "SELECT avg(duration_ms) - 100 AS value FROM traces WHERE timestamp > now() - INTERVAL 5 MINUTE",
        condition: { op: "<", threshold: -50 },
      }),
    );
    expect(unbounded.unit).toBeNull();
    // The presets say their unit and bounds, for the editor to show beside the threshold.
    const presets = await json<Page<{ kind: string; unit: unknown }>>(
      await owner.get(`${base()}/presets`),
    );
    expect(Object.fromEntries(presets.data.map((p) => [p.kind, p.unit]))).toMatchObject({
      error_rate: { name: "percent", symbol: "%", min: 0, max: 100 },
      latency_percentile: { name: "ms", symbol: "ms", min: 0 },
      log_count: { name: "count", min: 0, integer: true },
      metric_aggregate: null,
    });
    for (const r of [five, latency, unbounded])
      expect((await owner.delete(`${base()}/${r.id}`)).status).toBe(204);
  });

  it("saves a rule without a channel, with a warning that it notifies no one", async () => {
    const silent = await create(rule({ name: "Silent" }));
    expect(silent.channelIds).toEqual([]);
    expect(silent.warnings).toEqual([
      { code: "no_channels", message: expect.stringMatching(/notifies no channel/) },
    ]);
    // The warning stays on the rule wherever it is shown, until a channel is added.
    expect((await json<Rule>(await owner.get(`${base()}/${silent.id}`))).warnings).toEqual(
      silent.warnings,
    );
    const channel = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/channels`, {
        name: "on-call",
        type: "webhook",
        settings: {},
      }),
    );
    const heard = await json<Rule>(
      await owner.patch(`${base()}/${silent.id}`, { channelIds: [channel.id] }),
    );
    expect(heard.warnings).toEqual([]);
    expect((await owner.delete(`${base()}/${silent.id}`)).status).toBe(204);
    expect((await owner.delete(`/api/projects/${projectId}/channels/${channel.id}`)).status).toBe(
      204,
    );
  });

  it("refuses to delete a channel a rule uses (409 naming it), then deletes the rule", async () => {
    const channel = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/channels`, {
        name: "alerts",
        type: "webhook",
        settings: {},
      }),
    );
    const created = await create(
      rule({ name: "Notifying rule", channelIds: [channel.id, channel.id] }),
    );
    expect(created.channelIds).toEqual([channel.id]);
    const conflict = await refused(
      await owner.delete(`/api/projects/${projectId}/channels/${channel.id}`),
      409,
    );
    expect(conflict.detail).toContain("alert rule 'Notifying rule'");
    expect((await owner.delete(`${base()}/${created.id}`)).status).toBe(204);
    expect((await owner.get(`${base()}/${created.id}`)).status).toBe(404);
    expect((await owner.delete(`/api/projects/${projectId}/channels/${channel.id}`)).status).toBe(
      204,
    );
  });

  it("resolves a deleted rule's open incident, keeping it with an entry by the user", async () => {
    const created = await create(rule({ name: "Incident rule" }));
    const { meta, domain } = service.deps;
    const opened = await meta.transaction((tx) =>
      openSourceIncident(tx, domain, {
        projectId,
        source: "alert",
        sourceId: created.id,
        title: "Errors by service firing",
        severity: "high",
        cause: null,
        at: new Date().toISOString(),
        event: { type: "alert_fired", message: "3 > 2" },
      }),
    );
    expect((await owner.delete(`${base()}/${created.id}`)).status).toBe(204);
    const incident = await meta.repos.incidents.findById(opened.incident.id);
    expect(incident).toMatchObject({ status: "resolved", sourceId: created.id });
    expect(await meta.repos.incidents.findOpenBySource("alert", created.id)).toBeUndefined();
    const timeline = await meta.repos.incidents.listEvents([opened.incident.id]);
    const user = await meta.repos.users.findByEmail(OWNER.email);
    expect(timeline.slice(-2)).toMatchObject([
      {
        type: "alert_resolved",
        actorKind: "user",
        actorId: user?.id,
        message: "Alert rule 'Incident rule' was deleted",
      },
      { type: "resolved", actorKind: "user" },
    ]);
  });

  it("refuses a `__proto__` label column (400 naming query) and a duplicate name (409 naming name)", async () => {
    const proto = await refused(
      await owner.post(
        base(),
        rule({
          name: "Proto",
          query: "SELECT service_name AS __proto__, count() AS value FROM logs GROUP BY __proto__",
        }),
      ),
    );
    expect(fields(proto)).toEqual(["query"]);
    expect(proto.detail).toContain("'__proto__' cannot name a label column");
    await create(rule({ name: "Unique name" }));
    const duplicate = await refused(await owner.post(base(), rule({ name: "Unique name" })), 409);
    expect(fields(duplicate)).toEqual(["name"]);
    expect(duplicate.detail).toContain("rule named 'Unique name' already exists");
    const other = await create(rule({ name: "Other name" }));
    const renamed = await refused(
      await owner.patch(`${base()}/${other.id}`, { name: "Unique name" }),
      409,
    );
    expect(fields(renamed)).toEqual(["name"]);
    expect((await owner.patch(`${base()}/${other.id}`, { name: "Other name" })).status).toBe(200);
  });

  it("refuses a metric preset grouped by a metrics column, naming preset.params.groupBy", async () => {
    const problem = await refused(
      await owner.post(base(), {
        name: "Shadowing",
        preset: {
          kind: "metric_aggregate",
          params: { metric: "queue.depth", groupBy: "metric_name" },
        },
        condition: { op: ">", threshold: 1 },
      }),
    );
    expect(fields(problem)).toEqual(["preset.params.groupBy"]);
  });

  it("checks queries within the project's TQL slots: busy is a 429 like /v1/tql", async () => {
    const { tql } = service.deps;
    const slow =
      "SELECT count() AS value FROM logs a CROSS JOIN logs b CROSS JOIN logs c CROSS JOIN logs d";
    // The default two slots taken (admission is synchronous), the column check is refused.
    const running = [tql.query(projectId, slow), tql.query(projectId, slow)];
    await expect(tql.columns(projectId, "SELECT count() AS value FROM logs")).rejects.toMatchObject(
      {
        code: "rate_limited",
      },
    );
    await Promise.allSettled(running);
    expect(await tql.columns(projectId, "SELECT count() AS value FROM logs")).toHaveLength(1);
  });

  it("pages the management list in SQL, oldest first", async () => {
    const all = await json<Page<Rule>>(await owner.get(`${base()}?limit=1000`));
    const second = await json<Page<Rule>>(await owner.get(`${base()}?limit=2&page=2`));
    expect(second.data.map((r) => r.id)).toEqual(all.data.slice(2, 4).map((r) => r.id));
    expect(second.pagination).toMatchObject({ page: 2, limit: 2, total: all.pagination.total });
  });
});

/** A project's rules are capped (alerts.maxRulesPerProject): each is an engine query per interval. */
describe("alert rules per project", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;

  beforeAll(async () => {
    ({ service, owner, projectId } = await startWithRoles(dir.path, {
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_ALERTS_MAX_RULES_PER_PROJECT: "2",
    }));
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const create = (project: string, name: string) =>
    owner.post(`/api/projects/${project}/alert-rules`, {
      name,
      query: "SELECT count() AS value FROM logs",
      condition: { op: ">", threshold: 2 },
    });

  it("refuses a rule beyond the cap with 409 naming the limit, and takes one again after a delete", async () => {
    const first = (await (await create(projectId, "one")).json()) as { id: string };
    expect((await create(projectId, "two")).status).toBe(201);
    const third = await create(projectId, "three");
    expect(third.status).toBe(409);
    expect(third.headers.get("content-type")).toContain("application/problem+json");
    expect(((await third.json()) as { detail: string }).detail).toMatch(
      /has 2 alert rules, the most it may have \(alerts\.maxRulesPerProject, VIGIL_ALERTS_MAX_RULES_PER_PROJECT: 2\)/,
    );
    // The cap is the project's: another project of the organization has its own.
    const other = (await (await owner.post("/api/projects", { name: "Second" })).json()) as {
      id: string;
    };
    expect((await create(other.id, "three")).status).toBe(201);
    expect((await owner.delete(`/api/projects/${projectId}/alert-rules/${first.id}`)).status).toBe(
      204,
    );
    expect((await create(projectId, "three")).status).toBe(201);
  });
});
