import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CoreDeps } from "../src/composition/domain-deps.js";
import type { Ctx } from "../src/context.js";
import { resolveSourceIncident } from "../src/incidents/source-incidents.js";
import { AppUrl } from "../src/lib/app-url.js";
import { ConflictError } from "../src/lib/domain-errors.js";
import { createIdGenerator } from "../src/lib/ids.js";
import { type MetaDatabase, openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import { migrationProvider } from "../src/meta/migrations/index.js";
import { listIncidents } from "../src/monitors/monitors.js";
import { createStatusPageEngine } from "../src/status-pages/engine.js";
import { defaultAuthDeps } from "./helpers/auth-deps.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const T0 = "2026-11-01T10:00:00.000Z";
const T1 = "2026-11-01T10:12:00.000Z";
const T2 = "2026-11-02T08:00:00.000Z";

/**
 * A data dir as the release before incidents left it (migrations up to 0003, monitor incidents
 * in their own table), then migrated to the latest schema: every outage is kept, same ids.
 */
function migrationCases(open: () => Promise<MetaDatabase>) {
  let database: MetaDatabase;
  let store: MetaStore;

  beforeAll(async () => {
    database = await open();
    const { db } = database;
    const migrator = new Migrator({ db, provider: migrationProvider });
    const before = await migrator.migrateTo("0003-webhooks");
    expect(before.error).toBeUndefined();
    await sql`insert into organizations (id, name, created_at) values ('org_m', 'M', ${T0})`.execute(
      db,
    );
    await sql`insert into projects (id, org_id, name, created_at) values ('prj_m', 'org_m', 'm', ${T0})`.execute(
      db,
    );
    await sql`insert into monitors (id, project_id, name, status, definition, health, failure_streak,
        last_checked_at, last_result_id, open_incident_id, created_by, created_at, updated_at)
      values ('mon_m', 'prj_m', 'Checkout', 'active', '{"type":"api"}', 'outage', 3, ${T2},
        'run_open', 'inc_open', null, ${T0}, ${T0})`.execute(db);
    await sql`insert into monitor_incidents (id, monitor_id, status, started_at, ended_at, duration_ms,
        cause, opened_by_result_id, closed_by_result_id)
      values ('inc_closed', 'mon_m', 'resolved', ${T0}, ${T1}, 720000, 'status 503', 'run_a', 'run_b'),
             ('inc_open', 'mon_m', 'active', ${T2}, null, null, 'timeout', 'run_open', null)`.execute(
      db,
    );
    await sql`insert into notification_channels (id, project_id, name, type, config, secret, created_at, updated_at)
      values ('chn_m', 'prj_m', 'hook', 'webhook', '{}', null, ${T0}, ${T0})`.execute(db);
    await sql`insert into notification_deliveries (id, project_id, channel_id, monitor_id, incident_id,
        event, payload, status, attempts, last_error, next_attempt_at, sent_at, created_at)
      values ('ntf_m', 'prj_m', 'chn_m', 'mon_m', 'inc_closed', 'monitor.down', '{}', 'sent', 1,
        null, null, ${T0}, ${T0})`.execute(db);
    store = createMetaStore(database);
    expect((await store.migrate())[0]).toBe("0004-incidents");
  });
  afterAll(async () => {
    await store?.close();
  });

  it("copies each monitor incident with its id, source, title, severity, times and cause", async () => {
    const { incidents } = store.repos;
    expect(await incidents.findById("inc_closed")).toMatchObject({
      projectId: "prj_m",
      title: "Checkout is down",
      status: "resolved",
      severity: "high",
      source: "monitor",
      sourceId: "mon_m",
      sourceKey: null,
      startedAt: T0,
      resolvedAt: T1,
      durationMs: 720_000,
      cause: "status 503",
    });
    expect(await incidents.findById("inc_open")).toMatchObject({
      status: "active",
      resolvedAt: null,
      durationMs: null,
      cause: "timeout",
    });
  });

  it("rebuilds their timelines, oldest first", async () => {
    const events = await store.repos.incidents.listEvents(["inc_closed", "inc_open"]);
    const of = (id: string) =>
      events.filter((e) => e.incidentId === id).map((e) => [e.type, e.at, e.data]);
    expect(of("inc_closed")).toEqual([
      ["opened", T0, {}],
      ["monitor_down", T0, { resultId: "run_a" }],
      ["monitor_recovered", T1, { resultId: "run_b", durationMs: 720_000 }],
      ["resolved", T1, {}],
    ]);
    expect(of("inc_open")).toEqual([
      ["opened", T2, {}],
      ["monitor_down", T2, { resultId: "run_open" }],
    ]);
    expect(events.every((e) => e.actorKind === "monitor" && e.actorId === "mon_m")).toBe(true);
  });

  it("keeps the monitor's open incident, its deliveries and its history as the monitor API shows it", async () => {
    const monitor = await store.repos.monitors.findById("mon_m");
    expect(monitor?.openIncidentId).toBe("inc_open");
    expect((await store.repos.incidents.findOpenBySource("monitor", "mon_m"))?.id).toBe("inc_open");
    expect(
      (await store.repos.notificationDeliveries.listByIncidents(["inc_closed"])).map((d) => d.id),
    ).toEqual(["ntf_m"]);
    const ctx: Ctx<CoreDeps> = {
      deps: {
        meta: store,
        clock: { now: () => new Date(T2) },
        newId: createIdGenerator(),
        sessionTtlHours: 1,
        appUrl: new AppUrl(undefined),
        ...defaultAuthDeps(),
        statusPages: createStatusPageEngine({ clock: { now: () => new Date(T2) } }),
      },
      actor: { kind: "system" },
    };
    const history = await listIncidents({
      ctx,
      projectId: "prj_m",
      monitorId: "mon_m",
      query: { page: 1, limit: 10 },
    });
    expect(history.data).toEqual([
      expect.objectContaining({
        id: "inc_open",
        status: "active",
        openedByResultId: "run_open",
        closedByResultId: null,
      }),
      expect.objectContaining({
        id: "inc_closed",
        resolvedAt: T1,
        openedByResultId: "run_a",
        closedByResultId: "run_b",
        notifications: [expect.objectContaining({ id: "ntf_m" })],
      }),
    ]);
  });

  it("enforces one open incident per monitor, and the migrated one resolves like a new one", async () => {
    const base = (await store.repos.incidents.findById("inc_open")) ?? expect.fail("missing");
    await expect(
      store.run((repos) => repos.incidents.insert({ ...base, id: "inc_second" })),
    ).rejects.toBeInstanceOf(ConflictError);
    const deps = { clock: { now: () => new Date(T2) }, newId: createIdGenerator() };
    const resolved = await store.transaction((tx) =>
      resolveSourceIncident(tx, deps, {
        source: "monitor",
        sourceId: "mon_m",
        at: "2026-11-02T08:05:00.000Z",
        event: { type: "monitor_recovered", data: { resultId: "run_ok" } },
      }),
    );
    expect(resolved?.incident).toMatchObject({ id: "inc_open", durationMs: 300_000 });
    expect(resolved?.events.map((e) => e.id)).toEqual([
      `incident.resolved:inc_open:${Date.parse("2026-11-02T08:05:00.000Z")}`,
    ]);
    await store.repos.incidents.insert({ ...base, id: "inc_second" });
  });

  it("dropped the old table; migrating down brings the monitor incidents back", async () => {
    await expect(
      sql`select count(*) from monitor_incidents`.execute(database.db),
    ).rejects.toThrow();
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    expect((await migrator.migrateTo("0003-webhooks")).error).toBeUndefined();
    const { rows } = await sql<Record<string, unknown>>`select id, status, ended_at,
        opened_by_result_id, closed_by_result_id from monitor_incidents order by id`.execute(
      database.db,
    );
    expect(rows).toEqual([
      {
        id: "inc_closed",
        status: "resolved",
        ended_at: T1,
        opened_by_result_id: "run_a",
        closed_by_result_id: "run_b",
      },
      {
        id: "inc_open",
        status: "resolved",
        ended_at: "2026-11-02T08:05:00.000Z",
        opened_by_result_id: "run_open",
        closed_by_result_id: "run_ok",
      },
      {
        id: "inc_second",
        status: "active",
        ended_at: null,
        opened_by_result_id: "",
        closed_by_result_id: null,
      },
    ]);
    expect((await store.migrate())[0]).toBe("0004-incidents");
    expect((await store.repos.incidents.findById("inc_second"))?.status).toBe("active");
  });
}

describe("migration 0004-incidents on SQLite", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());
  migrationCases(async () => openMetaDatabase({ dataDir: dir.path }));
});

const binDir = findPostgresBin();
describe.skipIf(!binDir)("migration 0004-incidents on PostgreSQL", () => {
  let postgres: ThrowawayPostgres | undefined;
  afterAll(async () => {
    await postgres?.stop();
  });
  migrationCases(async () => {
    postgres = await startThrowawayPostgres(binDir ?? "");
    return openMetaDatabase({ url: postgres.url, dataDir: "/nonexistent" });
  });
});
