import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { withStatementCache } from "./database.js";

describe("the SQLite statement cache", () => {
  const open = (size: number) => {
    const database = new SQLite(":memory:");
    database.exec("CREATE TABLE t (n integer)");
    database.exec("INSERT INTO t VALUES (1), (2)");
    return withStatementCache(database, size);
  };

  it("hands out the statement prepared for the same text, and a fresh one while it iterates", () => {
    const db = open(10);
    const first = db.prepare("SELECT n FROM t");
    expect(db.prepare("SELECT n FROM t")).toBe(first);
    const iterating = (first as unknown as SQLite.Statement).iterate();
    iterating.next();
    const second = db.prepare("SELECT n FROM t");
    expect(second).not.toBe(first);
    iterating.return?.();
    db.close();
  });

  it("keeps at most `size`, giving one used since it came up for eviction a second chance", () => {
    const db = open(3);
    const a = db.prepare("SELECT 1");
    const b = db.prepare("SELECT 2");
    db.prepare("SELECT 3");
    // a is used again: the next newcomer evicts b (the oldest not used since), not a.
    expect(db.prepare("SELECT 1")).toBe(a);
    db.prepare("SELECT 4");
    expect(db.prepare("SELECT 1")).toBe(a);
    expect(db.prepare("SELECT 2")).not.toBe(b);
    db.close();
  });
});
