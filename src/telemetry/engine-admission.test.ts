import { afterEach, describe, expect, it, vi } from "vitest";
import { heldEngine } from "../../test/helpers/held-engine.js";
import { UnavailableError } from "../lib/domain-errors.js";
import { admitReads } from "./admitted-reads.js";
import { EngineAdmission } from "./engine-admission.js";

describe("admitReads", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("refuses a read at once, 503 with Retry-After, while maxPending are waiting or running", async () => {
    const { engine, waiting } = heldEngine();
    let refused = 0;
    const reads = admitReads(
      engine,
      new EngineAdmission({ maxPending: 2, slots: 2, onRefused: () => refused++ }),
    );
    const first = reads.query("SELECT 1");
    const second = reads.queryCompact("SELECT 2");
    const third = reads.query("SELECT 3");
    await expect(third).rejects.toBeInstanceOf(UnavailableError);
    await expect(third).rejects.toMatchObject({
      code: "unavailable",
      retryAfterSeconds: 1,
      message: expect.stringMatching(/busy: 2 reads are waiting/),
    });
    expect(refused).toBe(1);
    expect(waiting).toHaveLength(2);

    // A read that ends frees its place; one that fails does too.
    waiting[0]?.release();
    await first;
    const fourth = reads.query("SELECT 4");
    waiting[1]?.fail(new Error("engine error"));
    await expect(second).rejects.toThrow("engine error");
    const fifth = reads.query("SELECT 5");
    await expect(reads.query("SELECT 6")).rejects.toBeInstanceOf(UnavailableError);
    expect(refused).toBe(2);
    waiting[2]?.release();
    waiting[3]?.release();
    await Promise.all([fourth, fifth]);
    const seventh = reads.query("SELECT 7");
    waiting[4]?.release();
    await expect(seventh).resolves.toEqual([]);
  });

  it("holds one bound across the engine's reads and other waits admitted beside them", async () => {
    const { engine, waiting } = heldEngine();
    const admission = new EngineAdmission({ maxPending: 2, slots: 2 });
    const reads = admitReads(engine, admission);
    let release = () => {};
    const lookup = admission.admit(
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve("trace");
        }),
    );
    const read = reads.query("SELECT 1");
    await expect(reads.query("SELECT 2")).rejects.toBeInstanceOf(UnavailableError);
    await expect(admission.admit(async () => "more")).rejects.toBeInstanceOf(UnavailableError);
    release();
    await expect(lookup).resolves.toBe("trace");
    await expect(admission.admit(async () => "more")).resolves.toBe("more");
    waiting[0]?.release();
    await read;
  });

  it("runs `slots` reads at once and the other admitted ones in order as slots free", async () => {
    const { engine, waiting, calls } = heldEngine();
    const reads = admitReads(engine, new EngineAdmission({ maxPending: 3, slots: 1 }));
    const first = reads.query("SELECT 1");
    const second = reads.query("SELECT 2");
    const third = reads.queryCompact("SELECT 3");
    await expect(reads.query("SELECT 4")).rejects.toBeInstanceOf(UnavailableError);
    // Only the first reached the engine; the others wait here, not in its queues.
    expect(calls).toEqual(["SELECT 1"]);
    waiting[0]?.fail(new Error("engine error"));
    await expect(first).rejects.toThrow("engine error");
    expect(calls).toEqual(["SELECT 1", "SELECT 2"]);
    const fourth = reads.query("SELECT 4");
    waiting[1]?.release();
    await second;
    expect(calls).toEqual(["SELECT 1", "SELECT 2", "SELECT 3"]);
    waiting[2]?.release();
    await third;
    waiting[3]?.release();
    await expect(fourth).resolves.toEqual([]);
    expect(calls).toEqual(["SELECT 1", "SELECT 2", "SELECT 3", "SELECT 4"]);
  });

  it("frees the place of a read that throws before it returns a promise", async () => {
    const { engine } = heldEngine();
    engine.query = () => {
      throw new Error("bad statement");
    };
    const reads = admitReads(engine, new EngineAdmission({ maxPending: 1, slots: 1 }));
    await expect(reads.query("SELECT x")).rejects.toThrow("bad statement");
    await expect(reads.query("SELECT x")).rejects.toThrow("bad statement");
  });

  it("does not count or hold anything but reads", async () => {
    const { engine, waiting, calls } = heldEngine();
    const reads = admitReads(engine, new EngineAdmission({ maxPending: 1, slots: 1 }));
    const read = reads.query("SELECT 1");
    await reads.command("OPTIMIZE TABLE t");
    await expect(reads.insert("t", [{ a: 1 }])).resolves.toEqual({ rowsWritten: 1 });
    await reads.ping();
    expect(reads.stats?.()).toEqual({ sessions: 3, busySessions: 1, writeWaitMs: 0 });
    expect([reads.engine, reads.database]).toEqual(["held", "vigil"]);
    expect(calls).toEqual(["SELECT 1", "OPTIMIZE TABLE t"]);
    waiting[0]?.release();
    await read;
  });
});
