import type { Kysely } from "kysely";

// Dashboards (docs/dashboards.md): a project's panels on a grid, and who starred which.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("dashboards")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    // Title, description, tags and the panel count are columns so a list reads no document.
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    // JSON array of strings.
    .addColumn("tags", "text", (c) => c.notNull())
    .addColumn("panel_count", "integer", (c) => c.notNull())
    // JSON of the rest of the validated body: time range, refresh, variables, panels, rows.
    .addColumn("document", "text", (c) => c.notNull())
    // Raised by one with every save; a save names the version it was made on (stale → 409).
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("template_id", "text")
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("dashboards_project_idx")
    .on("dashboards")
    .column("project_id")
    .execute();

  await db.schema
    .createTable("dashboard_stars")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("dashboard_id", "text", (c) =>
      c.notNull().references("dashboards.id").onDelete("cascade"),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("dashboard_stars_pk", ["user_id", "dashboard_id"])
    .execute();
  // A dashboard's delete cascades to its stars through this index.
  await db.schema
    .createIndex("dashboard_stars_dashboard_idx")
    .on("dashboard_stars")
    .column("dashboard_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("dashboard_stars").execute();
  await db.schema.dropTable("dashboards").execute();
}
