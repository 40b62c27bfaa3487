import type { Kysely } from "kysely";

/**
 * `vigil tql` and `vigil demo` used to revoke their temporary key when done, so every run left
 * one in the key list; they now delete it. This removes those left before. An active one (its
 * CLI was killed) stays visible, to be revoked. The name is the CLI's, as it was then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const meta = db as Kysely<{ api_keys: { name: string; revoked_at: string | null } }>;
  await meta
    .deleteFrom("api_keys")
    .where("name", "=", "vigil-cli (temporary)")
    .where("revoked_at", "is not", null)
    .execute();
}

/** Deleted keys stay deleted: they were revoked, and nothing refers to them. */
export async function down(): Promise<void> {}
