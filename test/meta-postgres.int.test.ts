import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetaDatabase, openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import { metaStoreContract } from "./helpers/meta-store-contract.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";

const binDir = findPostgresBin();

// CI installs Debian's postgresql (see .ci/run), so there a missing binary is a failure, not a skip.
if (!binDir && process.env.CI) {
  describe("metadata store on PostgreSQL", () => {
    it("needs initdb and postgres (apt-get install postgresql)", () => {
      throw new Error("PostgreSQL binaries not found on PATH or under /usr/lib/postgresql");
    });
  });
}

describe.skipIf(!binDir)("metadata store on PostgreSQL", () => {
  let postgres: ThrowawayPostgres;
  let store: MetaStore;
  let database: MetaDatabase;
  beforeAll(async () => {
    postgres = await startThrowawayPostgres(binDir ?? "");
    database = openMetaDatabase({ url: postgres.url, dataDir: "/nonexistent" });
    store = createMetaStore(database);
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await postgres?.stop();
  });
  metaStoreContract(() => store);
  it("indexes a resolve's fire lookup and the deliveries a rule delete cascades to", async () => {
    const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes`.execute(
      database.db,
    );
    expect(rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        "alert_events_series_kind_time_idx",
        "notification_deliveries_rule_idx",
      ]),
    );
  });
});
