import type { Kysely } from "kysely";
import type { ApiKeyRow, MetaSchema } from "../schema.js";

/** A stored API key: never the secret itself, only its SHA-256 and display prefix. */
export interface ApiKeyRecord {
  id: string;
  projectId: string;
  name: string;
  keyHash: string;
  keyPrefix: string;
  role: string;
  permissions: string[];
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

function parsePermissions(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === "string") : [];
}

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  keyHash: row.key_hash,
  keyPrefix: row.key_prefix,
  role: row.role,
  permissions: parsePermissions(row.permissions),
  createdBy: row.created_by,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

export function createApiKeyRepository(db: Kysely<MetaSchema>) {
  return {
    async insert(key: ApiKeyRecord): Promise<ApiKeyRecord> {
      await db
        .insertInto("api_keys")
        .values({
          id: key.id,
          project_id: key.projectId,
          name: key.name,
          key_hash: key.keyHash,
          key_prefix: key.keyPrefix,
          role: key.role,
          permissions: JSON.stringify(key.permissions),
          created_by: key.createdBy,
          created_at: key.createdAt,
          last_used_at: key.lastUsedAt,
          revoked_at: key.revokedAt,
        })
        .execute();
      return key;
    },
    async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
      const row = await db
        .selectFrom("api_keys")
        .selectAll()
        .where("key_hash", "=", keyHash)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async findById(id: string): Promise<ApiKeyRecord | undefined> {
      const row = await db
        .selectFrom("api_keys")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async listByProject(projectId: string): Promise<ApiKeyRecord[]> {
      const rows = await db
        .selectFrom("api_keys")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .execute();
      return rows.map(toRecord);
    },
    /** Marks the key revoked; a key already revoked keeps its first revocation time. */
    async revoke(id: string, at: string): Promise<void> {
      await db
        .updateTable("api_keys")
        .set({ revoked_at: at })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .execute();
    },
    /** Removes the key: it no longer authenticates, and no longer shows in lists. */
    async delete(id: string): Promise<void> {
      await db.deleteFrom("api_keys").where("id", "=", id).execute();
    },
    async touchLastUsed(id: string, at: string): Promise<void> {
      await db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", id).execute();
    },
  };
}
export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
