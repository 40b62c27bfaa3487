import { afterEach, describe, expect, it } from "vitest";
import { RateLimitedError, UnavailableError } from "../src/lib/domain-errors.js";
import { panelQueryFixture } from "./helpers/panel-queries.js";

type Fixture = Awaited<ReturnType<typeof panelQueryFixture>>;

const TQL =
  "SELECT $__timeInterval(timestamp) AS t, count() AS n FROM traces WHERE $__timeFilter(timestamp) AND service_name = {service:String} GROUP BY t ORDER BY t";
const panel = (service: string, tql = TQL) => ({
  tql,
  variables: { service },
  timeRange: "1h",
});

/** Dashboards' panel queries in front of the engine: shared results, and each project's line. */
describe("panel queries: result cache and per-project line", () => {
  let fixture: Fixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("runs ten concurrent identical queries on the engine once, and keeps the result for the bucket", async () => {
    fixture = await panelQueryFixture({});
    const { run, calls, waiting, settle, cacheClock, dashboards } = fixture;
    const answers = Promise.all(Array.from({ length: 10 }, () => run(panel("checkout"))));
    await settle();
    expect(calls).toHaveLength(1);
    // The service's value is bound, not written into the SQL.
    expect(calls[0]).not.toContain("checkout");
    for (const query of waiting.splice(0)) query.release();
    const results = await answers;
    expect(results.filter((r) => !r.cached)).toHaveLength(1);
    expect(new Set(results.map((r) => JSON.stringify({ ...r, cached: null }))).size).toBe(1);
    expect(results[0]?.window).toEqual({
      from: "2026-01-05T11:00:15.000Z",
      to: "2026-01-05T12:00:15.000Z",
      bucketSeconds: 15,
    });

    // Another viewer within the bucket: the kept result, no engine query.
    cacheClock.ms += 14_000;
    expect((await run(panel("checkout"))).cached).toBe(true);
    // The same query spelled differently compiles to the same SQL: shared too.
    const spaced = TQL.replace("SELECT ", "SELECT\n  ").replace(" FROM", "\nFROM");
    expect((await run(panel("checkout", spaced))).cached).toBe(true);
    expect(calls).toHaveLength(1);
    expect(dashboards.cache.stats()).toMatchObject({ runs: 1, hits: 2, joined: 9, entries: 1 });

    // Past the bucket's length (15 s) it runs again.
    cacheClock.ms += 2_000;
    const again = run(panel("checkout"));
    await settle();
    expect(calls).toHaveLength(2);
    waiting.splice(0)[0]?.release();
    expect((await again).cached).toBe(false);
  });

  it("keeps results apart by variable value and project", async () => {
    fixture = await panelQueryFixture({});
    const { run, calls, waiting, settle } = fixture;
    const answers = Promise.all([
      run(panel("checkout")),
      run(panel("cart")),
      run(panel("checkout"), "prj_b"),
    ]);
    await settle();
    expect(calls).toHaveLength(3);
    for (const query of waiting.splice(0)) query.release();
    expect((await answers).map((r) => r.cached)).toEqual([false, false, false]);
  });

  it("shares a failure with the requests waiting for it, but does not keep it", async () => {
    fixture = await panelQueryFixture({});
    const { run, calls, waiting, settle } = fixture;
    const first = run(panel("checkout"));
    const second = run(panel("checkout"));
    await settle();
    expect(calls).toHaveLength(1);
    waiting.splice(0)[0]?.fail(new Error("engine went away"));
    await expect(first).rejects.toThrow("engine went away");
    await expect(second).rejects.toThrow("engine went away");
    const retry = run(panel("checkout"));
    await settle();
    expect(calls).toHaveLength(2);
    waiting.splice(0)[0]?.release();
    expect((await retry).cached).toBe(false);
  });

  it("keeps at most its byte bound, dropping the least recently used", async () => {
    fixture = await panelQueryFixture({ cacheBytes: 12_000 });
    const { run, waiting, settle, dashboards } = fixture;
    for (const service of ["a", "b", "c", "d", "e", "f", "g", "h"]) {
      const answer = run(panel(service));
      await settle();
      waiting.splice(0)[0]?.release();
      await answer;
    }
    const { entries, bytes } = dashboards.cache.stats();
    expect(bytes).toBeLessThanOrEqual(12_000);
    expect(entries).toBeGreaterThan(1);
    expect(entries).toBeLessThan(8);
    // The newest is kept, the oldest is not.
    expect((await run(panel("h"))).cached).toBe(true);
    const oldest = run(panel("a"));
    await settle();
    waiting.splice(0)[0]?.release();
    expect((await oldest).cached).toBe(false);
  });

  it("runs a project's queries at most its TQL bound at once, queues a bounded line, then 429", async () => {
    fixture = await panelQueryFixture({ maxRunning: 2, maxQueued: 3 });
    const { run, calls, waiting, settle, dashboards } = fixture;
    const admitted = ["a", "b", "c", "d", "e"].map((s) => run(panel(s)));
    await settle();
    expect(calls).toHaveLength(2);
    expect(dashboards.limiter.load("prj_a")).toEqual({ running: 2, queued: 3 });

    const refused = await run(panel("f")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // A query already in flight is shared, not queued: no refusal for it.
    const joined = run(panel("a"));
    // Another project has a line of its own.
    const other = run(panel("f"), "prj_b");
    await settle();
    expect(calls).toHaveLength(3);

    // Each finished query lets the next of the line start, in order.
    waiting.shift()?.release();
    await settle();
    expect(calls).toHaveLength(4);
    expect(dashboards.limiter.load("prj_a")).toEqual({ running: 2, queued: 2 });
    while (waiting.length > 0) {
      for (const query of waiting.splice(0)) query.release();
      await settle();
    }
    await Promise.all([...admitted, joined, other]);
    expect(calls).toHaveLength(6);
    expect(dashboards.limiter.load("prj_a")).toEqual({ running: 0, queued: 0 });
  });

  it("gives up on a query that waited in the line longer than the TQL time limit (503)", async () => {
    fixture = await panelQueryFixture({ maxRunning: 1, maxWaitMs: 50 });
    const { run, calls, waiting, settle, dashboards } = fixture;
    const running = run(panel("a"));
    const waited = run(panel("b")).catch((error: unknown) => error);
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await waited).toBeInstanceOf(UnavailableError);
    expect(dashboards.limiter.load("prj_a")).toEqual({ running: 1, queued: 0 });
    waiting.splice(0)[0]?.release();
    await running;
    expect(calls).toHaveLength(1);
  });
});
