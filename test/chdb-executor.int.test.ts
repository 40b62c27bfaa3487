import { afterAll, describe, expect, it } from "vitest";
import { UnavailableError } from "../src/lib/domain-errors.js";
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
    // One read session, so the reads below queue behind the busy one.
    const executor = createChdbExecutor({ path: dir.path, database: "share_test", sessions: 2 });
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

describe("chDB executor session pool", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("runs reads side by side on separate sessions", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "pool_test", sessions: 3 });
    try {
      const started = performance.now();
      const both = Promise.all([
        executor.query<{ n: number }>("SELECT sleep(0.8), 1 AS n"),
        executor.query<{ n: number }>("SELECT sleep(0.8), 2 AS n"),
      ]);
      // What runs, and where, is visible while it runs (a stuck statement can be named).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const running = executor.stats?.().running ?? [];
      expect(running.map((r) => r.what).sort()).toEqual([
        "SELECT sleep(0.8), 1 AS n",
        "SELECT sleep(0.8), 2 AS n",
      ]);
      expect(new Set(running.map((r) => r.session)).size).toBe(2);
      expect(running.every((r) => r.ms >= 100)).toBe(true);
      const results = await both;
      expect(executor.stats?.().running).toEqual([]);
      // One after the other would take 1.6 s.
      expect(performance.now() - started).toBeLessThan(1400);
      expect(results.map((rows) => rows[0]?.n)).toEqual([1, 2]);
    } finally {
      await executor.close();
    }
  });

  it("runs parameterized reads side by side too, each with its own values", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "param_test", sessions: 4 });
    try {
      const tricky = "it's \\ a\ttab\nand {p1:String}";
      const started = performance.now();
      const slow = await Promise.all(
        [tricky, "other"].map((v) =>
          executor.query<{ v: string }>("SELECT sleep(0.8), {v:String} AS v", { params: { v } }),
        ),
      );
      // chDB's own binding runs one parameterized query at a time in the whole process.
      expect(performance.now() - started).toBeLessThan(1400);
      expect(slow.map((rows) => rows[0]?.v)).toEqual([tricky, "other"]);
      const many = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          executor.query<{ v: string; n: string; ids: string[] }>(
            "SELECT {v:String} AS v, toString({n:Int64}) AS n, {ids:Array(String)} AS ids",
            { params: { v: `value ${i}'`, n: i, ids: [`a${i}`, "b'"] } },
          ),
        ),
      );
      many.forEach((rows, i) => {
        expect(rows).toEqual([{ v: `value ${i}'`, n: String(i), ids: [`a${i}`, "b'"] }]);
      });
      // A placeholder without a value is refused, never filled from an earlier statement.
      await expect(executor.query("SELECT {v:String} AS v")).rejects.toThrow();
    } finally {
      await executor.close();
    }
  });

  it("keeps a read session free of ad-hoc queries for bounded reads", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "adhoc_test", sessions: 3 });
    try {
      const adHoc = [1, 2].map((n) =>
        executor.query<{ n: number }>(`SELECT sleep(0.8), ${n} AS n`, { adHoc: true }),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      expect(await executor.query<{ ok: number }>("SELECT 1 AS ok")).toEqual([{ ok: 1 }]);
      expect(performance.now() - started).toBeLessThan(400);
      // The two ad-hoc queries shared one session: one after the other.
      const before = performance.now();
      expect((await Promise.all(adHoc)).map((rows) => rows[0]?.n)).toEqual([1, 2]);
      expect(performance.now() - before).toBeGreaterThan(1000);
    } finally {
      await executor.close();
    }
  });

  it("never queues a write behind a long read, and reports how long writes wait", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "lane_test", sessions: 2 });
    try {
      await executor.command("CREATE DATABASE IF NOT EXISTS lane_test");
      await executor.command(
        "CREATE TABLE IF NOT EXISTS lane_test.t (n UInt64) ENGINE = MergeTree ORDER BY n",
      );
      const long = executor.query("SELECT sleep(2) AS slept");
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      await executor.insert("t", [{ n: 1 }, { n: 2 }]);
      const seen = await executor.query<{ c: string }>(
        "SELECT toString(count()) AS c FROM lane_test.t",
        { writePath: true },
      );
      expect(performance.now() - started).toBeLessThan(1000);
      expect(seen).toEqual([{ c: "2" }]);
      expect(executor.stats?.().writeWaitMs).toBe(0);
      await long;
    } finally {
      await executor.close();
    }
  });

  it("puts a batch's small inserts on the other write session, not behind its big one", async () => {
    // Six sessions: two of them take writes.
    const executor = createChdbExecutor({ path: dir.path, database: "weight_test", sessions: 6 });
    try {
      await executor.command("CREATE DATABASE IF NOT EXISTS weight_test");
      await executor.command(
        "CREATE TABLE weight_test.big (n UInt64) ENGINE = MergeTree ORDER BY n",
      );
      await executor.command(
        "CREATE TABLE weight_test.slept (n UInt64, z UInt8) ENGINE = MergeTree ORDER BY n",
      );
      // Writing `big` takes a while: its view sleeps 2 ms a row.
      await executor.command(
        "CREATE MATERIALIZED VIEW weight_test.slow TO weight_test.slept AS SELECT n, sleepEachRow(0.002) AS z FROM weight_test.big",
      );
      await executor.command(
        "CREATE TABLE weight_test.small (n UInt64) ENGINE = MergeTree ORDER BY n",
      );
      const finished: string[] = [];
      const big = executor
        .insert(
          "big",
          Array.from({ length: 400 }, (_, n) => ({ n })),
        )
        .then(() => finished.push("big"));
      while (!executor.stats?.().running?.some((r) => r.what.startsWith("INSERT INTO big")))
        await new Promise((resolve) => setTimeout(resolve, 5));
      await Promise.all(
        [1, 2, 3].map((n) =>
          executor.insert("small", [{ n }]).then(() => finished.push(`small ${n}`)),
        ),
      );
      await big;
      expect(finished.at(-1)).toBe("big");
    } finally {
      await executor.close();
    }
  });

  it("with one session, a write waits for the read before it and stats say so", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "single_test", sessions: 1 });
    try {
      await executor.command("CREATE DATABASE IF NOT EXISTS single_test");
      const long = executor.query("SELECT sleep(1) AS slept");
      const write = executor.command("SELECT 1");
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(executor.stats?.()).toMatchObject({ sessions: 1, busySessions: 1 });
      expect(executor.stats?.().writeWaitMs).toBeGreaterThanOrEqual(400);
      await Promise.all([long, write]);
      expect(executor.stats?.().writeWaitMs).toBe(0);
    } finally {
      await executor.close();
    }
  });

  it("keeps a failed statement's partial output on its own session, flushed before that session's next statement", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "leak_test", sessions: 4 });
    try {
      const failing = executor.query(
        "SELECT number AS leaked FROM numbers(100000) WHERE throwIf(number = 50000) = 0 SETTINGS max_block_size = 1000",
      );
      // Queued on the other read sessions, and after the failure on every session in turn.
      const others = Array.from({ length: 12 }, (_, i) =>
        executor.query<{ i: number }>(`SELECT ${i} AS i, sleep(0.05) AS s`),
      );
      await expect(failing).rejects.toThrow(/throwIf/);
      const rows = await Promise.all(others);
      expect(rows.map((r) => r.map((row) => row.i))).toEqual(
        Array.from({ length: 12 }, (_, i) => [i]),
      );
      const compact = await Promise.all(
        Array.from({ length: 6 }, () => executor.queryCompact("SELECT 2 AS fine")),
      );
      for (const result of compact) expect(result.rows).toEqual([[2]]);
    } finally {
      await executor.close();
    }
  });

  it("close() waits for the work in flight on every session", async () => {
    const executor = createChdbExecutor({ path: dir.path, database: "close_test", sessions: 3 });
    const reads = [
      executor.query<{ n: number }>("SELECT sleep(0.6), 1 AS n"),
      executor.query<{ n: number }>("SELECT sleep(0.6), 2 AS n"),
    ];
    const write = executor.command("CREATE DATABASE IF NOT EXISTS close_test");
    const started = performance.now();
    await executor.close();
    expect(performance.now() - started).toBeGreaterThanOrEqual(500);
    expect((await Promise.all(reads)).map((rows) => rows[0]?.n)).toEqual([1, 2]);
    await write;
    await expect(executor.query("SELECT 1")).rejects.toBeInstanceOf(UnavailableError);
  });
});
