import { join } from "node:path";
import SQLite from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetaDatabase, openMetaDatabase } from "../src/meta/database.js";
import { parametersFor, runStatement } from "../src/meta/repositories/raw-sql.js";
import type { MetaSchema } from "../src/meta/schema.js";
import { type SqliteDirect, sqliteDirectOf, sqliteTransaction } from "../src/meta/sqlite-direct.js";
import { makeTempDir } from "./helpers/temp-dir.js";

// SQL text at top level runs on the SQLite connection at once while Kysely does not hold it
// (src/meta/sqlite-direct.ts), and waits its turn while a transaction does: it never joins one.

describe("SQLite statements run directly at top level", () => {
  const dir = makeTempDir();
  let database: MetaDatabase;
  const queries: boolean[] = [];
  beforeAll(async () => {
    database = openMetaDatabase({
      dataDir: dir.path,
      onQuery: (_seconds, failed) => queries.push(failed),
    });
    await sql`CREATE TABLE direct_rows (id text PRIMARY KEY)`.execute(database.db);
  });
  afterAll(async () => {
    await database.db.destroy();
    dir.remove();
  });

  const insert = (id: string) => {
    const p = parametersFor(database.db);
    return runStatement(database.db, `INSERT INTO direct_rows (id) VALUES (${p(id)})`, p);
  };
  const ids = async () => {
    const p = parametersFor(database.db);
    const { rows } = await runStatement<{ id: string }>(
      database.db,
      "SELECT id FROM direct_rows ORDER BY id",
      p,
    );
    return rows.map((row) => row.id);
  };

  it("runs at once when the connection is free, and reports each statement", async () => {
    const direct = sqliteDirectOf(database.db);
    expect(direct?.idle()).toBe(true);
    const before = queries.length;
    expect(await insert("a")).toEqual({ rows: [], changed: 1 });
    expect(await ids()).toEqual(["a"]);
    await expect(insert("a")).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT_PRIMARYKEY" });
    expect(queries.slice(before)).toEqual([false, false, true]);
  });

  it("waits for an open transaction instead of joining it: a rollback keeps it", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted = false;
    const transaction = database.db
      .transaction()
      .execute(async (trx) => {
        await sql`INSERT INTO direct_rows (id) VALUES ('rolled-back')`.execute(trx);
        await held;
        throw new Error("roll back");
      })
      .catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sqliteDirectOf(database.db)?.idle()).toBe(false);
    // A transaction's own Kysely instance has no direct path: its statements stay in it.
    const waiting = insert("outside").then(() => {
      inserted = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(inserted).toBe(false);
    release();
    await transaction;
    await waiting;
    expect(await ids()).toEqual(["a", "outside"]);
    expect(sqliteDirectOf(database.db)?.idle()).toBe(true);
  });

  it("runs a transaction's text and Kysely statements in it: all commit, or none", async () => {
    const direct = sqliteDirectOf(database.db) as SqliteDirect;
    let inner: Kysely<MetaSchema> | undefined;
    let after = false;
    await expect(
      sqliteTransaction(database.db, direct, async (trx) => {
        inner = trx;
        expect(sqliteDirectOf(trx)?.idle()).toBe(true);
        const p = parametersFor(trx);
        await runStatement(trx, `INSERT INTO direct_rows (id) VALUES (${p("t1")})`, p);
        await sql`INSERT INTO direct_rows (id) VALUES ('t2')`.execute(trx);
        // Another caller's text waits for the transaction instead of joining it.
        void insert("after").then(() => {
          after = true;
        });
        await new Promise((resolve) => setImmediate(resolve));
        expect(after).toBe(false);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // Once it ended, its instance no longer goes straight to the connection.
    expect(sqliteDirectOf(inner as object)?.idle()).toBe(false);
    while (!after) await new Promise((resolve) => setImmediate(resolve));
    expect(await ids()).toEqual(["a", "after", "outside"]);
    await sqliteTransaction(database.db, direct, async (trx) => {
      const p = parametersFor(trx);
      await runStatement(trx, `INSERT INTO direct_rows (id) VALUES (${p("t3")})`, p);
      await sql`INSERT INTO direct_rows (id) VALUES ('t4')`.execute(trx);
    });
    expect(await ids()).toEqual(["a", "after", "outside", "t3", "t4"]);
  });

  it("holds the write lock from a transaction's start: no other process writes between its read and its write", async () => {
    const direct = sqliteDirectOf(database.db) as SqliteDirect;
    // Another process's connection to the same file (no waiting for locks).
    const other = new SQLite(join(dir.path, "meta.sqlite"), { timeout: 0 });
    try {
      await sqliteTransaction(database.db, direct, async (trx) => {
        const p = parametersFor(trx);
        // Only a read so far (as a row lock is on SQLite): the other writer is already shut out.
        await runStatement(trx, `SELECT id FROM direct_rows WHERE id = ${p("t3")}`, p);
        expect(() => other.prepare("INSERT INTO direct_rows (id) VALUES ('other')").run()).toThrow(
          /locked|busy/i,
        );
        const q = parametersFor(trx);
        await runStatement(trx, `INSERT INTO direct_rows (id) VALUES (${q("t5")})`, q);
      });
      other.prepare("INSERT INTO direct_rows (id) VALUES ('other')").run();
    } finally {
      other.close();
    }
    expect(await ids()).toEqual(["a", "after", "other", "outside", "t3", "t4", "t5"]);
  });
});
