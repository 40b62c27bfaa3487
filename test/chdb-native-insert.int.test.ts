import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { refusedDataCode } from "../src/ingest/insert-errors.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { RefusedValueError } from "../src/telemetry/executor.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const SPOOL = "vigil-insert-spool";

describe("chDB Native inserts", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("stores exactly the rows a JSON insert stores, leaves no spool file, and clears a stale one at start", async () => {
    mkdirSync(join(dir.path, SPOOL), { recursive: true });
    writeFileSync(join(dir.path, SPOOL, "7.native"), "left by a process killed mid-insert");
    const native = createChdbExecutor({ path: dir.path, database: "native_test" });
    expect(readdirSync(join(dir.path, SPOOL))).toEqual([]);
    try {
      await native.command("CREATE DATABASE IF NOT EXISTS native_test");
      const columns = `(id UInt64, at DateTime64(9, 'UTC'), kind LowCardinality(String),
        tags Map(LowCardinality(String), String), names Array(String), ok Bool, ratio Float64)`;
      for (const table of ["a", "b"])
        await native.command(
          `CREATE TABLE native_test.${table} ${columns} ENGINE = MergeTree ORDER BY id`,
        );
      const rows = [
        {
          id: 1,
          at: "1732671876.123456789",
          kind: "server",
          tags: { "é\tkey": "line\nbreak 'quoted' \\ back", "": "" },
          names: ["x", "ünï", ""],
          ok: true,
          ratio: 0.1,
        },
        {
          id: "18446744073709551615",
          at: "1970-01-01 00:00:00.000000001",
          kind: "",
          tags: {},
          names: [],
          ok: false,
          ratio: -1e300,
        },
      ];
      expect(await native.insert("a", rows)).toEqual({ rowsWritten: 2 });
      const json = createChdbExecutor({
        path: dir.path,
        database: "native_test",
        insertFormat: "JSONCompactEachRow",
      });
      await json.insert("b", rows);
      await json.close();
      const read = (table: string) =>
        native.query(
          `SELECT toString(id) AS id, toString(at) AS at, kind, tags, names, ok, ratio FROM native_test.${table} ORDER BY id`,
        );
      expect(await read("a")).toEqual(await read("b"));
      expect(await read("a")).toMatchObject([
        {
          id: "1",
          at: "2024-11-27 01:44:36.123456789",
          tags: { "é\tkey": "line\nbreak 'quoted' \\ back", "": "" },
          names: ["x", "ünï", ""],
        },
        { id: "18446744073709551615", at: "1970-01-01 00:00:00.000000001", ratio: -1e300 },
      ]);
      expect(readdirSync(join(dir.path, SPOOL))).toEqual([]);
    } finally {
      await native.close();
    }
  });

  it("refuses a value its column cannot hold before spooling, as the data's fault", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "native_test" });
    try {
      const error = await executor.insert("a", [{ id: -1, at: "1732671876", kind: "k" }]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RefusedValueError);
      expect(refusedDataCode(error)).toBe("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE");
      expect(readdirSync(join(dir.path, SPOOL))).toEqual([]);
    } finally {
      await executor.close();
    }
  });

  it("removes the spooled block when the engine fails the insert", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "native_test" });
    try {
      await executor.command(
        "CREATE TABLE native_test.c (id UInt64) ENGINE = MergeTree ORDER BY id",
      );
      // Known to the executor's type cache, then gone: the engine fails the statement itself.
      await executor.insert("c", [{ id: 1 }]);
      await executor.query("DROP TABLE native_test.c");
      await expect(executor.insert("c", [{ id: 2 }])).rejects.toThrow(
        /UNKNOWN_TABLE|doesn't exist/,
      );
      expect(existsSync(join(dir.path, SPOOL))).toBe(true);
      expect(readdirSync(join(dir.path, SPOOL))).toEqual([]);
    } finally {
      await executor.close();
    }
  });
});
