import type { Kysely } from "kysely";

/**
 * Responding to an incident (docs/incidents.md "Acknowledge, assign, severity"): who
 * acknowledged it and when (a user, or a one-click link sent by a channel), who it is assigned
 * to (a member of the project's organization), and the acknowledge links' tokens: stored as the
 * SHA-256 of the token only, single use, expiring.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable("incidents").addColumn("acknowledged_at", "text").execute();
  // user | link | system
  await db.schema.alterTable("incidents").addColumn("acknowledged_by_kind", "text").execute();
  // The user's id, or the channel's that sent the link (null when it has since been deleted).
  await db.schema.alterTable("incidents").addColumn("acknowledged_by_id", "text").execute();
  // A readable name kept with it (the user's name, the channel's name and type).
  await db.schema.alterTable("incidents").addColumn("acknowledged_by_label", "text").execute();
  // No foreign key (users are never deleted, and SQLite cannot drop a column that has one): the
  // assign verb checks the user is a member of the project's organization.
  await db.schema.alterTable("incidents").addColumn("assignee_id", "text").execute();

  await db.schema
    .createTable("incident_ack_links")
    // sha256 hex of the random token; the token itself is never stored.
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("incident_id", "text", (c) =>
      c.notNull().references("incidents.id").onDelete("cascade"),
    )
    .addColumn("channel_id", "text", (c) =>
      c.references("notification_channels.id").onDelete("set null"),
    )
    // What sent it, as the timeline will name the acknowledger ("Ops email (email)").
    .addColumn("via_label", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  // An incident's links: the cascade, and pruning its expired links when a new one is minted.
  await db.schema
    .createIndex("incident_ack_links_incident_idx")
    .on("incident_ack_links")
    .columns(["incident_id", "expires_at"])
    .execute();
  await db.schema
    .createIndex("incident_ack_links_channel_idx")
    .on("incident_ack_links")
    .columns(["channel_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("incident_ack_links").execute();
  for (const column of [
    "assignee_id",
    "acknowledged_by_label",
    "acknowledged_by_id",
    "acknowledged_by_kind",
    "acknowledged_at",
  ])
    await db.schema.alterTable("incidents").dropColumn(column).execute();
}
