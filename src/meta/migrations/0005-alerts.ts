import type { Kysely } from "kysely";

// Alert rules, their channels, per-series state and the fire/resolve event log; alert
// notifications in the outbox name their rule.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("alert_rules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("severity", "text", (c) => c.notNull())
    // JSON of the validated AlertRuleDefinition (without channelIds, kept in alert_rule_channels).
    .addColumn("definition", "text", (c) => c.notNull())
    // The TQL actually evaluated: the user's query, or the preset compiled.
    .addColumn("query", "text", (c) => c.notNull())
    .addColumn("muted", "integer", (c) => c.notNull())
    // Null while muted means muted indefinitely.
    .addColumn("muted_until", "text")
    // ok | pending | firing | error
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("last_evaluated_at", "text")
    .addColumn("last_duration_ms", "integer")
    .addColumn("last_value", "double precision")
    .addColumn("last_series", "integer")
    .addColumn("last_error", "text")
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("alert_rules_project_name_uq", ["project_id", "name"])
    .execute();

  await db.schema
    .createTable("alert_rule_channels")
    .addColumn("rule_id", "text", (c) =>
      c.notNull().references("alert_rules.id").onDelete("cascade"),
    )
    .addColumn("channel_id", "text", (c) =>
      c.notNull().references("notification_channels.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("alert_rule_channels_pk", ["rule_id", "channel_id"])
    .execute();
  await db.schema
    .createIndex("alert_rule_channels_channel_idx")
    .on("alert_rule_channels")
    .column("channel_id")
    .execute();

  await db.schema
    .createTable("alert_series")
    .addColumn("rule_id", "text", (c) =>
      c.notNull().references("alert_rules.id").onDelete("cascade"),
    )
    // The labels sorted by name, JSON-encoded ("{}" for a rule without label columns).
    .addColumn("series_key", "text", (c) => c.notNull())
    .addColumn("labels", "text", (c) => c.notNull())
    // ok | pending | firing
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("pending_since", "text")
    .addColumn("fired_at", "text")
    .addColumn("last_value", "double precision")
    .addColumn("last_evaluated_at", "text")
    .addColumn("last_notified_at", "text")
    .addColumn("incident_id", "text")
    .addPrimaryKeyConstraint("alert_series_pk", ["rule_id", "series_key"])
    .execute();

  await db.schema
    .createTable("alert_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("rule_id", "text", (c) =>
      c.notNull().references("alert_rules.id").onDelete("cascade"),
    )
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("series_key", "text", (c) => c.notNull())
    .addColumn("labels", "text", (c) => c.notNull())
    // pending | fired | resolved | renotified | error | recovered_from_error | no_data
    .addColumn("kind", "text", (c) => c.notNull())
    // The rule's severity when the event happened: the dashboard counts fires by it.
    .addColumn("severity", "text", (c) => c.notNull())
    .addColumn("value", "double precision")
    .addColumn("threshold", "double precision", (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    // 0 while the rule was muted: recorded, not notified.
    .addColumn("notified", "integer", (c) => c.notNull())
    .addColumn("incident_id", "text")
    // The rendered message template, or the error text.
    .addColumn("message", "text")
    .execute();
  await db.schema
    .createIndex("alert_events_project_time_idx")
    .on("alert_events")
    .columns(["project_id", "at"])
    .execute();
  await db.schema
    .createIndex("alert_events_rule_time_idx")
    .on("alert_events")
    .columns(["rule_id", "at"])
    .execute();
  // A resolve's fire (the latest fire of its series before it), for the time to resolve.
  await db.schema
    .createIndex("alert_events_series_kind_time_idx")
    .on("alert_events")
    .columns(["rule_id", "series_key", "kind", "at"])
    .execute();

  // An alert notification names its rule (monitor_id stays null for those).
  await db.schema
    .alterTable("notification_deliveries")
    .addColumn("rule_id", "text", (c) => c.references("alert_rules.id").onDelete("cascade"))
    .execute();
  // Deleting a rule cascades to its deliveries: without an index each delete scans them all.
  await db.schema
    .createIndex("notification_deliveries_rule_idx")
    .on("notification_deliveries")
    .column("rule_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("notification_deliveries_rule_idx").execute();
  await db.schema.alterTable("notification_deliveries").dropColumn("rule_id").execute();
  for (const table of ["alert_events", "alert_series", "alert_rule_channels", "alert_rules"]) {
    await db.schema.dropTable(table).execute();
  }
}
