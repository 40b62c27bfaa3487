import type { Kysely } from "kysely";
import type { MetaSchema, MonitorRow } from "../schema.js";
import { links } from "./links.js";
import { parametersFor, runStatement } from "./raw-sql.js";
import { lockRow } from "./row-lock.js";

export type MonitorStatus = "active" | "paused";
export type MonitorHealth = "pending" | "passing" | "outage";

/** A monitor as stored: its definition (JSON, opaque here) and its state-machine columns. */
export interface MonitorRecord {
  id: string;
  projectId: string;
  name: string;
  status: MonitorStatus;
  /** The validated definition without channel ids (those live in monitor_channels). */
  definition: unknown;
  channelIds: string[];
  health: MonitorHealth;
  failureStreak: number;
  lastCheckedAt: string | null;
  lastResultId: string | null;
  openIncidentId: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The columns a check changes; written apart from the definition so an edit never loses state. */
export interface MonitorStateUpdate {
  health: MonitorHealth;
  failureStreak: number;
  lastCheckedAt: string;
  lastResultId: string;
  openIncidentId: string | null;
}

/**
 * A monitor as a check records it: locked, without its channels (read only when the check
 * notifies), and whether a status page component takes its state from it.
 */
export type LockedMonitor = Omit<MonitorRecord, "channelIds"> & { feedsStatusPage: boolean };

/** What the scheduler needs of every active monitor. */
export interface ScheduledMonitor {
  id: string;
  definition: unknown;
  lastCheckedAt: string | null;
}

const toLocked = (row: MonitorRow & { feeds_status_page: number }): LockedMonitor => {
  const { channelIds: _, ...record } = toRecord(row, []);
  return { ...record, feedsStatusPage: Number(row.feeds_status_page) === 1 };
};

const toRecord = (row: MonitorRow, channelIds: string[]): MonitorRecord => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  status: row.status as MonitorStatus,
  definition: JSON.parse(row.definition),
  channelIds,
  health: row.health as MonitorHealth,
  failureStreak: row.failure_streak,
  lastCheckedAt: row.last_checked_at,
  lastResultId: row.last_result_id,
  openIncidentId: row.open_incident_id,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

// Run by every check's record, in repositories made per transaction: the work is in functions
// made once, which the repository's methods call (docs/monitors.md, "Hot functions").
async function lockForCheck(
  db: Kysely<MetaSchema>,
  id: string,
): Promise<LockedMonitor | undefined> {
  const p = parametersFor(db);
  const feeds = `CASE WHEN EXISTS (SELECT 1 FROM status_page_component_monitors l
    WHERE l.monitor_id = monitors.id) THEN 1 ELSE 0 END AS feeds_status_page`;
  // A SQLite transaction holds the write lock from its start: a read, as in lockRow.
  const { rows } = await runStatement<MonitorRow & { feeds_status_page: number }>(
    db,
    p.sqlite
      ? `SELECT *, ${feeds} FROM monitors WHERE id = ${p(id)}`
      : `UPDATE monitors SET id = id WHERE id = ${p(id)} RETURNING *, ${feeds}`,
    p,
  );
  const row = rows[0];
  return row && toLocked(row);
}

async function updateState(
  db: Kysely<MetaSchema>,
  id: string,
  state: MonitorStateUpdate,
): Promise<void> {
  const p = parametersFor(db);
  await runStatement(
    db,
    `UPDATE monitors SET health = ${p(state.health)}, failure_streak = ${p(state.failureStreak)},
       last_checked_at = ${p(state.lastCheckedAt)}, last_result_id = ${p(state.lastResultId)},
       open_incident_id = ${p(state.openIncidentId)}
     WHERE id = ${p(id)}`,
    p,
  );
}

export function createMonitorRepository(db: Kysely<MetaSchema>) {
  const channels = links(db, {
    table: "monitor_channels",
    owner: "monitor_id",
    item: "channel_id",
  });
  const withChannels = (rows: MonitorRow[]): Promise<MonitorRecord[]> =>
    channels.attach(rows, toRecord);

  return {
    async insert(monitor: MonitorRecord): Promise<MonitorRecord> {
      await db
        .insertInto("monitors")
        .values({
          id: monitor.id,
          project_id: monitor.projectId,
          name: monitor.name,
          status: monitor.status,
          definition: JSON.stringify(monitor.definition),
          health: monitor.health,
          failure_streak: monitor.failureStreak,
          last_checked_at: monitor.lastCheckedAt,
          last_result_id: monitor.lastResultId,
          open_incident_id: monitor.openIncidentId,
          created_by: monitor.createdBy,
          created_at: monitor.createdAt,
          updated_at: monitor.updatedAt,
        })
        .execute();
      await channels.set(monitor.id, monitor.channelIds);
      return monitor;
    },
    /** The names of these monitors (ids not found are left out). */
    async namesByIds(ids: readonly string[]): Promise<{ id: string; name: string }[]> {
      if (ids.length === 0) return [];
      return db.selectFrom("monitors").select(["id", "name"]).where("id", "in", ids).execute();
    },
    async findById(id: string): Promise<MonitorRecord | undefined> {
      const row = await db
        .selectFrom("monitors")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && (await withChannels([row]))[0];
    },
    /**
     * Only what running a check needs (no channels): read on every check, so kept narrow, as
     * SQL text (the builder cost more than the read).
     */
    async findCheckable(
      id: string,
    ): Promise<{ status: MonitorStatus; definition: unknown } | undefined> {
      const p = parametersFor(db);
      const { rows } = await runStatement<Pick<MonitorRow, "status" | "definition">>(
        db,
        `SELECT status, definition FROM monitors WHERE id = ${p(id)}`,
        p,
      );
      const row = rows[0];
      return row && { status: row.status as MonitorStatus, definition: JSON.parse(row.definition) };
    },
    /**
     * Takes the monitor's row lock for the rest of the transaction (as `lock`) and reads it in
     * the same statement, with whether any status page component takes its state from it: what
     * recording a check reads, in one statement instead of four. Undefined when it is gone.
     */
    lockForCheck: (id: string): Promise<LockedMonitor | undefined> => lockForCheck(db, id),
    /** The channels the monitor notifies, sorted. */
    async channelsOf(id: string): Promise<string[]> {
      return (await channels.of([id])).get(id) ?? [];
    },
    async listByProject(projectId: string): Promise<MonitorRecord[]> {
      const rows = await db
        .selectFrom("monitors")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return withChannels(rows);
    },
    /** Every active monitor, for the scheduler's start-up. */
    /**
     * A cheap fingerprint of the active monitors: it changes whenever one is created, edited,
     * paused, resumed or deleted (each sets updated_at or changes the count), so a scheduler can
     * skip re-reading every definition while it stays the same.
     */
    async activeVersion(): Promise<string> {
      const row = await db
        .selectFrom("monitors")
        .select((eb) => [
          eb.fn.countAll<number | string>().as("n"),
          eb.fn.max("updated_at").as("latest"),
        ])
        .where("status", "=", "active")
        .executeTakeFirst();
      return `${Number(row?.n ?? 0)}@${row?.latest ?? ""}`;
    },
    async listActive(): Promise<ScheduledMonitor[]> {
      const rows = await db
        .selectFrom("monitors")
        .select(["id", "definition", "last_checked_at"])
        .where("status", "=", "active")
        .execute();
      return rows.map((r) => ({
        id: r.id,
        definition: JSON.parse(r.definition),
        lastCheckedAt: r.last_checked_at,
      }));
    },
    async updateDefinition(
      id: string,
      change: {
        name: string;
        definition: unknown;
        channelIds: readonly string[];
        updatedAt: string;
      },
    ): Promise<void> {
      await db
        .updateTable("monitors")
        .set({
          name: change.name,
          definition: JSON.stringify(change.definition),
          updated_at: change.updatedAt,
        })
        .where("id", "=", id)
        .execute();
      await channels.set(id, change.channelIds);
    },
    async setStatus(
      id: string,
      status: MonitorStatus,
      updatedAt: string,
      options: { clearStreak?: boolean } = {},
    ): Promise<void> {
      await db
        .updateTable("monitors")
        .set({
          status,
          updated_at: updatedAt,
          ...(options.clearStreak ? { failure_streak: 0 } : {}),
        })
        .where("id", "=", id)
        .execute();
    },
    /** Takes the monitor's row lock for the rest of the transaction; false when it is gone. */
    lock: (id: string): Promise<boolean> => lockRow(db, "monitors", id),
    /** Written on every check, as SQL text. */
    updateState: (id: string, state: MonitorStateUpdate): Promise<void> =>
      updateState(db, id, state),
    async delete(id: string): Promise<void> {
      await db.deleteFrom("monitors").where("id", "=", id).execute();
    },
  };
}
export type MonitorRepository = ReturnType<typeof createMonitorRepository>;
