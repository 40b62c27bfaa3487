import { type Kysely, sql } from "kysely";

// HTTP monitors, their notification channels, check results, incidents and the notification outbox.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("notification_channels")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("config", "text", (c) => c.notNull())
    // The channel's secret settings (a Slack URL, …) as encrypted JSON; never returned.
    .addColumn("secret", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("notification_channels_project_name_uq", ["project_id", "name"])
    .execute();

  await db.schema
    .createTable("monitors")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("definition", "text", (c) => c.notNull())
    .addColumn("health", "text", (c) => c.notNull())
    .addColumn("failure_streak", "integer", (c) => c.notNull())
    .addColumn("last_checked_at", "text")
    .addColumn("last_result_id", "text")
    .addColumn("open_incident_id", "text")
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("monitors_project_idx").on("monitors").column("project_id").execute();

  await db.schema
    .createTable("monitor_channels")
    .addColumn("monitor_id", "text", (c) =>
      c.notNull().references("monitors.id").onDelete("cascade"),
    )
    .addColumn("channel_id", "text", (c) =>
      c.notNull().references("notification_channels.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("monitor_channels_pk", ["monitor_id", "channel_id"])
    .execute();
  await db.schema
    .createIndex("monitor_channels_channel_idx")
    .on("monitor_channels")
    .column("channel_id")
    .execute();

  await db.schema
    .createTable("monitor_results")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("monitor_id", "text", (c) =>
      c.notNull().references("monitors.id").onDelete("cascade"),
    )
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("passed", "integer", (c) => c.notNull())
    .addColumn("trigger", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("monitor_results_monitor_time_idx")
    .on("monitor_results")
    .columns(["monitor_id", "started_at"])
    .execute();
  await db.schema
    .createIndex("monitor_results_time_idx")
    .on("monitor_results")
    .column("started_at")
    .execute();

  await db.schema
    .createTable("monitor_incidents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("monitor_id", "text", (c) =>
      c.notNull().references("monitors.id").onDelete("cascade"),
    )
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("ended_at", "text")
    .addColumn("duration_ms", "integer")
    .addColumn("cause", "text", (c) => c.notNull())
    .addColumn("opened_by_result_id", "text", (c) => c.notNull())
    .addColumn("closed_by_result_id", "text")
    .execute();
  await db.schema
    .createIndex("monitor_incidents_monitor_time_idx")
    .on("monitor_incidents")
    .columns(["monitor_id", "started_at"])
    .execute();
  // The spec's "at most one open incident per monitor", enforced by the database itself.
  await db.schema
    .createIndex("monitor_incidents_one_open_uq")
    .on("monitor_incidents")
    .column("monitor_id")
    .unique()
    .where(sql.ref("ended_at"), "is", null)
    .execute();

  await db.schema
    .createTable("notification_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("channel_id", "text", (c) =>
      c.notNull().references("notification_channels.id").onDelete("cascade"),
    )
    .addColumn("monitor_id", "text", (c) => c.references("monitors.id").onDelete("cascade"))
    .addColumn("incident_id", "text")
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("next_attempt_at", "text")
    .addColumn("sent_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("notification_deliveries_due_idx")
    .on("notification_deliveries")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("notification_deliveries_channel_idx")
    .on("notification_deliveries")
    .columns(["channel_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("notification_deliveries_incident_idx")
    .on("notification_deliveries")
    .column("incident_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "notification_deliveries",
    "monitor_incidents",
    "monitor_results",
    "monitor_channels",
    "monitors",
    "notification_channels",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
