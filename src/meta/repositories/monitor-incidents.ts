import type { Kysely } from "kysely";
import type { MetaSchema, MonitorIncidentRow } from "../schema.js";

/** One outage of a monitor: opened by the check that reached alertAfter, ended by the next pass. */
export interface MonitorIncidentRecord {
  id: string;
  monitorId: string;
  status: "active" | "resolved";
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  cause: string;
  openedByResultId: string;
  closedByResultId: string | null;
}

const toRecord = (row: MonitorIncidentRow): MonitorIncidentRecord => ({
  id: row.id,
  monitorId: row.monitor_id,
  status: row.status as MonitorIncidentRecord["status"],
  startedAt: row.started_at,
  endedAt: row.ended_at,
  durationMs: row.duration_ms,
  cause: row.cause,
  openedByResultId: row.opened_by_result_id,
  closedByResultId: row.closed_by_result_id,
});

export function createMonitorIncidentRepository(db: Kysely<MetaSchema>) {
  return {
    /** Opens an incident; a second open one for the same monitor violates a unique index. */
    async insert(incident: MonitorIncidentRecord): Promise<void> {
      await db
        .insertInto("monitor_incidents")
        .values({
          id: incident.id,
          monitor_id: incident.monitorId,
          status: incident.status,
          started_at: incident.startedAt,
          ended_at: incident.endedAt,
          duration_ms: incident.durationMs,
          cause: incident.cause,
          opened_by_result_id: incident.openedByResultId,
          closed_by_result_id: incident.closedByResultId,
        })
        .execute();
    },
    async findOpen(monitorId: string): Promise<MonitorIncidentRecord | undefined> {
      const row = await db
        .selectFrom("monitor_incidents")
        .selectAll()
        .where("monitor_id", "=", monitorId)
        .where("ended_at", "is", null)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async close(
      id: string,
      end: { endedAt: string; durationMs: number; closedByResultId: string },
    ): Promise<void> {
      await db
        .updateTable("monitor_incidents")
        .set({
          status: "resolved",
          ended_at: end.endedAt,
          duration_ms: end.durationMs,
          closed_by_result_id: end.closedByResultId,
        })
        .where("id", "=", id)
        .execute();
    },
    /** A page of a monitor's incidents, newest first. */
    async list(
      monitorId: string,
      page: { limit: number; offset: number },
    ): Promise<MonitorIncidentRecord[]> {
      const rows = await db
        .selectFrom("monitor_incidents")
        .selectAll()
        .where("monitor_id", "=", monitorId)
        .orderBy("started_at", "desc")
        .orderBy("id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toRecord);
    },
    async count(monitorId: string): Promise<number> {
      const row = await db
        .selectFrom("monitor_incidents")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("monitor_id", "=", monitorId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
export type MonitorIncidentRepository = ReturnType<typeof createMonitorIncidentRepository>;
