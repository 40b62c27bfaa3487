import { afterEach, describe, expect, it, vi } from "vitest";
import { UnavailableError } from "../lib/domain-errors.js";
import {
  type AdmissionOptions,
  type AdmissionRefusal,
  admitReads,
  EngineAdmission,
} from "./engine-admission.js";
import type { CompactResult, TelemetryExecutor } from "./executor.js";

/** An engine whose reads wait until released, one by one in order. */
function heldEngine() {
  const waiting: { release(): void; fail(error: Error): void }[] = [];
  const held = <T>(value: T) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ release: () => resolve(value), fail: reject });
    });
  const calls: string[] = [];
  const engine: TelemetryExecutor = {
    engine: "held",
    database: "vigil",
    command: async (sql) => {
      calls.push(sql);
    },
    query: <T>(sql: string) => {
      calls.push(sql);
      return held<T[]>([]);
    },
    queryCompact: (sql) => {
      calls.push(sql);
      return held<CompactResult>({ columns: [], rows: [], rowsRead: 0, elapsedSeconds: 0 });
    },
    insert: async (_table, rows) => ({ rowsWritten: rows.length }),
    ping: async () => {},
    stats: () => ({ sessions: 3, busySessions: 1, writeWaitMs: 0 }),
    close: async () => {},
  };
  return { engine, waiting, calls };
}

