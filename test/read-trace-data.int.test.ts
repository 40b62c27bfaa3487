import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { Sql, whereClause } from "../src/read/sql.js";
import { readTraceData } from "../src/read/trace-data.js";
import { spansOf, withTraceRange } from "../src/read/trace-index.js";
import { readTraces } from "../src/read/trace-lookup.js";
import { getSpan } from "../src/read/trace-spans.js";
import { initialize } from "../src/setup/initialize.js";
import { TRACE_DATA } from "../src/telemetry/internal-tables.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { hexId, logsBody, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const NOW = Date.now();
const MIN = 60_000;
const T = hexId(0x7e1, 32);
const sid = (n: number) => hexId(n, 16);
const T0 = NOW - 40 * MIN;

interface Node {
  resource: unknown;
  children: Node[];
  [field: string]: unknown;
}

/** A trace tree with each span's resource inline: the order of `resources` follows the engine's row order. */
function withResources(answer: { status: number; body: Record<string, unknown> }) {
  const resources = answer.body.resources as unknown[] | undefined;
  if (!resources) return answer;
  const inline = (node: Node): Node => ({
    ...node,
    resource: resources[node.resource as number],
    children: node.children.map(inline),
  });
  const { resources: _order, root, ...rest } = answer.body;
  return { ...answer, body: { ...rest, root: inline(root as Node) } };
}

