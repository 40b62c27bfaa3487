import type { Kysely } from "kysely";
import type { MetaSchema, ProjectRow } from "../schema.js";

export interface Project {
  id: string;
  orgId: string;
  name: string;
  createdAt: string;
}

const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  orgId: row.org_id,
  name: row.name,
  createdAt: row.created_at,
});

export function createProjectRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(project: Project): Promise<Project> {
      await db
        .insertInto("projects")
        .values({
          id: project.id,
          org_id: project.orgId,
          name: project.name,
          created_at: project.createdAt,
        })
        .execute();
      return project;
    },
    async findById(id: string): Promise<Project | undefined> {
      const row = await db
        .selectFrom("projects")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toProject(row);
    },
    async listByOrgs(orgIds: readonly string[]): Promise<Project[]> {
      if (orgIds.length === 0) return [];
      const rows = await db
        .selectFrom("projects")
        .selectAll()
        .where("org_id", "in", orgIds)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(toProject);
    },
  };
}
export type ProjectRepository = ReturnType<typeof createProjectRepository>;
