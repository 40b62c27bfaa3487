import { afterAll, describe, expect, it } from "vitest";
import { UnavailableError } from "../src/lib/errors.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { makeTempDir } from "./helpers/temp-dir.js";

describe("chDB executor shutdown", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("lets in-flight queries finish before closing, and refuses new work once closing", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "drain_test" });
    const slow = executor.query<{ done: number }>("SELECT sleep(0.5), 1 AS done");
    const started = performance.now();
    const closed = executor.close();
    await expect(executor.query("SELECT 1")).rejects.toBeInstanceOf(UnavailableError);
    await closed;
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect((await slow)[0]?.done).toBe(1);
  });
});

describe("chDB executor isolation between statements", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("never hands a failed statement's partial output to the next statement", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "isolation_test" });
    try {
      // Rows stream out before throwIf fires; chDB keeps them in the session's output.
      const failing = executor.query(
        "SELECT number AS leaked FROM numbers(100000) WHERE throwIf(number = 50000) = 0 SETTINGS max_block_size = 1000",
      );
      const timedOut = executor.queryCompact(
        "SELECT count() AS secret_alias FROM numbers(10000000000) SETTINGS max_execution_time = 0.2",
      );
      const next = executor.query<{ ok: number }>("SELECT 1 AS ok");
      const nextCompact = executor.queryCompact("SELECT 2 AS fine");
      await expect(failing).rejects.toThrow(/throwIf/);
      await expect(timedOut).rejects.toThrow(/TIMEOUT_EXCEEDED/);
      expect(await next).toEqual([{ ok: 1 }]);
      const compact = await nextCompact;
      expect(compact.columns).toEqual([{ name: "fine", type: "UInt8" }]);
      expect(compact.rows).toEqual([[2]]);
    } finally {
      await executor.close();
    }
  });
});

describe("chDB executor sharing of identical queued reads", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("runs identical reads that wait together once, each caller with its own rows", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "share_test" });
    try {
      // Occupies the engine so the reads below queue behind it.
      const busy = executor.query("SELECT sleep(0.3)");
      const same = "SELECT rand64() AS r";
      const [a, b, c] = [executor.query(same), executor.query(same), executor.query(same)];
      const other = executor.query(`${same}, 1 AS one`);
      const bound = executor.query("SELECT rand64() AS r, {x:String} AS x", { params: { x: "a" } });
      const boundOther = executor.query("SELECT rand64() AS r, {x:String} AS x", {
        params: { x: "b" },
      });
      await busy;
      const [ra, rb, rc, ro] = await Promise.all([a, b, c, other]);
      expect(rb).toEqual(ra);
      expect(rc).toEqual(ra);
      expect(rb?.[0]).not.toBe(ra?.[0]);
      expect((ro?.[0] as { r: string } | undefined)?.r).not.toBe(
        (ra?.[0] as { r: string } | undefined)?.r,
      );
      expect((await bound)[0]).not.toEqual((await boundOther)[0]);
      // Once a read has started, a new identical one runs again.
      expect(await executor.query(same)).not.toEqual(ra);
    } finally {
      await executor.close();
    }
  });
});
