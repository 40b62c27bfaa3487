import { type Kysely, sql } from "kysely";
import { type PageState, STATE_RANK } from "../../contracts/status-pages.js";
import type { MetaSchema, StatusPageDayRow } from "../schema.js";

// Status page history: one row per component and UTC day (status_page_days), accrued by the
// state engine as checks are recorded and states move, read whole by the public payload.

/** Additions to one component's day row; worst_state keeps the worse of the two. */
export interface DayAccrual {
  componentId: string;
  pageId: string;
  day: string;
  checksRun?: number;
  checksPassed?: number;
  checksInMaintenance?: number;
  downMs?: number;
  degradedMs?: number;
  maintenanceMs?: number;
  worstState?: PageState;
  maintenance?: boolean;
  at: string;
}

/** One stored day of a component's history, as numbers. */
export interface StatusPageDayRecord {
  componentId: string;
  day: string;
  checksRun: number;
  checksPassed: number;
  checksInMaintenance: number;
  downMs: number;
  degradedMs: number;
  maintenanceMs: number;
  worstState: PageState;
  maintenance: boolean;
}

const toDay = (row: StatusPageDayRow): StatusPageDayRecord => ({
  componentId: row.component_id,
  day: row.day,
  checksRun: Number(row.checks_run),
  checksPassed: Number(row.checks_passed),
  checksInMaintenance: Number(row.checks_in_maintenance),
  downMs: Number(row.down_ms),
  degradedMs: Number(row.degraded_ms),
  maintenanceMs: Number(row.maintenance_ms),
  worstState: row.worst_state as PageState,
  maintenance: Number(row.maintenance) === 1,
});

// worst_state as a rank so the upsert can keep the higher one in plain SQL on both engines.
const RANKED = sql`case status_page_days.worst_state when 'down' then 2 when 'degraded' then 1 else 0 end`;

export function createStatusPageDayRepository(db: Kysely<MetaSchema>) {
  return {
    /** Checks counted so far on `day` for each of the components that has a row for it. */
    async checksRunOn(componentIds: readonly string[], day: string): Promise<Map<string, number>> {
      if (componentIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("status_page_days")
        .select(["component_id", "checks_run"])
        .where("component_id", "in", componentIds)
        .where("day", "=", day)
        .execute();
      return new Map(rows.map((r) => [r.component_id, Number(r.checks_run)]));
    },

    /**
     * Adds to a component's day row, creating it at zero: atomic on both engines, so checks of
     * two monitors of one component recorded at once both count.
     */
    async accrue(a: DayAccrual): Promise<void> {
      const worst = a.worstState ?? "operational";
      await db
        .insertInto("status_page_days")
        .values({
          component_id: a.componentId,
          page_id: a.pageId,
          day: a.day,
          checks_run: a.checksRun ?? 0,
          checks_passed: a.checksPassed ?? 0,
          checks_in_maintenance: a.checksInMaintenance ?? 0,
          down_ms: a.downMs ?? 0,
          degraded_ms: a.degradedMs ?? 0,
          maintenance_ms: a.maintenanceMs ?? 0,
          worst_state: worst,
          maintenance: a.maintenance ? 1 : 0,
          updated_at: a.at,
        })
        .onConflict((oc) =>
          oc.columns(["component_id", "day"]).doUpdateSet((eb) => ({
            checks_run: eb("status_page_days.checks_run", "+", eb.ref("excluded.checks_run")),
            checks_passed: eb(
              "status_page_days.checks_passed",
              "+",
              eb.ref("excluded.checks_passed"),
            ),
            checks_in_maintenance: eb(
              "status_page_days.checks_in_maintenance",
              "+",
              eb.ref("excluded.checks_in_maintenance"),
            ),
            down_ms: eb("status_page_days.down_ms", "+", eb.ref("excluded.down_ms")),
            degraded_ms: eb("status_page_days.degraded_ms", "+", eb.ref("excluded.degraded_ms")),
            maintenance_ms: eb(
              "status_page_days.maintenance_ms",
              "+",
              eb.ref("excluded.maintenance_ms"),
            ),
            worst_state: sql<string>`case when ${RANKED} >= ${STATE_RANK[worst]} then status_page_days.worst_state else ${worst} end`,
            maintenance: sql<number>`case when status_page_days.maintenance = 1 or excluded.maintenance = 1 then 1 else 0 end`,
            updated_at: eb.ref("excluded.updated_at"),
          })),
        )
        .execute();
    },

    /** A page's history rows from `fromDay` on (one indexed read for all its components). */
    async days(pageId: string, fromDay: string): Promise<StatusPageDayRecord[]> {
      const rows = await db
        .selectFrom("status_page_days")
        .selectAll()
        .where("page_id", "=", pageId)
        .where("day", ">=", fromDay)
        .execute();
      return rows.map(toDay);
    },

    /** Drops history rows no page shows any more; says how many went. */
    async deleteDaysBefore(day: string): Promise<number> {
      const result = await db
        .deleteFrom("status_page_days")
        .where("day", "<", day)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type StatusPageDayRepository = ReturnType<typeof createStatusPageDayRepository>;
