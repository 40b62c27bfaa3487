import type { Kysely } from "kysely";
import type { MetaSchema, SavedQueryRow } from "../schema.js";

/** A TQL query saved by name in a project. */
export interface SavedQueryRecord {
  id: string;
  projectId: string;
  name: string;
  description: string;
  query: string;
  /** The user who saved it first; null once that user is gone. */
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

const toRecord = (row: SavedQueryRow): SavedQueryRecord => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  description: row.description,
  query: row.query,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createSavedQueryRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(saved: SavedQueryRecord): Promise<SavedQueryRecord> {
      await db
        .insertInto("saved_queries")
        .values({
          id: saved.id,
          project_id: saved.projectId,
          name: saved.name,
          description: saved.description,
          query: saved.query,
          created_by: saved.createdBy,
          created_at: saved.createdAt,
          updated_at: saved.updatedAt,
        })
        .execute();
      return saved;
    },
    async findById(id: string): Promise<SavedQueryRecord | undefined> {
      const row = await db
        .selectFrom("saved_queries")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async findByName(projectId: string, name: string): Promise<SavedQueryRecord | undefined> {
      const row = await db
        .selectFrom("saved_queries")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("name", "=", name)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** A project's saved queries, in no particular order (the verb sorts them by name). */
    async listByProject(projectId: string): Promise<SavedQueryRecord[]> {
      const rows = await db
        .selectFrom("saved_queries")
        .selectAll()
        .where("project_id", "=", projectId)
        .execute();
      return rows.map(toRecord);
    },
    async update(
      id: string,
      change: Pick<SavedQueryRecord, "name" | "description" | "query" | "updatedAt">,
    ): Promise<void> {
      await db
        .updateTable("saved_queries")
        .set({
          name: change.name,
          description: change.description,
          query: change.query,
          updated_at: change.updatedAt,
        })
        .where("id", "=", id)
        .execute();
    },
    /** False when it was already gone. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("saved_queries").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type SavedQueryRepository = ReturnType<typeof createSavedQueryRepository>;
