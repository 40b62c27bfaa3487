import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createRule,
  fields,
  json,
  type Page,
  refused,
  rule,
  startAlertRulesService,
} from "./helpers/alert-rules-api.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/** What an alert rule must pass to be saved: fields, query, thresholds, names, the TQL slots. */
describe("alert rule validation", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;
  let orgId: string;
  const base = () => `/api/projects/${projectId}/alert-rules`;
  const create = (body: Record<string, unknown>) => createRule(owner, base(), body);

  beforeAll(async () => {
    ({ service, owner, projectId, orgId } = await startAlertRulesService(dir.path));
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
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
