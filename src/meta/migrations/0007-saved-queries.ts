import type { Kysely } from "kysely";

// TQL queries saved by name in a project, for the dashboard's query editor.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("saved_queries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("query", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    // Names are how people find a query again: one per project. The index also lists a project's.
    .addUniqueConstraint("saved_queries_project_name_uq", ["project_id", "name"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("saved_queries").execute();
}
