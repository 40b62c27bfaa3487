import type { Kysely } from "kysely";

/**
 * Heartbeat monitors (docs/heartbeats.md): one row per heartbeat monitor with its ping URL's
 * token (a sha-256 digest to find it by, the token itself sealed with the server key to show the
 * URL again) and the deadline the watcher looks for missed pings by.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("monitor_heartbeats")
    .addColumn("monitor_id", "text", (c) =>
      c.primaryKey().references("monitors.id").onDelete("cascade"),
    )
    // Hex sha-256 of the token: a ping looks its monitor up by it (unique, so indexed).
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    // The token sealed with the server key (lib/secret-box.ts): the monitor's pingUrl shows it.
    .addColumn("token_sealed", "text", (c) => c.notNull())
    .addColumn("last_ping_at", "text")
    // The last /start not yet followed by a success or failure ping (its duration's start).
    .addColumn("started_at", "text")
    // When a missing ping is recorded: last ping (or creation, resume) + period + grace, then one
    // period further each time. Null while the monitor is paused.
    .addColumn("next_deadline_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("monitor_heartbeats_deadline_idx")
    .on("monitor_heartbeats")
    .column("next_deadline_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("monitor_heartbeats").execute();
}
