import { afterAll, beforeAll, describe } from "vitest";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import { metaStoreContract } from "./helpers/meta-store-contract.js";
import { makeTempDir } from "./helpers/temp-dir.js";

describe("metadata store on SQLite", () => {
  const dir = makeTempDir();
  let store: MetaStore;
  beforeAll(async () => {
    store = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    dir.remove();
  });
  metaStoreContract(() => store);
});
