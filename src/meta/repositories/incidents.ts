import { type Kysely, sql } from "kysely";
import type { Severity } from "../../contracts/severity.js";
import type { IncidentEventRow, IncidentRow, MetaSchema } from "../schema.js";
import { SEVERITY_RANK_SQL as SEVERITY_RANK } from "../severity-sql.js";
import { createIncidentAggregates } from "./incident-aggregates.js";

export type { IncidentAggregates, TimeTruncation } from "./incident-aggregates.js";

export type IncidentStatus = "active" | "resolved";
export type IncidentSeverity = Severity;
export type IncidentSource = "manual" | "monitor" | "alert";
export type IncidentActorKind = "user" | "system" | "monitor" | "alert" | "link";

/** Who acknowledged an incident: a user, a one-click link a channel sent, or the operator. */
export interface IncidentAcknowledger {
  kind: "user" | "link" | "system";
  /** The user's id, or the channel's that sent the link (null once deleted, or for the system). */
  id: string | null;
  /** The user's name, or the channel's name and type, as it was then. */
  label: string | null;
}

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
  /** When it was first acknowledged; null while nobody has (see isAcknowledged). */
  acknowledgedAt: string | null;
  acknowledgedBy: IncidentAcknowledger | null;
  /** A member of the project's organization, or null. */
  assigneeId: string | null;
}

/** The response fields a new incident starts without (all null). */
type ResponseFields = "acknowledgedAt" | "acknowledgedBy" | "assigneeId";
/** An incident as inserted: the response fields may be left out (null). */
export type NewIncidentRecord = Omit<IncidentRecord, ResponseFields> &
  Partial<Pick<IncidentRecord, ResponseFields>>;

/** Whether someone acknowledged it (escalation stops then, and so do acknowledge links). */
export const isAcknowledged = (incident: Pick<IncidentRecord, "acknowledgedAt">): boolean =>
  incident.acknowledgedAt !== null;

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
  acknowledgedAt: row.acknowledged_at,
  acknowledgedBy:
    row.acknowledged_at === null
      ? null
      : {
          kind: (row.acknowledged_by_kind ?? "system") as IncidentAcknowledger["kind"],
          id: row.acknowledged_by_id,
          label: row.acknowledged_by_label,
        },
  assigneeId: row.assignee_id,
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
    ...createIncidentAggregates(db, toRecord),
    /** A second active one for the same (source, sourceId) violates a unique index. */
    async insert(incident: NewIncidentRecord): Promise<void> {
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
          acknowledged_at: incident.acknowledgedAt ?? null,
          acknowledged_by_kind: incident.acknowledgedBy?.kind ?? null,
          acknowledged_by_id: incident.acknowledgedBy?.id ?? null,
          acknowledged_by_label: incident.acknowledgedBy?.label ?? null,
          assignee_id: incident.assigneeId ?? null,
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
    /**
     * Acknowledges an active incident nobody acknowledged yet; false when it was resolved or
     * acknowledged meanwhile (the first acknowledge wins, once).
     */
    async acknowledge(id: string, ack: { at: string; by: IncidentAcknowledger }): Promise<boolean> {
      const result = await db
        .updateTable("incidents")
        .set({
          acknowledged_at: ack.at,
          acknowledged_by_kind: ack.by.kind,
          acknowledged_by_id: ack.by.id,
          acknowledged_by_label: ack.by.label,
          updated_at: ack.at,
        })
        .where("id", "=", id)
        .where("status", "=", "active")
        .where("acknowledged_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Clears an incident's acknowledgement (a reopen: it can be acknowledged again). */
    async clearAcknowledgement(id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable("incidents")
        .set({
          acknowledged_at: null,
          acknowledged_by_kind: null,
          acknowledged_by_id: null,
          acknowledged_by_label: null,
          updated_at: at,
        })
        .where("id", "=", id)
        .where("acknowledged_at", "is not", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Sets (or, with null, clears) who an incident is assigned to. True when a row changed. */
    async assign(id: string, assigneeId: string | null, at: string): Promise<boolean> {
      const result = await db
        .updateTable("incidents")
        .set({ assignee_id: assigneeId, updated_at: at })
        .where("id", "=", id)
        .executeTakeFirst();
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
