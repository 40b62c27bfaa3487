import { Migrator, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openMetaDatabase } from "../src/meta/database.js";
import { migrationProvider } from "../src/meta/migrations/index.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const T0 = "2026-11-01T10:00:00.000Z";

/**
 * Before `vigil tql` and `vigil demo` deleted their temporary keys, each run left one revoked in
 * the key list. Migrating removes those, and only those: a temporary key still active (its CLI
 * was killed) stays visible so it can be revoked, and users' keys stay, revoked or not.
 */
describe("migration 0012: revoked temporary CLI keys", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("deletes the revoked temporary keys the CLI left, and nothing else", async () => {
    const database = await openMetaDatabase({ dataDir: dir.path });
    try {
      const { db } = database;
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect(
        (await migrator.migrateTo("0011-status-page-publish-incidents")).error,
      ).toBeUndefined();
      await sql`insert into organizations (id, name, created_at) values ('org_k', 'K', ${T0})`.execute(
        db,
      );
      await sql`insert into projects (id, org_id, name, created_at) values ('prj_k', 'org_k', 'k', ${T0})`.execute(
        db,
      );
      const key = (id: string, name: string, revokedAt: string | null) =>
        sql`insert into api_keys (id, project_id, name, key_hash, key_prefix, role, permissions,
            created_by, created_at, last_used_at, revoked_at)
          values (${id}, 'prj_k', ${name}, ${`hash_${id}`}, 'vgl_abcd', 'ingest', '["ingest"]',
            null, ${T0}, null, ${revokedAt})`.execute(db);
      await key("key_tmp_revoked_1", "vigil-cli (temporary)", T0);
      await key("key_tmp_revoked_2", "vigil-cli (temporary)", T0);
      await key("key_tmp_active", "vigil-cli (temporary)", null);
      await key("key_user_revoked", "ci", T0);
      await key("key_user_active", "grafana", null);

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const left = await sql<{ id: string }>`select id from api_keys order by id`.execute(db);
      expect(left.rows.map((r) => r.id)).toEqual([
        "key_tmp_active",
        "key_user_active",
        "key_user_revoked",
      ]);
    } finally {
      await database.db.destroy();
    }
  });
});
