// EngineAdmission shared between tenants and their groups (organizations), and deadlines.
import { afterEach, describe, expect, it, vi } from "vitest";
import { heldEngine, onFakeTime } from "../../test/helpers/held-engine.js";
import type { AdmissionOptions } from "./admission-options.js";
import { admitReads } from "./admitted-reads.js";
import { EngineAdmission } from "./engine-admission.js";

describe("admitReads", () => {
  afterEach(() => {
    vi.useRealTimers();
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
