import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetaDatabase, openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import { metaStoreContract } from "./helpers/meta-store-contract.js";
import { makeTempDir } from "./helpers/temp-dir.js";

describe("metadata store on SQLite", () => {
  const dir = makeTempDir();
  let store: MetaStore;
  let database: MetaDatabase;
  beforeAll(async () => {
    database = openMetaDatabase({ dataDir: dir.path });
    store = createMetaStore(database);
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    dir.remove();
  });
  metaStoreContract(() => store);
  it("locks a row by reading it (the transaction holds the write lock): gone rows lock nothing", async () => {
    await store.transaction(async (tx) => {
      expect(await tx.repos.monitors.lockForCheck("mon_gone")).toBeUndefined();
      expect(await tx.repos.statusPages.lock("spg_gone")).toBe(false);
      expect(await tx.repos.organizations.lock("org_gone")).toBe(false);
      expect(await tx.repos.monitors.lock("mon_gone")).toBe(false);
    });
  });
  it("indexes a resolve's fire lookup and the deliveries a rule delete cascades to", async () => {
    const { rows } = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'index'`.execute(database.db);
    expect(rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        "alert_events_series_kind_time_idx",
        "notification_deliveries_rule_idx",
      ]),
    );
  });
});
