import type { Kysely } from "kysely";

// Saved views (docs/explore.md): an explorer's location saved by name for the project.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("saved_views")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    // A path and query string of the app, at most 4 KB (checked by the contract).
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    // One name per explorer in a project; the index also lists a project's views of a kind, and
    // serves the project delete's cascade.
    .addUniqueConstraint("saved_views_project_kind_name_uq", ["project_id", "kind", "name"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("saved_views").execute();
}
