import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSourceIncident } from "../src/incidents/source-incidents.js";
import {
  createRule,
  fields,
  json,
  type Page,
  type Preview,
  type Rule,
  refused,
  rule,
  startAlertRulesService,
} from "./helpers/alert-rules-api.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { OWNER, type Session } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/** The alert rule management API (docs/design.md §4) over HTTP: create, read, change, mute, delete. */
describe("alert rule management API", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let projectId: string;
  let orgId: string;
  const base = () => `/api/projects/${projectId}/alert-rules`;
  const create = (body: Record<string, unknown>) => createRule(owner, base(), body);

  beforeAll(async () => {
    ({ service, owner, viewer, outsider, projectId, orgId } = await startAlertRulesService(
      dir.path,
    ));
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

  it("pages the management list in SQL, oldest first", async () => {
    const all = await json<Page<Rule>>(await owner.get(`${base()}?limit=1000`));
    const second = await json<Page<Rule>>(await owner.get(`${base()}?limit=2&page=2`));
    expect(second.data.map((r) => r.id)).toEqual(all.data.slice(2, 4).map((r) => r.id));
    expect(second.pagination).toMatchObject({ page: 2, limit: 2, total: all.pagination.total });
  });
});