/** `trace_data` (a trace's spans and errors, packed, filled by two views) and lookups through it. */
describe("trace lookups through trace_data", () => {
  const dir = makeTempDir();
  let service: TestService;
  let key: string;
  let otherKey: string;
  let projectId: string;
  let otherProject: string;
  const paths = [`/v1/traces/${T}`, `/v1/traces/${T}/spans`, `/v1/traces/${T}/spans/${sid(2)}`];

  const get = async (path: string, apiKey = key) => {
    const response = await service.fetch(path, { headers: { "x-api-key": apiKey } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const telemetry = () => service.deps.telemetry;
  /** Per project: the trace's spans and errors in trace_data, and the range of its spans. */
  const dataRows = () =>
    telemetry().query<{
      project_id: string;
      spans: number;
      errors: number;
      start: string;
      last: string;
    }>(
      `SELECT project_id, countIf(item = 'span') AS spans, countIf(item = 'error') AS errors,
              toUnixTimestamp64Milli(minIf(timestamp, item = 'span')) AS start,
              toUnixTimestamp64Milli(maxIf(timestamp, item = 'span')) AS last
       FROM ${telemetry().database}.trace_data WHERE trace_id = {t:String}
       GROUP BY project_id ORDER BY project_id`,
      { params: { t: T } },
    );

  beforeAll(async () => {
    service = await startTestService(dir.path);
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "index@example.com",
        password: "correct horse battery",
      },
    });
    key = setup.apiKey ?? "";
    projectId = setup.projectId;
    const other = await addProjectWithKey(service, setup.orgId, "prj_other_index");
    otherKey = other.key;
    otherProject = other.projectId;
    // One trace in two exports, its root last and 20 minutes after the first span; the same
    // trace id in another project, ten minutes earlier.
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("worker", [
        {
          traceId: T,
          spanId: sid(2),
          parentSpanId: sid(1),
          name: "charge",
          startMs: T0 + 5,
          durationMs: 30,
          error: true,
          events: [
            {
              name: "exception",
              timeMs: T0 + 30,
              attributes: { "exception.type": "CardDeclined", "exception.message": "declined" },
            },
          ],
        },
      ]),
    );
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [
        { traceId: T, spanId: sid(1), name: "POST /pay", startMs: T0, durationMs: 50 },
        {
          traceId: T,
          spanId: sid(3),
          parentSpanId: sid(1),
          name: "audit",
          startMs: T0 + 20 * MIN,
          durationMs: 7,
        },
      ]),
    );
    // An error log of the trace without a span: an error item of its own.
    await sendOtlp(
      service,
      key,
      "logs",
      logsBody("worker", [
        {
          timeMs: T0 + 40,
          severityNumber: 17,
          severityText: "ERROR",
          body: "ledger unreachable",
          traceId: T,
        },
      ]),
    );
    await sendOtlp(
      service,
      otherKey,
      "traces",
      tracesBody("elsewhere", [
        { traceId: T, spanId: sid(9), name: "other", startMs: T0 - 10 * MIN, durationMs: 1 },
      ]),
    );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("keeps each trace's spans and errors per project as they arrive", async () => {
    expect(await dataRows()).toEqual(
      [
        { project_id: projectId, spans: 3, errors: 2, start: T0, last: T0 + 20 * MIN },
        {
          project_id: otherProject,
          spans: 1,
          errors: 0,
          start: T0 - 10 * MIN,
          last: T0 - 10 * MIN,
        },
      ].sort((a, b) => a.project_id.localeCompare(b.project_id)),
    );
  });

  it("reads a trace in one statement when it has no errors, two when it has", async () => {
    const statements: string[] = [];
    const counting = {
      ...telemetry(),
      query: <T>(sql: string, options?: never) => {
        statements.push(sql);
        return telemetry().query<T>(sql, options);
      },
      queryCompact: (sql: string, options?: never) => {
        statements.push(sql);
        return telemetry().queryCompact(sql, options);
      },
    };
    const [mine] = await readTraces(counting, [{ projectId, traceId: T }]);
    expect(statements).toHaveLength(2);
    expect(mine?.rows).toHaveLength(3);
    expect(mine?.errorGroups.map((g) => [g.type, g.spanId, g.occurrences])).toEqual([
      ["CardDeclined", sid(2), 1],
      ["error", null, 1],
    ]);
    statements.length = 0;
    const [other] = await readTraces(counting, [{ projectId: otherProject, traceId: T }]);
    expect(statements).toHaveLength(1);
    expect(other?.rows.map((r) => r.span_id)).toEqual([sid(9)]);
    // One span: the same, the trace's start in the same statement.
    const read = { ...service.deps.read, telemetry: counting };
    const ctx = { deps: { ...service.deps.domain, read }, actor: { kind: "system" as const } };
    statements.length = 0;
    const failing = await getSpan({ ctx, projectId, traceId: T, spanId: sid(2) });
    expect(statements).toHaveLength(2);
    expect(failing).toMatchObject({ startOffsetMs: 5, errorGroups: [{ type: "CardDeclined" }] });
    statements.length = 0;
    expect(
      await getSpan({ ctx, projectId: otherProject, traceId: T, spanId: sid(9) }),
    ).toMatchObject({ errorGroups: [] });
    expect(statements).toHaveLength(1);
  });

  it("reads at most the limit of each kind, however the items lie", async () => {
    // 3 spans and 2 errors. One trace is read with a plain LIMIT of twice the limit, and again
    // per kind when that cuts; several traces per trace and kind from the start.
    const other = hexId(0x7e2, 32);
    for (const limit of [1, 2, 3, 4]) {
      const one = (await readTraceData(telemetry(), projectId, [T], { limit })).get(T);
      const many = (await readTraceData(telemetry(), projectId, [T, other], { limit })).get(T);
      for (const read of [one, many])
        expect([limit, read?.spans.length, read?.errors.length]).toEqual([
          limit,
          Math.min(3, limit),
          Math.min(2, limit),
        ]);
    }
  });

  it("narrows the span table's primary key to the trace's range", async () => {
    const sql = new Sql(telemetry(), projectId);
    const { trace, withClause } = withTraceRange(sql, T);
    const plan = await sql.query<{ explain: string }>(
      `EXPLAIN indexes = 1 ${withClause}
       SELECT span_id FROM ${sql.table("traces")} ${whereClause(sql, [spansOf(trace)])}`,
    );
    const text = plan.map((line) => line.explain).join("\n");
    const primaryKey = text.slice(text.indexOf("PrimaryKey"));
    expect(primaryKey).toMatch(/Condition: .*timestamp in/);
    const [spans] = await sql.query<{ n: string }>(
      `${withClause} SELECT count() AS n FROM ${sql.table("traces")} ${whereClause(sql, [spansOf(trace)])}`,
    );
    expect(Number(spans?.n)).toBe(3);
  });

  it("answers the same for a trace trace_data does not hold (stored before it existed)", async () => {
    const indexed = await Promise.all(paths.map((path) => get(path)));
    for (const answer of indexed) expect(answer.status).toBe(200);
    expect(indexed[0]?.body).toMatchObject({
      spanCount: 3,
      errorGroups: [{ type: "CardDeclined" }, { spanId: null, message: "ledger unreachable" }],
    });
    expect(indexed[2]?.body).toMatchObject({ startOffsetMs: 5, errorGroups: [{ spanId: sid(2) }] });
    await telemetry().command(`TRUNCATE TABLE ${telemetry().database}.trace_data`);
    expect(await dataRows()).toEqual([]);
    const fallback = await Promise.all(paths.map((path) => get(path)));
    expect(fallback.map(withResources)).toEqual(indexed.map(withResources));
    // The other project's trace of the same id stays its own.
    const other = await get(`/v1/traces/${T}`, otherKey);
    expect(other.body).toMatchObject({ spanCount: 1, rootService: "elsewhere", errorGroups: [] });
  });

  it("copies the last day at once when its views are created over existing data", async () => {
    const db = telemetry().database;
    for (const view of TRACE_DATA.views) await telemetry().command(`DROP VIEW ${db}.${view.name}`);
    await telemetry().command(`TRUNCATE TABLE ${db}.trace_data`);
    await ensureTelemetrySchema(telemetry(), { retentionDays: 30 });
    expect((await dataRows()).map((r) => [r.project_id, r.spans, r.errors]).sort()).toEqual(
      [
        [projectId, 3, 2],
        [otherProject, 1, 0],
      ].sort(),
    );
    // The views are back: new spans are copied as they arrive.
    await sendOtlp(
      service,
      key,
      "traces",
      tracesBody("api", [
        { traceId: T, spanId: sid(4), name: "late", startMs: T0 + 30 * MIN, durationMs: 1 },
      ]),
    );
    const [mine] = (await dataRows()).filter((r) => r.project_id === projectId);
    expect(mine?.last).toBe(T0 + 30 * MIN);
    expect((await get(`/v1/traces/${T}`)).body).toMatchObject({ spanCount: 4 });
  });

  it("drops the trace index of earlier releases, view first", async () => {
    const db = telemetry().database;
    await telemetry().command(
      `CREATE TABLE ${db}.trace_index (project_id String, trace_id String, start_min DateTime64(9)) ENGINE = MergeTree ORDER BY (project_id, trace_id)`,
    );
    await telemetry().command(
      `CREATE MATERIALIZED VIEW ${db}.trace_index_mv TO ${db}.trace_index AS SELECT project_id, trace_id, timestamp AS start_min FROM ${db}.traces`,
    );
    await ensureTelemetrySchema(telemetry(), { retentionDays: 30 });
    const left = await telemetry().query<{ name: string }>(
      "SELECT name FROM system.tables WHERE database = {db:String} AND name LIKE 'trace_index%'",
      { params: { db } },
    );
    expect(left).toEqual([]);
  });

  it("merges a day no part was written to for an hour into one part, on upgraded data dirs too", async () => {
    const db = telemetry().database;
    const FORCED = [
      "min_age_to_force_merge_seconds = 3600",
      "min_age_to_force_merge_on_partition_only = 1",
    ];
    // The tables read by key with no time range: trace lookups, an error group's occurrences.
    const TABLES = ["trace_data", "error_occurrences", "error_groups"];
    const engine = async (table: string) => {
      const [row] = await telemetry().query<{ engine_full: string }>(
        "SELECT engine_full FROM system.tables WHERE database = {db:String} AND name = {t:String}",
        { params: { db, t: table } },
      );
      return row?.engine_full ?? "";
    };
    for (const table of TABLES)
      for (const setting of FORCED) expect(await engine(table)).toContain(setting);
    // A data dir of an earlier release: a table without the settings gets them at start, and
    // as the engine shows them, so the next start has nothing to change.
    for (const table of TABLES) {
      await telemetry().command(
        `ALTER TABLE ${db}.${table} RESET SETTING min_age_to_force_merge_seconds, min_age_to_force_merge_on_partition_only`,
      );
      expect(await engine(table)).not.toContain("min_age_to_force_merge");
    }
    await ensureTelemetrySchema(telemetry(), { retentionDays: 30 });
    for (const table of TABLES)
      for (const setting of FORCED) expect(await engine(table)).toContain(setting);
    const commands: string[] = [];
    const command = telemetry().command.bind(telemetry());
    await ensureTelemetrySchema(
      {
        ...telemetry(),
        command: (sql, options) => {
          commands.push(sql);
          return command(sql, options);
        },
      },
      { retentionDays: 30 },
    );
    expect(commands.filter((sql) => sql.includes("MODIFY"))).toEqual([]);

    // The engine merges such a day: three writes to a day two days ago are several parts (three,
    // unless a merge took two), then one once the (here shortened) age has passed.
    const dayMs = NOW - 2 * 24 * 60 * MIN;
    const day = new Date(dayMs).toISOString().slice(0, 10);
    for (const n of [1, 2, 3])
      await sendOtlp(
        service,
        key,
        "traces",
        tracesBody("batch", [
          {
            traceId: hexId(0x9a0 + n, 32),
            spanId: sid(n),
            name: "old",
            startMs: dayMs,
            durationMs: 1,
          },
        ]),
      );
    const parts = async () => {
      const [row] = await telemetry().query<{ parts: string }>(
        `SELECT count() AS parts FROM system.parts
         WHERE database = {db:String} AND table = 'trace_data' AND active AND partition = {day:String}`,
        { params: { db, day } },
      );
      return Number(row?.parts);
    };
    expect(await parts()).toBeGreaterThan(1);
    await telemetry().command(
      `ALTER TABLE ${db}.trace_data MODIFY SETTING min_age_to_force_merge_seconds = 1`,
    );
    try {
      // The engine's merge selector looks again within seconds; it backs off while idle.
      await expect.poll(parts, { timeout: 75_000, interval: 250 }).toBe(1);
    } finally {
      await telemetry().command(`ALTER TABLE ${db}.trace_data MODIFY SETTING ${FORCED[0]}`);
    }
    expect((await get(`/v1/traces/${hexId(0x9a2, 32)}`)).body).toMatchObject({ spanCount: 1 });
  }, 90_000);
});
