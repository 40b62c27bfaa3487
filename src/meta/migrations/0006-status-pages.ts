import type { Kysely } from "kysely";

// Status pages of an organization (docs/design.md §4): components bound to monitors and alert rules,
// maintenance windows, and one precomputed row per component per UTC day for the history.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("status_pages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("org_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("logo_url", "text")
    .addColumn("links", "text", (c) => c.notNull())
    .addColumn("timezone", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("state_changed_at", "text", (c) => c.notNull())
    .addColumn("data_version", "integer", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("status_pages_org_idx")
    .on("status_pages")
    .columns(["org_id", "id"])
    .execute();

  await db.schema
    .createTable("status_page_groups")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("page_id", "text", (c) =>
      c.notNull().references("status_pages.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addUniqueConstraint("status_page_groups_page_name_uq", ["page_id", "name"])
    .execute();

  await db.schema
    .createTable("status_page_components")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("page_id", "text", (c) =>
      c.notNull().references("status_pages.id").onDelete("cascade"),
    )
    .addColumn("group_id", "text", (c) =>
      c.references("status_page_groups.id").onDelete("set null"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("state_changed_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("status_page_components_page_idx")
    .on("status_page_components")
    .columns(["page_id", "position"])
    .execute();

  // Two link tables rather than one polymorphic one, so deleting a monitor or a rule cascades.
  for (const [table, column, target] of [
    ["status_page_component_monitors", "monitor_id", "monitors.id"],
    ["status_page_component_rules", "rule_id", "alert_rules.id"],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn("component_id", "text", (c) =>
        c.notNull().references("status_page_components.id").onDelete("cascade"),
      )
      .addColumn(column, "text", (c) => c.notNull().references(target).onDelete("cascade"))
      .addPrimaryKeyConstraint(`${table}_pk`, ["component_id", column])
      .execute();
    // A check or an evaluation finds the components it feeds through this index.
    await db.schema.createIndex(`${table}_source_idx`).on(table).column(column).execute();
  }

  await db.schema
    .createTable("status_page_maintenances")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("page_id", "text", (c) =>
      c.notNull().references("status_pages.id").onDelete("cascade"),
    )
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("starts_at", "text", (c) => c.notNull())
    .addColumn("ends_at", "text", (c) => c.notNull())
    // scheduled | in_progress | completed
    .addColumn("phase", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("status_page_maintenances_page_idx")
    .on("status_page_maintenances")
    .columns(["page_id", "starts_at"])
    .execute();
  // The ticker finds windows whose edge has passed: phase not yet moved.
  await db.schema
    .createIndex("status_page_maintenances_phase_idx")
    .on("status_page_maintenances")
    .columns(["phase", "starts_at"])
    .execute();

  await db.schema
    .createTable("status_page_maintenance_components")
    .addColumn("maintenance_id", "text", (c) =>
      c.notNull().references("status_page_maintenances.id").onDelete("cascade"),
    )
    .addColumn("component_id", "text", (c) =>
      c.notNull().references("status_page_components.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("status_page_maintenance_components_pk", [
      "maintenance_id",
      "component_id",
    ])
    .execute();
  await db.schema
    .createIndex("status_page_maintenance_components_component_idx")
    .on("status_page_maintenance_components")
    .column("component_id")
    .execute();

  // Components an incident affects beyond those its source feeds (incidents opened by hand).
  await db.schema
    .createTable("status_page_incident_components")
    .addColumn("incident_id", "text", (c) =>
      c.notNull().references("incidents.id").onDelete("cascade"),
    )
    .addColumn("component_id", "text", (c) =>
      c.notNull().references("status_page_components.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("status_page_incident_components_pk", ["incident_id", "component_id"])
    .execute();
  await db.schema
    .createIndex("status_page_incident_components_component_idx")
    .on("status_page_incident_components")
    .column("component_id")
    .execute();

  await db.schema
    .createTable("status_page_days")
    .addColumn("component_id", "text", (c) =>
      c.notNull().references("status_page_components.id").onDelete("cascade"),
    )
    .addColumn("page_id", "text", (c) =>
      c.notNull().references("status_pages.id").onDelete("cascade"),
    )
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("checks_run", "integer", (c) => c.notNull())
    .addColumn("checks_passed", "integer", (c) => c.notNull())
    .addColumn("checks_in_maintenance", "integer", (c) => c.notNull())
    .addColumn("down_ms", "bigint", (c) => c.notNull())
    .addColumn("degraded_ms", "bigint", (c) => c.notNull())
    .addColumn("maintenance_ms", "bigint", (c) => c.notNull())
    .addColumn("worst_state", "text", (c) => c.notNull())
    .addColumn("maintenance", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("status_page_days_pk", ["component_id", "day"])
    .execute();
  // A page's 90 days in one read.
  await db.schema
    .createIndex("status_page_days_page_idx")
    .on("status_page_days")
    .columns(["page_id", "day"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "status_page_days",
    "status_page_incident_components",
    "status_page_maintenance_components",
    "status_page_maintenances",
    "status_page_component_rules",
    "status_page_component_monitors",
    "status_page_components",
    "status_page_groups",
    "status_pages",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
