import type { Kysely } from "kysely";

// Status page subscribers (docs/status-page-subscribers.md): email (double opt-in) and webhook
// subscribers of a page, the outbox of what they are sent, and per page what was announced.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("status_page_subscribers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("page_id", "text", (c) =>
      c.notNull().references("status_pages.id").onDelete("cascade"),
    )
    // email | webhook
    .addColumn("kind", "text", (c) => c.notNull())
    // The email address (lowercased) or the webhook URL.
    .addColumn("address", "text", (c) => c.notNull())
    // pending (email not yet confirmed) | confirmed
    .addColumn("status", "text", (c) => c.notNull())
    // JSON array of the page's component ids; empty for the whole page.
    .addColumn("component_ids", "text", (c) => c.notNull())
    // A webhook's signing secret, sealed with the server key (shown once).
    .addColumn("secret", "text")
    // sha256 hex of the confirmation token (single use), and when it expires.
    .addColumn("confirm_token_hash", "text")
    .addColumn("confirm_expires_at", "text")
    // sha256 hex of the unsubscribe token, and the token sealed to put in every email.
    .addColumn("unsubscribe_token_hash", "text", (c) => c.notNull())
    .addColumn("unsubscribe_token", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("confirmed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("status_page_subscribers_address_uq", ["page_id", "address"])
    .execute();
  await db.schema
    .createIndex("status_page_subscribers_confirm_idx")
    .on("status_page_subscribers")
    .column("confirm_token_hash")
    .execute();
  await db.schema
    .createIndex("status_page_subscribers_unsubscribe_idx")
    .on("status_page_subscribers")
    .column("unsubscribe_token_hash")
    .unique()
    .execute();
  // Unconfirmed subscribers expire: the sweep finds them by status and expiry.
  await db.schema
    .createIndex("status_page_subscribers_expiry_idx")
    .on("status_page_subscribers")
    .columns(["status", "confirm_expires_at"])
    .execute();

  // Per page: the data version and the incidents / windows (with their state) announced so far.
  await db.schema
    .createTable("status_page_subscriber_cursors")
    .addColumn("page_id", "text", (c) =>
      c.primaryKey().references("status_pages.id").onDelete("cascade"),
    )
    .addColumn("data_version", "integer", (c) => c.notNull())
    // JSON of what was announced; null until the page is first read.
    .addColumn("snapshot", "text")
    .addColumn("checked_at", "text", (c) => c.notNull())
    .execute();

  // The outbox: one row per message to one subscriber, sent by the worker with retries.
  await db.schema
    .createTable("status_page_notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("page_id", "text", (c) =>
      c.notNull().references("status_pages.id").onDelete("cascade"),
    )
    .addColumn("subscriber_id", "text", (c) =>
      c.notNull().references("status_page_subscribers.id").onDelete("cascade"),
    )
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    // pending | sent | failed
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("next_attempt_at", "text")
    .addColumn("sent_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("status_page_notifications_due_idx")
    .on("status_page_notifications")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("status_page_notifications_subscriber_idx")
    .on("status_page_notifications")
    .column("subscriber_id")
    .execute();
  await db.schema
    .createIndex("status_page_notifications_created_idx")
    .on("status_page_notifications")
    .column("created_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("status_page_notifications").execute();
  await db.schema.dropTable("status_page_subscriber_cursors").execute();
  await db.schema.dropTable("status_page_subscribers").execute();
}
