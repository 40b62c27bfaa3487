import { type Kysely, sql } from "kysely";
import type { Severity } from "../../contracts/severity.js";
import type { IncidentEventRow, IncidentRow, MetaSchema } from "../schema.js";
import { SEVERITY_RANK_SQL as SEVERITY_RANK } from "../severity-sql.js";

export type IncidentStatus = "active" | "resolved";
export type IncidentSeverity = Severity;
export type IncidentSource = "manual" | "monitor" | "alert";
export type IncidentActorKind = "user" | "system" | "monitor" | "alert";

/** An incident of a project: opened by hand, by a monitor outage or by an alert rule. */
export interface IncidentRecord {
  id: string;
  projectId: string;
  title: string;
  status: IncidentStatus;
  severity: IncidentSeverity;
  source: IncidentSource;
  sourceId: string | null;
  sourceKey: string | null;
  startedAt: string;
  resolvedAt: string | null;
  durationMs: number | null;
  cause: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One entry of an incident's timeline. */
export interface IncidentEventRecord {
  id: string;
  incidentId: string;
  type: string;
  at: string;
  actorKind: IncidentActorKind;
  actorId: string | null;
  message: string | null;
  phase: string | null;
  public: boolean;
  data: Record<string, unknown>;
}

export interface IncidentFilter {
  projectId: string;
  status?: IncidentStatus | undefined;
  severity?: IncidentSeverity | undefined;
  source?: IncidentSource | undefined;
  sourceId?: string | undefined;
  /** Incidents that were open at some time in [from, to). */
  from?: string | undefined;
  to?: string | undefined;
}

export type IncidentSort = "started_at" | "severity" | "duration";

/** How much of an ISO timestamp a dashboard groups by: to the minute, the hour or the day. */
export type TimeTruncation = "minute" | "hour" | "day";
const TRUNCATED_LENGTH: Record<TimeTruncation, number> = { minute: 16, hour: 13, day: 10 };

/** The dashboard's aggregates over [from, to), grouped by the truncated time. */
export interface IncidentAggregates {
  /** Started in the window, per (truncated start, severity, source). */
  opened: { time: string; severity: IncidentSeverity; source: IncidentSource; count: number }[];
  /** Resolved in the window, per truncated resolve time. */
  resolved: { time: string; count: number }[];
  /** Mean duration of the incidents resolved in the window; null if none. */
  meanDurationMs: number | null;
  /** Active now, whenever started. */
  open: number;
}

const toRecord = (row: IncidentRow): IncidentRecord => ({
  id: row.id,
  projectId: row.project_id,
  title: row.title,
  status: row.status as IncidentStatus,
  severity: row.severity as IncidentSeverity,
  source: row.source as IncidentSource,
  sourceId: row.source_id,
  sourceKey: row.source_key,
  startedAt: row.started_at,
  resolvedAt: row.resolved_at,
  durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
  cause: row.cause,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toEventRecord = (row: IncidentEventRow): IncidentEventRecord => ({
  id: row.id,
  incidentId: row.incident_id,
  type: row.type,
  at: row.at,
  actorKind: row.actor_kind as IncidentActorKind,
  actorId: row.actor_id,
  message: row.message,
  phase: row.phase,
  public: Number(row.public) === 1,
  data: JSON.parse(row.data) as Record<string, unknown>,
});

/** An open incident's duration is still growing: it sorts as longer than any resolved one. */
const DURATION = sql<number>`coalesce(duration_ms, 9007199254740991)`;

export function createIncidentRepository(db: Kysely<MetaSchema>) {
  /** The incidents of one monitor or alert rule. */
  const ofSource = (source: IncidentSource, sourceId: string) =>
    db
      .selectFrom("incidents")
      .selectAll()
      .where("source", "=", source)
      .where("source_id", "=", sourceId);
  const filtered = (filter: IncidentFilter) => {
    let query = db.selectFrom("incidents").where("project_id", "=", filter.projectId);
    if (filter.status) query = query.where("status", "=", filter.status);
    if (filter.severity) query = query.where("severity", "=", filter.severity);
    if (filter.source) query = query.where("source", "=", filter.source);
    if (filter.sourceId) query = query.where("source_id", "=", filter.sourceId);
    if (filter.to) query = query.where("started_at", "<", filter.to);
    const from = filter.from;
    if (from)
      query = query.where((eb) =>
        eb.or([eb("resolved_at", "is", null), eb("resolved_at", ">=", from)]),
      );
    return query;
  };
  return {
    /** A second active one for the same (source, sourceId) violates a unique index. */
    async insert(incident: IncidentRecord): Promise<void> {
      await db
        .insertInto("incidents")
        .values({
          id: incident.id,
          project_id: incident.projectId,
          title: incident.title,
          status: incident.status,
          severity: incident.severity,
          source: incident.source,
          source_id: incident.sourceId,
          source_key: incident.sourceKey,
          started_at: incident.startedAt,
          resolved_at: incident.resolvedAt,
          duration_ms: incident.durationMs,
          cause: incident.cause,
          created_by: incident.createdBy,
          created_at: incident.createdAt,
          updated_at: incident.updatedAt,
        })
        .execute();
    },
    async findById(id: string): Promise<IncidentRecord | undefined> {
      const row = await db
        .selectFrom("incidents")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** The open incident of a monitor or alert rule, if any. */
    async findOpenBySource(
      source: IncidentSource,
      sourceId: string,
    ): Promise<IncidentRecord | undefined> {
      const row = await ofSource(source, sourceId)
        .where("status", "=", "active")
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** The most recently started incident of a monitor or alert rule, open or not. */
    async findLatestBySource(
      source: IncidentSource,
      sourceId: string,
    ): Promise<IncidentRecord | undefined> {
      const row = await ofSource(source, sourceId)
        .orderBy("started_at", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /**
     * Changes an incident; with `whenStatus`, only while it has that status (a resolve racing
     * another resolve changes nothing). True when a row changed.
     */
    async update(
      id: string,
      change: Partial<
        Pick<
          IncidentRecord,
          "title" | "severity" | "status" | "resolvedAt" | "durationMs" | "updatedAt"
        >
      >,
      whenStatus?: IncidentStatus,
    ): Promise<boolean> {
      let query = db
        .updateTable("incidents")
        .set({
          ...(change.title !== undefined ? { title: change.title } : {}),
          ...(change.severity !== undefined ? { severity: change.severity } : {}),
          ...(change.status !== undefined ? { status: change.status } : {}),
          ...(change.resolvedAt !== undefined ? { resolved_at: change.resolvedAt } : {}),
          ...(change.durationMs !== undefined ? { duration_ms: change.durationMs } : {}),
          ...(change.updatedAt !== undefined ? { updated_at: change.updatedAt } : {}),
        })
        .where("id", "=", id);
      if (whenStatus) query = query.where("status", "=", whenStatus);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** A page of incidents, sorted (ties: newest first). */
    async list(
      filter: IncidentFilter,
      order: { sortBy: IncidentSort; direction: "asc" | "desc" },
      page: { limit: number; offset: number },
    ): Promise<IncidentRecord[]> {
      const key =
        order.sortBy === "severity"
          ? SEVERITY_RANK
          : order.sortBy === "duration"
            ? DURATION
            : sql<string>`started_at`;
      const rows = await filtered(filter)
        .selectAll()
        .orderBy(key, order.direction)
        .orderBy("started_at", "desc")
        .orderBy("id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toRecord);
    },
    async count(filter: IncidentFilter): Promise<number> {
      const row = await filtered(filter)
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /**
     * Counts for a dashboard, aggregated in SQL. Timestamps are canonical ISO text on both
     * engines, so a prefix of it (substr) is the same time truncation on SQLite and PostgreSQL.
     */
    async aggregate(
      projectId: string,
      window: { from: string; to: string; truncate: TimeTruncation },
    ): Promise<IncidentAggregates> {
      const { from, to } = window;
      const length = TRUNCATED_LENGTH[window.truncate];
      const scoped = db.selectFrom("incidents").where("project_id", "=", projectId);
      const resolvedIn = scoped
        .where("status", "=", "resolved")
        .where("resolved_at", ">=", from)
        .where("resolved_at", "<", to);
      const [opened, resolved, mean, open] = await Promise.all([
        scoped
          .where("started_at", ">=", from)
          .where("started_at", "<", to)
          .select((eb) => [
            sql<string>`substr(started_at, 1, ${sql.lit(length)})`.as("time"),
            "severity",
            "source",
            eb.fn.countAll<number | string>().as("n"),
          ])
          .groupBy([sql`substr(started_at, 1, ${sql.lit(length)})`, "severity", "source"])
          .execute(),
        resolvedIn
          .select((eb) => [
            sql<string>`substr(resolved_at, 1, ${sql.lit(length)})`.as("time"),
            eb.fn.countAll<number | string>().as("n"),
          ])
          .groupBy(sql`substr(resolved_at, 1, ${sql.lit(length)})`)
          .execute(),
        resolvedIn
          .select((eb) => eb.fn.avg<number | string | null>("duration_ms").as("mean"))
          .executeTakeFirstOrThrow(),
        scoped
          .where("status", "=", "active")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .executeTakeFirstOrThrow(),
      ]);
      return {
        opened: opened.map((r) => ({
          time: r.time,
          severity: r.severity as IncidentSeverity,
          source: r.source as IncidentSource,
          count: Number(r.n),
        })),
        resolved: resolved.map((r) => ({ time: r.time, count: Number(r.n) })),
        // PostgreSQL's avg of a bigint is numeric, read as a string.
        meanDurationMs: mean.mean === null ? null : Math.round(Number(mean.mean)),
        open: Number(open.n),
      };
    },
    /**
     * A status page's incidents: those of these monitors and rules, and those linked by hand to
     * these components, open now or resolved since `since`; every open one and the newest
     * `resolvedLimit` resolved ones, newest first. Three indexed reads (an OR over them would
     * scan on PostgreSQL).
     */
    async listForPage(
      page: {
        monitorIds: readonly string[];
        ruleIds: readonly string[];
        componentIds: readonly string[];
      },
      since: string,
      resolvedLimit: number,
    ): Promise<IncidentRecord[]> {
      const recent = (query: ReturnType<typeof base>) =>
        query.where((eb) => eb.or([eb("status", "=", "active"), eb("resolved_at", ">=", since)]));
      const base = () => db.selectFrom("incidents").selectAll();
      const reads = [];
      if (page.monitorIds.length > 0)
        reads.push(
          recent(base().where("source", "=", "monitor").where("source_id", "in", page.monitorIds)),
        );
      if (page.ruleIds.length > 0)
        reads.push(
          recent(base().where("source", "=", "alert").where("source_id", "in", page.ruleIds)),
        );
      if (page.componentIds.length > 0)
        reads.push(
          recent(
            base().where(
              "id",
              "in",
              db
                .selectFrom("status_page_incident_components")
                .select("incident_id")
                .where("component_id", "in", page.componentIds),
            ),
          ),
        );
      const byId = new Map<string, IncidentRecord>();
      for (const rows of await Promise.all(reads.map((q) => q.execute())))
        for (const row of rows) byId.set(row.id, toRecord(row));
      const newestFirst = [...byId.values()].sort(
        (a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id),
      );
      const active = newestFirst.filter((i) => i.status === "active");
      const resolved = newestFirst.filter((i) => i.status !== "active").slice(0, resolvedLimit);
      const kept = new Set([...active, ...resolved]);
      return newestFirst.filter((i) => kept.has(i));
    },
    /** Removes the incidents a monitor or rule opened (deleting it deletes its history). */
    async deleteBySource(source: IncidentSource, sourceId: string): Promise<void> {
      await db
        .deleteFrom("incidents")
        .where("source", "=", source)
        .where("source_id", "=", sourceId)
        .execute();
    },
    async insertEvents(events: readonly IncidentEventRecord[]): Promise<void> {
      if (events.length === 0) return;
      await db
        .insertInto("incident_events")
        .values(
          events.map((e) => ({
            id: e.id,
            incident_id: e.incidentId,
            type: e.type,
            at: e.at,
            actor_kind: e.actorKind,
            actor_id: e.actorId,
            message: e.message,
            phase: e.phase,
            public: e.public ? 1 : 0,
            data: JSON.stringify(e.data),
          })),
        )
        .execute();
    },
    /** The timelines of these incidents, oldest first (optionally only some event types). */
    async listEvents(
      incidentIds: readonly string[],
      types?: readonly string[],
    ): Promise<IncidentEventRecord[]> {
      if (incidentIds.length === 0) return [];
      let query = db
        .selectFrom("incident_events")
        .selectAll()
        .where("incident_id", "in", incidentIds);
      if (types && types.length > 0) query = query.where("type", "in", types);
      const rows = await query.orderBy("at").orderBy("id").execute();
      return rows.map(toEventRecord);
    },
  };
}
export type IncidentRepository = ReturnType<typeof createIncidentRepository>;
