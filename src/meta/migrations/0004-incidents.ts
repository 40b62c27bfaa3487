import { type Kysely, sql } from "kysely";
import { createIdGenerator } from "../../lib/ids.js";

interface OldIncident {
  id: string;
  monitor_id: string;
  project_id: string;
  name: string;
  status: string;
  started_at: string;
  ended_at: string | null;
  duration_ms: number | null;
  cause: string;
  opened_by_result_id: string;
  closed_by_result_id: string | null;
}

/** Rows per INSERT: 10–11 bound values each, well inside both engines' limits. */
const CHUNK = 200;

// Incidents as one model (docs/design.md §4): manual, monitor and alert incidents with a typed timeline.
// Monitor incidents move in with their ids, so monitors.open_incident_id and
// notification_deliveries.incident_id keep pointing at the same outages.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("incidents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("severity", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("source_id", "text")
    .addColumn("source_key", "text")
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("resolved_at", "text")
    // bigint: int4 milliseconds end at ~24.8 days, and outages can last longer.
    .addColumn("duration_ms", "bigint")
    .addColumn("cause", "text")
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("incidents_project_time_idx")
    .on("incidents")
    .columns(["project_id", "started_at"])
    .execute();
  // The dashboard counts what was resolved in a window.
  await db.schema
    .createIndex("incidents_project_resolved_idx")
    .on("incidents")
    .columns(["project_id", "resolved_at"])
    .execute();
  await db.schema
    .createIndex("incidents_source_idx")
    .on("incidents")
    .columns(["source", "source_id", "started_at"])
    .execute();
  // One open incident per monitor or alert rule (the spec's "at most one open per monitor").
  await db.schema
    .createIndex("incidents_one_open_per_source_uq")
    .on("incidents")
    .columns(["source", "source_id"])
    .unique()
    .where(sql<boolean>`status = 'active' and source_id is not null`)
    .execute();

  await db.schema
    .createTable("incident_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("incident_id", "text", (c) =>
      c.notNull().references("incidents.id").onDelete("cascade"),
    )
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("actor_kind", "text", (c) => c.notNull())
    .addColumn("actor_id", "text")
    .addColumn("message", "text")
    .addColumn("phase", "text")
    .addColumn("public", "integer", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("incident_events_incident_time_idx")
    .on("incident_events")
    .columns(["incident_id", "at"])
    .execute();

  await copyMonitorIncidents(db);
  await db.schema.dropTable("monitor_incidents").execute();
}

async function copyMonitorIncidents(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<OldIncident>`
    select i.id, i.monitor_id, m.project_id, m.name, i.status, i.started_at, i.ended_at,
           i.duration_ms, i.cause, i.opened_by_result_id, i.closed_by_result_id
    from monitor_incidents i join monitors m on m.id = i.monitor_id
    order by i.started_at, i.id`.execute(db);
  const incidents = rows.map((r) => ({
    id: r.id,
    project_id: r.project_id,
    title: `${r.name} is down`,
    status: r.ended_at === null ? "active" : "resolved",
    severity: "high",
    source: "monitor",
    source_id: r.monitor_id,
    source_key: null,
    started_at: r.started_at,
    resolved_at: r.ended_at,
    duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
    cause: r.cause,
    created_by: null,
    created_at: r.started_at,
    updated_at: r.ended_at ?? r.started_at,
  }));
  const events = rows.flatMap((r) => timelineOf(r));
  const table = db as Kysely<Record<string, Record<string, unknown>>>;
  for (let i = 0; i < incidents.length; i += CHUNK)
    await table
      .insertInto("incidents")
      .values(incidents.slice(i, i + CHUNK))
      .execute();
  for (let i = 0; i < events.length; i += CHUNK)
    await table
      .insertInto("incident_events")
      .values(events.slice(i, i + CHUNK))
      .execute();
}

/** The events the monitor engine now writes for an outage, rebuilt from the old row. */
function timelineOf(r: OldIncident) {
  const event = (type: string, at: string, message: string | null, data: object) => ({
    // Ids from the event's own time, so the timeline sorts like one written live.
    id: createIdGenerator(() => Date.parse(at))("ine"),
    incident_id: r.id,
    type,
    at,
    actor_kind: "monitor",
    actor_id: r.monitor_id,
    message,
    phase: null,
    public: 0,
    data: JSON.stringify(data),
  });
  const opened = [
    event("opened", r.started_at, `${r.name} is down`, {}),
    event("monitor_down", r.started_at, r.cause, { resultId: r.opened_by_result_id }),
  ];
  const events =
    r.ended_at === null
      ? opened
      : [
          ...opened,
          event("monitor_recovered", r.ended_at, null, {
            resultId: r.closed_by_result_id,
            durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
          }),
          event("resolved", r.ended_at, null, {}),
        ];
  // Events of the same instant keep their order (ids break ties in the timeline).
  const ids = events.map((e) => e.id).sort();
  return events.map((e, i) => ({ ...e, id: ids[i] ?? e.id }));
}

/** Back to 0003: monitor incidents return to their own table (manual and alert ones are dropped). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("monitor_incidents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("monitor_id", "text", (c) =>
      c.notNull().references("monitors.id").onDelete("cascade"),
    )
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("ended_at", "text")
    .addColumn("duration_ms", "integer")
    .addColumn("cause", "text", (c) => c.notNull())
    .addColumn("opened_by_result_id", "text", (c) => c.notNull())
    .addColumn("closed_by_result_id", "text")
    .execute();
  await db.schema
    .createIndex("monitor_incidents_monitor_time_idx")
    .on("monitor_incidents")
    .columns(["monitor_id", "started_at"])
    .execute();
  await db.schema
    .createIndex("monitor_incidents_one_open_uq")
    .on("monitor_incidents")
    .column("monitor_id")
    .unique()
    .where(sql.ref("ended_at"), "is", null)
    .execute();
  // The check ids live in the monitor_down / monitor_recovered entries' data.
  const resultId = (type: string) =>
    sql`(select e.data from incident_events e where e.incident_id = i.id and e.type = ${type}
         order by e.at desc, e.id desc limit 1)`;
  const { rows } = await sql<{
    id: string;
    source_id: string;
    status: string;
    started_at: string;
    resolved_at: string | null;
    duration_ms: number | null;
    cause: string | null;
    down: string | null;
    recovered: string | null;
  }>`select i.id, i.source_id, i.status, i.started_at, i.resolved_at, i.duration_ms, i.cause,
       ${resultId("monitor_down")} as down, ${resultId("monitor_recovered")} as recovered
     from incidents i join monitors m on m.id = i.source_id
     where i.source = 'monitor'`.execute(db);
  const idOf = (data: string | null) => {
    const value = data === null ? undefined : (JSON.parse(data) as { resultId?: unknown }).resultId;
    return typeof value === "string" ? value : null;
  };
  const table = db as Kysely<Record<string, Record<string, unknown>>>;
  const back = rows.map((r) => ({
    id: r.id,
    monitor_id: r.source_id,
    status: r.status,
    started_at: r.started_at,
    ended_at: r.resolved_at,
    duration_ms: r.duration_ms,
    cause: r.cause ?? "",
    opened_by_result_id: idOf(r.down) ?? "",
    closed_by_result_id: r.resolved_at === null ? null : idOf(r.recovered),
  }));
  for (let i = 0; i < back.length; i += CHUNK)
    await table
      .insertInto("monitor_incidents")
      .values(back.slice(i, i + CHUNK))
      .execute();
  for (const name of ["incident_events", "incidents"]) await db.schema.dropTable(name).execute();
}
