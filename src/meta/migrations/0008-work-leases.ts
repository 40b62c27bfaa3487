import type { Kysely } from "kysely";

/**
 * Leases that divide periodic work (monitors, alert rules) among worker processes, and the
 * workers' heartbeats: a lease holds while its owner's heartbeat does, so renewing a worker's
 * whole share is one row. See docs/adr/0013-roles-and-work-leases.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("work_leases")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("entity_id", "text", (c) => c.notNull())
    // The worker holding it (a workers.id); null when free. Its lease ends with that heartbeat.
    .addColumn("owner", "text")
    // The fencing token: raised by every claim, checked by every write made under the lease.
    .addColumn("token", "bigint", (c) => c.notNull().defaultTo(0))
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
