import type { Kysely } from "kysely";

/**
 * Whether a status page component shows its monitors' and alert rules' own incidents (and
 * counts their severity): a choice per component, on by default, as before this setting.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("status_page_components")
    .addColumn("publish_incidents", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("status_page_components").dropColumn("publish_incidents").execute();
}
