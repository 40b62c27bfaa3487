import type { Kysely } from "kysely";
import type { MetaSchema, SavedViewRow } from "../schema.js";

/** An explorer's location saved by name in a project. */
export interface SavedViewRecord {
  id: string;
  projectId: string;
  /** Which explorer (the contract's SavedViewKind). */
  kind: string;
  name: string;
  url: string;
  /** The user who saved it; null once that user is gone. */
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

const toRecord = (row: SavedViewRow): SavedViewRecord => ({
  id: row.id,
  projectId: row.project_id,
  kind: row.kind,
  name: row.name,
  url: row.url,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createSavedViewRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(view: SavedViewRecord): Promise<SavedViewRecord> {
      await db
        .insertInto("saved_views")
        .values({
          id: view.id,
          project_id: view.projectId,
          kind: view.kind,
          name: view.name,
          url: view.url,
          created_by: view.createdBy,
          created_at: view.createdAt,
          updated_at: view.updatedAt,
        })
        .execute();
      return view;
    },
    async findById(id: string): Promise<SavedViewRecord | undefined> {
      const row = await db
        .selectFrom("saved_views")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async findByName(
      projectId: string,
      kind: string,
      name: string,
    ): Promise<SavedViewRecord | undefined> {
      const row = await db
        .selectFrom("saved_views")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("kind", "=", kind)
        .where("name", "=", name)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** A project's saved views, of one kind when given, in no particular order. */
    async listByProject(projectId: string, kind?: string): Promise<SavedViewRecord[]> {
      let query = db.selectFrom("saved_views").selectAll().where("project_id", "=", projectId);
      if (kind !== undefined) query = query.where("kind", "=", kind);
      return (await query.execute()).map(toRecord);
    },
    async update(
      id: string,
      change: Pick<SavedViewRecord, "name" | "url" | "updatedAt">,
    ): Promise<void> {
      await db
        .updateTable("saved_views")
        .set({ name: change.name, url: change.url, updated_at: change.updatedAt })
        .where("id", "=", id)
        .execute();
    },
    /** False when it was already gone. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("saved_views").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type SavedViewRepository = ReturnType<typeof createSavedViewRepository>;
