import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import type { Session } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/** Previews of saved and draft rules (nothing recorded), and a rule's events. */
describe("alert rule previews and events", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let projectId: string;
  const base = () => `/api/projects/${projectId}/alert-rules`;
  const create = (body: Record<string, unknown>) => createRule(owner, base(), body);

  beforeAll(async () => {
    ({ service, owner, viewer, projectId } = await startAlertRulesService(dir.path));
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
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
});