/** An admission on fake timers (its clock is Date.now), recording why it refuses. */
function onFakeTime(options: Omit<AdmissionOptions, "now" | "onRefused">) {
  vi.useFakeTimers();
  const refusals: AdmissionRefusal[] = [];
  const admission = new EngineAdmission({
    ...options,
    now: () => Date.now(),
    onRefused: (reason) => refusals.push(reason),
  });
  return { admission, refusals };
}

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

  describe("tenants", () => {
    /** An admission over an engine whose reads each wait until released; reads named by tenant. */
    function tenants(options: { maxPending: number; slots: number; maxWaitMs?: number }) {
      const started: string[] = [];
      const releases = new Map<string, () => void>();
      const { admission, refusals } = onFakeTime(options);
      const read = (tenant: string, name: string) =>
        admission.admit(
          () =>
            new Promise<string>((resolve) => {
              started.push(name);
              releases.set(name, () => resolve(name));
            }),
          tenant,
        );
      const release = async (name: string, read: Promise<string>) => {
        releases.get(name)?.();
        await read;
      };
      return { read, release, started, refusals };
    }

    it("gives a freed slot to the tenant with the fewest reads running, its oldest first", async () => {
      const { read, release, started } = tenants({ maxPending: 100, slots: 2 });
      const a1 = read("a", "a1");
      const a2 = read("a", "a2");
      const waitingA = ["a3", "a4", "a5"].map((name) => read("a", name));
      const b1 = read("b", "b1");
      const b2 = read("b", "b2");
      expect(started).toEqual(["a1", "a2"]);
      await release("a1", a1);
      expect(started).toEqual(["a1", "a2", "b1"]); // b had none running
      await release("a2", a2);
      expect(started).toEqual(["a1", "a2", "b1", "a3"]); // a none, b one
      await release("b1", b1);
      expect(started).toEqual(["a1", "a2", "b1", "a3", "b2"]); // b none, a one
      await release("b2", b2);
      expect(started.slice(5)).toEqual(["a4"]);
      await release("a3", waitingA[0] as Promise<string>);
      await release("a4", waitingA[1] as Promise<string>);
      await release("a5", waitingA[2] as Promise<string>);
      expect(started.slice(5)).toEqual(["a4", "a5"]);
    });

    it("lets one tenant hold half the bound at most, so another still gets in", async () => {
      const { read, release, refusals } = tenants({ maxPending: 4, slots: 1 });
      const a1 = read("a", "a1");
      const a2 = read("a", "a2");
      await expect(read("a", "a3")).rejects.toMatchObject({
        code: "unavailable",
        message: expect.stringMatching(/busy: 2 reads of this project are waiting for it/),
      });
      const b1 = read("b", "b1");
      expect(refusals).toEqual(["tenant"]);
      await release("a1", a1);
      await release("a2", a2);
      await expect(release("b1", b1)).resolves.toBeUndefined();
    });

    it("judges a read's wait by its tenant's turns, and keeps each tenant's next round", async () => {
      const { read, release, started, refusals } = tenants({
        maxPending: 100,
        slots: 1,
        maxWaitMs: 200,
      });
      const first = read("a", "a0");
      vi.advanceTimersByTime(40);
      await release("a0", first); // reads take 40 ms
      const running = read("a", "a1");
      const waitingA = ["a2", "a3", "a4", "a5", "a6"].map((name) => read("a", name));
      for (const waiting of waitingA) waiting.catch(() => {});
      const b1 = read("b", "b1");
      // b's second goes after b1 and a turn of a's each: 4 reads of 40 ms, 160 ms, in time;
      // by the queue's length alone it would wait (5 + 2) × 40 = 280 ms.
      const b2 = read("b", "b2");
      const b2Refused = expect(b2).rejects.toMatchObject({
        message: expect.stringMatching(/waited 200 ms/),
      });
      // a's next waits behind its 5 and b's 2: 8 × 40 = 320 ms, refused at once.
      await expect(read("a", "a7")).rejects.toMatchObject({
        message: expect.stringMatching(/take about 320 ms, over 200 ms/),
      });
      expect(refusals).toEqual(["wait"]);
      // Time runs out for all waiting reads but each tenant's next: a3-a6 and b2.
      await vi.advanceTimersByTimeAsync(200);
      expect(refusals).toEqual(["wait", "wait", "wait", "wait", "wait", "wait"]);
      await b2Refused;
      await release("a1", running);
      expect(started).toEqual(["a0", "a1", "a2"]); // neither runs any: the older goes
      await release("a2", waitingA[0] as Promise<string>);
      expect(started).toEqual(["a0", "a1", "a2", "b1"]);
      await release("b1", b1);
    });
  });

  it("shares a group's bound between the organization's projects, looked up once known", async () => {
    const { engine, waiting } = heldEngine();
    const orgs: Record<string, string> = { p1: "x", p2: "x", p3: "y" };
    const reads = admitReads(
      engine,
      new EngineAdmission({ maxPending: 8, slots: 1, maxPendingPerGroup: 2 }),
      // p3's organization is looked up (a promise), the others are known at once.
      (project) => (project === "p3" ? Promise.resolve(orgs[project]) : orgs[project]),
    );
    const first = reads.query("SELECT 1", { tenant: "p1" });
    const second = reads.query("SELECT 2", { tenant: "p2" });
    await expect(reads.query("SELECT 3", { tenant: "p2" })).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/2 reads of this organization/),
    });
    const other = reads.query("SELECT 4", { tenant: "p3" });
    for (let i = 0; i < 3; i++) {
      await Promise.resolve();
      waiting[i]?.release();
    }
    await Promise.all([first, second, other]);
    expect(waiting).toHaveLength(3);
  });

  describe("groups and deadlines (TQL's admission)", () => {
    /** Work of `tenant` in `group`, held until released by name. */
    function groups(options: Omit<AdmissionOptions, "now" | "onRefused">) {
      const started: string[] = [];
      const releases = new Map<string, () => void>();
      const { admission, refusals } = onFakeTime(options);
      const work = (
        name: string,
        who: { tenant: string; group: string; deadline?: number; bounded?: boolean },
      ) =>
        admission.admit(
          () =>
            new Promise<string>((resolve) => {
              started.push(name);
              releases.set(name, () => resolve(name));
            }),
          who,
        );
      const release = async (name: string, work: Promise<string>) => {
        releases.get(name)?.();
        await work;
      };
      return { admission, work, release, started, refusals };
    }

    it("never lets one group hold every slot: another group's work starts at once", async () => {
      const { work, release, started } = groups({
        maxPending: 100,
        slots: 3,
        maxRunningPerGroup: 2,
      });
      // Five projects of organization x, each with a query: two run, three wait.
      const x = ["x1", "x2", "x3", "x4", "x5"].map((name) =>
        work(name, { tenant: name, group: "x" }),
      );
      expect(started).toEqual(["x1", "x2"]);
      // Organization y's query takes the slot x may not.
      const y = work("y1", { tenant: "y1", group: "y" });
      expect(started).toEqual(["x1", "x2", "y1"]);
      await release("y1", y);
      // A slot y freed stays y's to take: x is at its bound.
      expect(started).toEqual(["x1", "x2", "y1"]);
      await release("x1", x[0] as Promise<string>);
      expect(started).toEqual(["x1", "x2", "y1", "x3"]);
    });

    it("gives a freed slot to the group with the fewest running, then its tenant with the fewest", async () => {
      const { work, release, started } = groups({ maxPending: 100, slots: 3 });
      const x1 = work("x1", { tenant: "a", group: "x" });
      const x2 = work("x2", { tenant: "a", group: "x" });
      const y1 = work("y1", { tenant: "c", group: "y" });
      const x3 = work("x3", { tenant: "a", group: "x" }); // waits, oldest
      const x4 = work("x4", { tenant: "b", group: "x" }); // waits
      const y2 = work("y2", { tenant: "c", group: "y" }); // waits, youngest
      await release("y1", y1);
      // y runs none and x two: y's turn, though its work came last.
      expect(started).toEqual(["x1", "x2", "y1", "y2"]);
      await release("y2", y2);
      // Within x, b runs none and a two: b's, though a's came first.
      expect(started).toEqual(["x1", "x2", "y1", "y2", "x4"]);
      await release("x1", x1);
      expect(started).toEqual(["x1", "x2", "y1", "y2", "x4", "x3"]);
      await Promise.all([release("x2", x2), release("x3", x3), release("x4", x4)]);
    });

    it("refuses a group's work beyond its pending bound, unless its caller bounds it", async () => {
      const { work, refusals } = groups({ maxPending: 100, slots: 1, maxPendingPerGroup: 2 });
      void work("x1", { tenant: "a", group: "x" });
      void work("x2", { tenant: "b", group: "x" }).catch(() => {});
      await expect(work("x3", { tenant: "c", group: "x" })).rejects.toMatchObject({
        message: expect.stringMatching(
          /2 reads of this organization are waiting for it \(at most 2\)/,
        ),
      });
      expect(refusals).toEqual(["group"]);
      // A scheduled evaluation waits its turn instead.
      const scheduled = work("x4", { tenant: "c", group: "x", bounded: true });
      scheduled.catch(() => {});
      expect(refusals).toEqual(["group"]);
    });

    it("never counts work its caller bounds against a tenant's or group's pending bound", async () => {
      const { work, release, refusals } = groups({
        maxPending: 100,
        slots: 4,
        maxPendingPerTenant: 2,
        maxPendingPerGroup: 3,
      });
      // Two scheduled evaluations of project a: its interactive queries still have their 2.
      const evaluations = ["e1", "e2"].map((name) =>
        work(name, { tenant: "a", group: "x", bounded: true }),
      );
      const q1 = work("q1", { tenant: "a", group: "x" });
      const q2 = work("q2", { tenant: "a", group: "x" });
      await expect(work("q3", { tenant: "a", group: "x" })).rejects.toMatchObject({
        message: expect.stringMatching(/2 reads of this project/),
      });
      expect(refusals).toEqual(["tenant"]);
      // Once they end, the bound counts what is left: q1 and q2 still hold it.
      await release("e1", evaluations[0] as Promise<string>);
      await release("e2", evaluations[1] as Promise<string>);
      await expect(work("q4", { tenant: "a", group: "x" })).rejects.toBeDefined();
      await release("q1", q1);
      const q5 = work("q5", { tenant: "a", group: "x" });
      await Promise.all([release("q2", q2), release("q5", q5)]);
    });

    it("refuses waiting work when its own deadline passes, and frees its place", async () => {
      const { work, release, started, refusals, admission } = groups({ maxPending: 100, slots: 1 });
      const first = work("a1", { tenant: "a", group: "x" });
      const late = work("b1", { tenant: "b", group: "y", deadline: Date.now() + 500 });
      const refused = expect(late).rejects.toMatchObject({
        code: "unavailable",
        message: expect.stringMatching(/time limit ran out while it waited/),
      });
      await vi.advanceTimersByTimeAsync(499);
      expect(refusals).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await refused;
      expect(refusals).toEqual(["deadline"]);
      expect(admission.stats()).toEqual({ running: 1, waiting: 0 });
      await release("a1", first);
      expect(started).toEqual(["a1"]);
      // A deadline already past is refused without waiting.
      await expect(
        work("c1", { tenant: "c", group: "z", deadline: Date.now() }),
      ).rejects.toMatchObject({
        message: expect.stringMatching(/ran out before it started/),
      });
    });

    it("clears a waiting work's deadline timer once it starts", async () => {
      const { work, release, refusals } = groups({ maxPending: 100, slots: 1 });
      const first = work("a1", { tenant: "a", group: "x" });
      const second = work("b1", { tenant: "b", group: "y", deadline: Date.now() + 500 });
      await release("a1", first);
      await vi.advanceTimersByTimeAsync(1000);
      expect(refusals).toEqual([]);
      await release("b1", second);
    });
  });
});
