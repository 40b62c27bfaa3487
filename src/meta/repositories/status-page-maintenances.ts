import type { Kysely } from "kysely";
import type { MaintenancePhase } from "../../contracts/status-pages.js";
import type { MetaSchema, StatusPageMaintenanceRow } from "../schema.js";
import { links } from "./links.js";

// A status page's maintenance windows and the components each covers. The phase is written
// from the clock by the management verbs and moved at the edges by the state engine's ticker.

export interface StatusPageMaintenanceRecord {
  id: string;
  pageId: string;
  title: string;
  message: string;
  startsAt: string;
  endsAt: string;
  phase: MaintenancePhase;
  componentIds: string[];
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

const toMaintenance = (
  row: StatusPageMaintenanceRow,
  componentIds: string[],
): StatusPageMaintenanceRecord => ({
  id: row.id,
  pageId: row.page_id,
  title: row.title,
  message: row.message,
  startsAt: row.starts_at,
  endsAt: row.ends_at,
  phase: row.phase as MaintenancePhase,
  componentIds,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createStatusPageMaintenanceRepository(db: Kysely<MetaSchema>) {
  const covered = links(db, {
    table: "status_page_maintenance_components",
    owner: "maintenance_id",
    item: "component_id",
  });
  const withComponents = (rows: StatusPageMaintenanceRow[]) => covered.attach(rows, toMaintenance);

  return {
    async insert(window: StatusPageMaintenanceRecord): Promise<void> {
      await db
        .insertInto("status_page_maintenances")
        .values({
          id: window.id,
          page_id: window.pageId,
          title: window.title,
          message: window.message,
          starts_at: window.startsAt,
          ends_at: window.endsAt,
          phase: window.phase,
          created_by: window.createdBy,
          created_at: window.createdAt,
          updated_at: window.updatedAt,
        })
        .execute();
      await covered.set(window.id, window.componentIds);
    },
    async findById(id: string): Promise<StatusPageMaintenanceRecord | undefined> {
      const row = await db
        .selectFrom("status_page_maintenances")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && (await withComponents([row]))[0];
    },
    /** A page's windows, latest start first. */
    async listByPage(pageId: string): Promise<StatusPageMaintenanceRecord[]> {
      const rows = await db
        .selectFrom("status_page_maintenances")
        .selectAll()
        .where("page_id", "=", pageId)
        .orderBy("starts_at", "desc")
        .orderBy("id", "desc")
        .execute();
      return withComponents(rows);
    },
    async update(
      id: string,
      change: Pick<
        StatusPageMaintenanceRecord,
        "title" | "message" | "startsAt" | "endsAt" | "phase" | "componentIds" | "updatedAt"
      >,
    ): Promise<void> {
      await db
        .updateTable("status_page_maintenances")
        .set({
          title: change.title,
          message: change.message,
          starts_at: change.startsAt,
          ends_at: change.endsAt,
          phase: change.phase,
          updated_at: change.updatedAt,
        })
        .where("id", "=", id)
        .execute();
      await covered.set(id, change.componentIds);
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom("status_page_maintenances").where("id", "=", id).execute();
    },
    /** Windows whose phase is behind the clock (started, or ended), with their components. */
    async behindClock(at: string): Promise<StatusPageMaintenanceRecord[]> {
      const rows = await db
        .selectFrom("status_page_maintenances")
        .selectAll()
        .where((eb) =>
          eb.or([
            eb.and([eb("phase", "=", "scheduled"), eb("starts_at", "<=", at)]),
            eb.and([eb("phase", "=", "in_progress"), eb("ends_at", "<=", at)]),
          ]),
        )
        .execute();
      return withComponents(rows);
    },
    async setPhase(id: string, phase: MaintenancePhase, at: string): Promise<void> {
      await db
        .updateTable("status_page_maintenances")
        .set({ phase, updated_at: at })
        .where("id", "=", id)
        .execute();
    },
    /** Deletes the page's windows that list no component any more. */
    async deleteEmpty(pageId: string): Promise<void> {
      await db
        .deleteFrom("status_page_maintenances")
        .where("page_id", "=", pageId)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("status_page_maintenance_components as mc")
                .select("mc.component_id")
                .whereRef("mc.maintenance_id", "=", "status_page_maintenances.id"),
            ),
          ),
        )
        .execute();
    },
  };
}
export type StatusPageMaintenanceRepository = ReturnType<
  typeof createStatusPageMaintenanceRepository
>;
