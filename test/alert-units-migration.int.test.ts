import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compilePreset } from "../src/alerts/presets.js";
import { type MetaDatabase, openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import { migrationProvider } from "../src/meta/migrations/index.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const T0 = "2026-11-01T10:00:00.000Z";
/** The error-rate preset's query as the releases before issue 32 compiled it: a fraction. */
const FRACTION_QUERY =
  "SELECT service_name AS service, if(sum(request_count) = 0, NULL, sum(error_count) / sum(request_count)) AS value FROM http_requests WHERE timestamp >= now() - INTERVAL 5 MINUTE GROUP BY service";
const LOGS_QUERY = "SELECT count() AS value FROM logs";

/**
 * A data dir whose error-rate rules were saved with a fraction threshold (migrations up to
 * 0009), then migrated: each gets the percent query the preset compiles now and its threshold
 * in percent, so it fires exactly as before; other rules are left alone.
 */
function migrationCases(open: () => Promise<MetaDatabase>) {
  let database: MetaDatabase;
  let store: MetaStore;
  const insert = async (id: string, kind: string | null, op: string, threshold: number) => {
    const definition = {
      preset: kind === null ? null : { kind, params: { window: "5m", groupBy: "service" } },
      condition: { op, threshold },
      interval: "1m",
      forSeconds: 0,
      noData: "ok",
      renotifyMinutes: 0,
      openIncident: false,
      messageTemplate: "{{value}}",
    };
    const query = kind === "error_rate" && !id.includes("other") ? FRACTION_QUERY : LOGS_QUERY;
    await sql`insert into alert_rules (id, project_id, name, description, severity, definition,
        query, muted, muted_until, state, created_at, updated_at)
      values (${id}, 'prj_u', ${id}, '', 'high', ${JSON.stringify(definition)}, ${query}, 0, null,
        'ok', ${T0}, ${T0})`.execute(database.db);
  };

  beforeAll(async () => {
    database = await open();
    const { db } = database;
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo("0009-alert-failures")).error).toBeUndefined();
    await sql`insert into organizations (id, name, created_at) values ('org_u', 'U', ${T0})`.execute(
      db,
    );
    await sql`insert into projects (id, org_id, name, created_at) values ('prj_u', 'org_u', 'u', ${T0})`.execute(
      db,
    );
    await insert("alr_fraction", "error_rate", ">", 0.05);
    // Typed as percent against the fraction preset: unreachable then, meant as 5% all along.
    await insert("alr_typed_percent", "error_rate", ">", 5);
    await insert("alr_all_failing", "error_rate", ">=", 1);
    await insert("alr_logs", "log_count", ">", 0.5);
    // An error-rate rule whose query is not the preset's: its threshold never moves alone.
    await insert("alr_other_query", "error_rate", ">", 0.5);
    await insert("alr_tql", null, "<", 0.5);
    store = createMetaStore(database);
    await store.migrate();
  });
  afterAll(async () => {
    await database?.db.destroy();
  });

  it("moves error-rate rules to percent: the preset's query now and the threshold that fires as before", async () => {
    const rule = async (id: string) =>
      (await store.repos.alertRules.findById(id)) ?? expect.fail(`${id} missing`);
    const percentQuery = compilePreset({
      kind: "error_rate",
      params: { window: "5m", groupBy: "service" },
    }).query;
    expect(await rule("alr_fraction")).toMatchObject({
      query: percentQuery,
      definition: { condition: { op: ">", threshold: 5 } },
    });
    expect(await rule("alr_typed_percent")).toMatchObject({
      query: percentQuery,
      definition: { condition: { op: ">", threshold: 5 } },
    });
    expect((await rule("alr_all_failing")).definition.condition).toEqual({
      op: ">=",
      threshold: 100,
    });
    for (const id of ["alr_logs", "alr_tql", "alr_other_query"])
      expect(await rule(id)).toMatchObject({
        query: LOGS_QUERY,
        definition: { condition: { threshold: 0.5 } },
      });
  });

  it("migrating down gives the fraction query and thresholds back", async () => {
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    expect((await migrator.migrateTo("0009-alert-failures")).error).toBeUndefined();
    const { rows } = await sql<{ id: string; definition: string; query: string }>`
      select id, definition, query from alert_rules order by id`.execute(database.db);
    const threshold = (id: string) =>
      JSON.parse(rows.find((r) => r.id === id)?.definition ?? "{}").condition.threshold;
    expect(threshold("alr_fraction")).toBe(0.05);
    expect(threshold("alr_typed_percent")).toBe(0.05);
    expect(threshold("alr_logs")).toBe(0.5);
    expect(rows.find((r) => r.id === "alr_fraction")?.query).toBe(FRACTION_QUERY);
    await store.migrate();
  });
}

describe("migration 0010-alert-units on SQLite", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());
  migrationCases(async () => openMetaDatabase({ dataDir: dir.path }));
});

const binDir = findPostgresBin();
describe.skipIf(!binDir)("migration 0010-alert-units on PostgreSQL", () => {
  let postgres: ThrowawayPostgres | undefined;
  afterAll(async () => {
    await postgres?.stop();
  });
  migrationCases(async () => {
    postgres = await startThrowawayPostgres(binDir ?? "");
    return openMetaDatabase({ url: postgres.url, dataDir: "/nonexistent" });
  });
});
