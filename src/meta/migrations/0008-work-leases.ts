import type { Kysely } from "kysely";

/**
 * Leases that divide periodic work (monitors, alert rules) among worker processes, and the
 * workers' heartbeats that tell each one its share. See docs/adr/0013-work-leases.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("work_leases")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("entity_id", "text", (c) => c.notNull())
    // The worker holding it; null when free.
    .addColumn("owner", "text")
    // The fencing token: raised by every claim, checked by every write made under the lease.
    .addColumn("token", "bigint", (c) => c.notNull().defaultTo(0))
    // ISO time the lease ends unless renewed; '' when free.
    .addColumn("expires_at", "text", (c) => c.notNull().defaultTo(""))
    // Epoch ms of the last slot whose run was recorded; 0 before the first.
    .addColumn("last_slot", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("work_leases_pk", ["kind", "entity_id"])
    .execute();
  await db.schema
    .createIndex("work_leases_owner_idx")
    .on("work_leases")
    .columns(["kind", "owner"])
    .execute();
  await db.schema
    .createIndex("work_leases_expiry_idx")
    .on("work_leases")
    .columns(["kind", "expires_at"])
    .execute();
  await db.schema
    .createTable("workers")
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("workers_pk", ["id", "kind"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("workers").execute();
  await db.schema.dropTable("work_leases").execute();
}
