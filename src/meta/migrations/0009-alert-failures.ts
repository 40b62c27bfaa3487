import type { Kysely } from "kysely";

/**
 * How long an alert rule's evaluations have kept failing: consecutive failures and since when.
 * Shown on the rule, and a rule failing again and again is evaluated less often (ADR 0021).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("alert_rules")
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("alert_rules").addColumn("failing_since", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("alert_rules").dropColumn("failing_since").execute();
  await db.schema.alterTable("alert_rules").dropColumn("failures").execute();
}
