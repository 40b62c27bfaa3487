import type { Kysely } from "kysely";

// Member invitations (docs/members.md): an email invited into an organization with a role, by a
// single-use link whose token is kept only as its SHA-256.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("invites")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("org_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("invited_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("accepted_at", "text")
    .addColumn("accepted_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("revoked_at", "text")
    .execute();
  // An organization's invitations, and one email's among them (a new invitation replaces it).
  await db.schema
    .createIndex("invites_org_email_idx")
    .on("invites")
    .columns(["org_id", "email"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("invites").execute();
}
