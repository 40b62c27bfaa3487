import { afterAll, beforeAll, describe, it } from "vitest";
import { openMetaDatabase } from "../src/meta/database.js";
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
  beforeAll(async () => {
    postgres = await startThrowawayPostgres(binDir ?? "");
    store = createMetaStore(openMetaDatabase({ url: postgres.url, dataDir: "/nonexistent" }));
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await postgres?.stop();
  });
  metaStoreContract(() => store);
});
