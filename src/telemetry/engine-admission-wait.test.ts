// The wait bound of EngineAdmission (maxWaitMs); see engine-admission.test.ts for the count bounds.
import { afterEach, describe, expect, it, vi } from "vitest";
import { heldEngine, onFakeTime } from "../../test/helpers/held-engine.js";
import { admitReads } from "./admitted-reads.js";
import { EngineAdmission } from "./engine-admission.js";

describe("admitReads", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe("maxWaitMs", () => {
    /** Reads over a held engine with `slots` (1) slots, a bound of 10 and waits of at most 100 ms. */
    function waitBounded(slots = 1) {
      const held = heldEngine();
      const { admission, refusals } = onFakeTime({ maxPending: 10, slots, maxWaitMs: 100 });
      return { ...held, refusals, reads: admitReads(held.engine, admission) };
    }

    it("refuses a read whose wait ran out when a slot frees, never one of the next round", async () => {
      const { reads, waiting, calls, refusals } = waitBounded();
      const first = reads.query("SELECT 1");
      const next = reads.query("SELECT 2"); // runs next: never refused for waiting
      const late = reads.query("SELECT 3");
      const failed = expect(late).rejects.toMatchObject({
        code: "unavailable",
        retryAfterSeconds: 1,
        message: expect.stringMatching(/busy: this read waited 100 ms for it/),
      });
      vi.advanceTimersByTime(60);
      const inTime = reads.query("SELECT 4");
      vi.setSystemTime(Date.now() + 50); // the clock moves, no timer runs
      waiting[0]?.release();
      await first;
      await failed;
      // SELECT 2 waited 110 ms and ran; SELECT 3 waited as long and was refused; SELECT 4 (50 ms) is next.
      expect(calls).toEqual(["SELECT 1", "SELECT 2"]);
      expect(refusals).toEqual(["wait"]);
      waiting[1]?.release();
      await next;
      waiting[2]?.release();
      await expect(inTime).resolves.toEqual([]);
      expect(calls).toEqual(["SELECT 1", "SELECT 2", "SELECT 4"]);
    });

    it("refuses waiting reads as their wait runs out while no slot frees", async () => {
      const { reads, waiting, calls, refusals } = waitBounded();
      const stuck = reads.query("SELECT 1");
      const next = reads.query("SELECT 2");
      const first = reads.query("SELECT 3");
      vi.advanceTimersByTime(30);
      const second = reads.query("SELECT 4");
      const outcomes: string[] = [];
      next.catch(() => outcomes.push("next refused"));
      first.catch(() => outcomes.push("first refused"));
      second.catch(() => outcomes.push("second refused"));
      await vi.advanceTimersByTimeAsync(99 - 30);
      expect(outcomes).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(outcomes).toEqual(["first refused"]);
      await vi.advanceTimersByTimeAsync(30);
      expect(outcomes).toEqual(["first refused", "second refused"]);
      await vi.advanceTimersByTimeAsync(1000);
      expect(outcomes).toEqual(["first refused", "second refused"]);
      expect(refusals).toEqual(["wait", "wait"]);
      expect(vi.getTimerCount()).toBe(0);
      // Refused reads free their places; the stuck one still holds its slot.
      const third = reads.query("SELECT 5");
      waiting[0]?.release();
      await stuck;
      waiting[1]?.release();
      await expect(next).resolves.toEqual([]);
      waiting[2]?.release();
      await expect(third).resolves.toEqual([]);
      expect(calls).toEqual(["SELECT 1", "SELECT 2", "SELECT 5"]);
    });

    it("refuses at once a read that would wait too long, by how long reads have been taking", async () => {
      const { reads, waiting, calls, refusals } = waitBounded();
      const first = reads.query("SELECT 1");
      // Before any read has run there is nothing to go by.
      const second = reads.query("SELECT 2");
      vi.advanceTimersByTime(40);
      waiting[0]?.release();
      await first; // reads take 40 ms
      const third = reads.query("SELECT 3"); // runs next
      const fourth = reads.query("SELECT 4"); // after SELECT 2 and 3: 80 ms
      const fifth = reads.query("SELECT 5"); // 120 ms, over 100: refused without waiting
      await expect(fifth).rejects.toMatchObject({
        code: "unavailable",
        retryAfterSeconds: 1,
        message: expect.stringMatching(/reads before this one take about 120 ms, over 100 ms/),
      });
      expect(refusals).toEqual(["wait"]);
      for (const i of [1, 2, 3]) {
        vi.advanceTimersByTime(10);
        waiting[i]?.release();
        await [second, third, fourth][i - 1];
      }
      expect(calls).toEqual(["SELECT 1", "SELECT 2", "SELECT 3", "SELECT 4"]);
    });

    it("answers a burst of slow reads that fills the slots twice, later, and refuses beyond it", async () => {
      const { reads, waiting, calls, refusals } = waitBounded(2);
      const warm = reads.query("SELECT 0");
      vi.advanceTimersByTime(500);
      waiting[0]?.release();
      await warm; // reads take 500 ms
      // A dashboard's four panels on two slots: two run, two wait 500 ms for the next round.
      const panels = [1, 2, 3, 4].map((i) => reads.query(`SELECT ${i}`));
      await expect(reads.query("SELECT 5")).rejects.toMatchObject({
        message: expect.stringMatching(/take about 750 ms, over 100 ms/),
      });
      await vi.advanceTimersByTimeAsync(500);
      waiting[1]?.release();
      waiting[2]?.release();
      await Promise.all(panels.slice(0, 2));
      await vi.advanceTimersByTimeAsync(500);
      waiting[3]?.release();
      waiting[4]?.release();
      await expect(Promise.all(panels)).resolves.toHaveLength(4);
      expect(calls).toEqual(["SELECT 0", "SELECT 1", "SELECT 2", "SELECT 3", "SELECT 4"]);
      expect(refusals).toEqual(["wait"]);
    });

    it("sets one timer, only while a read the wait bound applies to waits, and none without one", async () => {
      const { reads, waiting } = waitBounded();
      const running = reads.query("SELECT 1");
      const next = reads.query("SELECT 2");
      expect(vi.getTimerCount()).toBe(0);
      const bounded = reads.query("SELECT 3");
      expect(vi.getTimerCount()).toBe(1);
      const alsoBounded = reads.query("SELECT 4");
      expect(vi.getTimerCount()).toBe(1);
      waiting[0]?.release();
      await running;
      expect(vi.getTimerCount()).toBe(1); // now for SELECT 4
      waiting[1]?.release();
      await next;
      expect(vi.getTimerCount()).toBe(0); // SELECT 4 runs next
      waiting[2]?.release();
      await bounded;
      waiting[3]?.release();
      await alsoBounded;

      const unbounded = heldEngine();
      const plain = admitReads(unbounded.engine, new EngineAdmission({ maxPending: 10, slots: 1 }));
      plain.query("SELECT 1");
      plain.query("SELECT 2");
      plain.query("SELECT 3");
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
