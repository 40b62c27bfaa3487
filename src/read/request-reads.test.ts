import { describe, expect, it } from "vitest";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { requestReads } from "./request-reads.js";

/** An engine whose statements finish when the test says, recording how many ran at once. */
function heldEngine(readSlots: number) {
  const pending: (() => void)[] = [];
  const stats = { running: 0, most: 0, started: [] as string[] };
  const run = (sql: string) => {
    stats.running++;
    stats.most = Math.max(stats.most, stats.running);
    stats.started.push(sql);
    return new Promise<never[]>((resolve) =>
      pending.push(() => {
        stats.running--;
        resolve([]);
      }),
    );
  };
  const executor = { readSlots, query: run, queryCompact: run } as unknown as TelemetryExecutor;
  const finishOne = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { executor, stats, finishOne };
}

describe("requestReads", () => {
  it("hands the engine at most its read slots of one request's statements, in order", async () => {
    const engine = heldEngine(2);
    const reads = requestReads(engine.executor);
    const all = Promise.all(["a", "b", "c", "d", "e"].map((sql) => reads.query(sql)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(engine.stats.started).toEqual(["a", "b"]);
    for (let i = 0; i < 5; i++) await engine.finishOne();
    await all;
    expect(engine.stats.started).toEqual(["a", "b", "c", "d", "e"]);
    expect(engine.stats.most).toBe(2);
  });

  it("frees the place of a statement that fails", async () => {
    const failing = {
      readSlots: 1,
      query: (sql: string) =>
        sql === "bad" ? Promise.reject(new Error("no")) : Promise.resolve([]),
    } as unknown as TelemetryExecutor;
    const reads = requestReads(failing);
    const [bad, good] = await Promise.allSettled([reads.query("bad"), reads.query("good")]);
    expect(bad.status).toBe("rejected");
    expect(good).toEqual({ status: "fulfilled", value: [] });
  });
});
