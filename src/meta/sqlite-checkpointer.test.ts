import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-dir.js";
import { migrateMetaDatabase, openMetaDatabase } from "./database.js";

describe("SQLite checkpoints off the event loop", () => {
  it("folds committed writes into the database file from the worker, within seconds", async () => {
    const dir = makeTempDir();
    const meta = openMetaDatabase({ dataDir: dir.path });
    try {
      await migrateMetaDatabase(meta.db);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const file = join(dir.path, "meta.sqlite");
      const before = statSync(file).size;
      // ~2 MB through the log: far below the event loop's backstop of 10,000 pages.
      await sql`CREATE TABLE filler (body TEXT)`.execute(meta.db);
      for (let i = 0; i < 40; i++)
        await sql`INSERT INTO filler VALUES (${"x".repeat(50_000)})`.execute(meta.db);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(1_000_000);
      const deadline = Date.now() + 5_000;
      while (statSync(file).size < before + 1_000_000 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(statSync(file).size).toBeGreaterThan(before + 1_000_000);
    } finally {
      await meta.db.destroy();
      dir.remove();
    }
  });

  it("has closed the worker's connection when the store's close resolves, so the log is gone", async () => {
    const dir = makeTempDir();
    const meta = openMetaDatabase({ dataDir: dir.path });
    await migrateMetaDatabase(meta.db);
    // Long enough for the worker to have opened its connection and checkpointed once.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await sql`CREATE TABLE filler (body TEXT)`.execute(meta.db);
    await meta.db.destroy();
    // The last connection to close folds the log back and removes it: the main one, once the
    // worker's is closed. Closed before the worker's, it left the log to the worker, which
    // removed it a moment later, racing whoever removed the data dir.
    expect(existsSync(join(dir.path, "meta.sqlite-wal"))).toBe(false);
    expect(readdirSync(dir.path)).toEqual(["meta.sqlite"]);
    dir.remove();
  });
});
