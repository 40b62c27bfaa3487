import type { Kysely } from "kysely";
import type { DashboardRow, MetaSchema } from "../schema.js";

/** A dashboard as listed: everything but its document. */
export interface DashboardSummaryRecord {
  id: string;
  projectId: string;
  title: string;
  description: string;
  tags: string[];
  panelCount: number;
  version: number;
  /** The template it was installed from, if any. */
  templateId: string | null;
  /** The user who created it; null once that user is gone (or an API key or the system did). */
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A dashboard with its document (JSON, opaque here: the domain validated it before writing). */
export interface DashboardRecord extends DashboardSummaryRecord {
  document: unknown;
}

/** What a save replaces; the version is raised by one in the same statement. */
export type DashboardChange = Pick<
  DashboardRecord,
  "title" | "description" | "tags" | "panelCount" | "document" | "updatedAt"
>;

const SUMMARY_COLUMNS = [
  "id",
  "project_id",
  "title",
  "description",
  "tags",
  "panel_count",
  "version",
  "template_id",
  "created_by",
  "created_at",
  "updated_at",
] as const;

function parseTags(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

const toSummary = (row: Omit<DashboardRow, "document">): DashboardSummaryRecord => ({
  id: row.id,
  projectId: row.project_id,
  title: row.title,
  description: row.description,
  tags: parseTags(row.tags),
  panelCount: Number(row.panel_count),
  version: Number(row.version),
  templateId: row.template_id,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toRecord = (row: DashboardRow): DashboardRecord => ({
  ...toSummary(row),
  document: JSON.parse(row.document),
});

export function createDashboardRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(dashboard: DashboardRecord): Promise<DashboardRecord> {
      await db
        .insertInto("dashboards")
        .values({
          id: dashboard.id,
          project_id: dashboard.projectId,
          title: dashboard.title,
          description: dashboard.description,
          tags: JSON.stringify(dashboard.tags),
          panel_count: dashboard.panelCount,
          document: JSON.stringify(dashboard.document),
          version: dashboard.version,
          template_id: dashboard.templateId,
          created_by: dashboard.createdBy,
          created_at: dashboard.createdAt,
          updated_at: dashboard.updatedAt,
        })
        .execute();
      return dashboard;
    },
    async findById(id: string): Promise<DashboardRecord | undefined> {
      const row = await db
        .selectFrom("dashboards")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** A project's dashboards without their documents, in no particular order (the verb sorts). */
    async listByProject(projectId: string): Promise<DashboardSummaryRecord[]> {
      const rows = await db
        .selectFrom("dashboards")
        .select(SUMMARY_COLUMNS)
        .where("project_id", "=", projectId)
        .execute();
      return rows.map(toSummary);
    },
    /**
     * Saves a change made on `version`: one statement that matches only while the stored version
     * is still that one, and raises it by one. False when it was not (another save came first,
     * or the dashboard is gone), so two saves made on the same version cannot both succeed.
     */
    async update(id: string, version: number, change: DashboardChange): Promise<boolean> {
      const result = await db
        .updateTable("dashboards")
        .set((eb) => ({
          title: change.title,
          description: change.description,
          tags: JSON.stringify(change.tags),
          panel_count: change.panelCount,
          document: JSON.stringify(change.document),
          updated_at: change.updatedAt,
          version: eb("version", "+", 1),
        }))
        .where("id", "=", id)
        .where("version", "=", version)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** False when it was already gone; its stars go with it. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("dashboards").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** Stars or unstars a dashboard for one user; starring twice is one star. */
    async setStar(userId: string, dashboardId: string, starred: boolean, at: string) {
      if (starred)
        await db
          .insertInto("dashboard_stars")
          .values({ user_id: userId, dashboard_id: dashboardId, created_at: at })
          .onConflict((oc) => oc.columns(["user_id", "dashboard_id"]).doNothing())
          .execute();
      else
        await db
          .deleteFrom("dashboard_stars")
          .where("user_id", "=", userId)
          .where("dashboard_id", "=", dashboardId)
          .execute();
    },
    /** The ids of the project's dashboards the user starred. */
    async starredIn(userId: string, projectId: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom("dashboard_stars")
        .innerJoin("dashboards", "dashboards.id", "dashboard_stars.dashboard_id")
        .select("dashboard_stars.dashboard_id")
        .where("dashboard_stars.user_id", "=", userId)
        .where("dashboards.project_id", "=", projectId)
        .execute();
      return new Set(rows.map((r) => r.dashboard_id));
    },
    async isStarred(userId: string, dashboardId: string): Promise<boolean> {
      const row = await db
        .selectFrom("dashboard_stars")
        .select("dashboard_id")
        .where("user_id", "=", userId)
        .where("dashboard_id", "=", dashboardId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
