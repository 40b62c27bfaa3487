import type { Kysely } from "kysely";

/**
 * Escalation policies (docs/escalation.md): a project's ordered steps of channels with delays,
 * repeated, and each incident's escalation as it runs: a copy of the policy taken when the
 * incident opened (an edit applies to the next incidents), the next step and when it is due.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("escalation_policies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("project_id", "text", (c) =>
      c.notNull().references("projects.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    // JSON array of {delayMinutes, channelIds}, 1–10 steps (checked by the contract).
    .addColumn("steps", "text", (c) => c.notNull())
    .addColumn("repeat", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    // One name per project; the index also serves the project delete's cascade.
    .addUniqueConstraint("escalation_policies_project_name_uq", ["project_id", "name"])
    .execute();

  await db.schema
    .createTable("incident_escalations")
    .addColumn("incident_id", "text", (c) =>
      c.primaryKey().references("incidents.id").onDelete("cascade"),
    )
    .addColumn("project_id", "text", (c) => c.notNull())
    // No foreign key: the policy may be deleted while an escalation runs on its copy.
    .addColumn("policy_id", "text", (c) => c.notNull())
    // JSON copy of the policy as it was when the incident opened: {name, steps, repeat}.
    .addColumn("policy", "text", (c) => c.notNull())
    // JSON: the incident's problem notification (monitor.down or alert.fired) each step resends.
    .addColumn("payload", "text", (c) => c.notNull())
    // active | stopped (acknowledged, resolved) | completed (every step of every round sent)
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("stop_reason", "text")
    // The next step to send (0-based) and its round (1-based).
    .addColumn("step", "integer", (c) => c.notNull())
    .addColumn("round", "integer", (c) => c.notNull())
    // When the next step is due; null once stopped or completed.
    .addColumn("next_at", "text")
    // A worker's claim: others skip the row until then; a dead worker's claim runs out.
    .addColumn("claimed_until", "text")
    // The fence: raised by every claim and every write; a write names the one it read.
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // The worker's two questions: which active escalations are due, and which may have to stop.
  await db.schema
    .createIndex("incident_escalations_due_idx")
    .on("incident_escalations")
    .columns(["status", "next_at"])
    .execute();
  await db.schema
    .createIndex("incident_escalations_project_idx")
    .on("incident_escalations")
    .columns(["project_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("incident_escalations").execute();
  await db.schema.dropTable("escalation_policies").execute();
}
