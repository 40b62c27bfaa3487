import type { Kysely } from "kysely";

// Webhook endpoints, the durable delivery queue (one row per message and endpoint) and the
// attempt log.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("url", "text", (c) => c.notNull())
    // JSON array of the subscribed event types.
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("is_active", "integer", (c) => c.notNull())
    // The signing secret, sealed with the server key; never returned after creation.
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("webhook_endpoints_project_idx")
    .on("webhook_endpoints")
    .column("project_id")
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("endpoint_id", "text", (c) =>
      c.notNull().references("webhook_endpoints.id").onDelete("cascade"),
    )
    // The webhook-id header: the same for every attempt.
    .addColumn("message_id", "text", (c) => c.notNull())
    // The id of the event that caused it, so publishing one event twice enqueues it once.
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    // JSON of the event's data.
    .addColumn("payload", "text", (c) => c.notNull())
    // pending | succeeded | failed
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    // When a pending delivery is due, or leased until while an attempt is in flight.
    .addColumn("next_attempt_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .addUniqueConstraint("webhook_deliveries_event_uq", ["endpoint_id", "event_id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_due_idx")
    .on("webhook_deliveries")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_finished_idx")
    .on("webhook_deliveries")
    .column("finished_at")
    .execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("delivery_id", "text", (c) =>
      c.notNull().references("webhook_deliveries.id").onDelete("cascade"),
    )
    .addColumn("endpoint_id", "text", (c) =>
      c.notNull().references("webhook_endpoints.id").onDelete("cascade"),
    )
    .addColumn("message_id", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    // The receiver's HTTP status, or 0 for a network error or timeout.
    .addColumn("status_code", "integer", (c) => c.notNull())
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("success", "integer", (c) => c.notNull())
    // The first 500 characters of the response body, or what went wrong.
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("webhook_attempts_endpoint_time_idx")
    .on("webhook_attempts")
    .columns(["endpoint_id", "created_at"])
    .execute();
  // The retention sweep deletes by age.
  await db.schema
    .createIndex("webhook_attempts_time_idx")
    .on("webhook_attempts")
    .column("created_at")
    .execute();
  await db.schema
    .createIndex("webhook_attempts_delivery_idx")
    .on("webhook_attempts")
    .column("delivery_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["webhook_attempts", "webhook_deliveries", "webhook_endpoints"]) {
    await db.schema.dropTable(table).execute();
  }
}
