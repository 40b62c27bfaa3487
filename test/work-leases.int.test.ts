import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../src/lib/clock.js";
import { createLeasedScheduler, LeaseLostError } from "../src/lib/leased-scheduler.js";
import { createLogger } from "../src/lib/logger.js";
import type { PeriodicScheduler } from "../src/lib/periodic-scheduler.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import type { LeaseFence, WorkLeaseRepository } from "../src/meta/repositories/work-leases.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const PERIOD = 2_000;
const LEASE = 900;
const ENTITIES = Array.from({ length: 12 }, (_, i) => `mon_${String(i).padStart(2, "0")}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  worker: string;
  id: string;
  slot: number;
}

/**
 * Two leased schedulers in one process over one real (SQLite) lease store: they split the
 * entities, a worker that joins takes its share, and one whose store calls start failing (as a
 * killed process would stop renewing) loses its share to the other within a lease. Every run is
 * recorded through the fenced write, as the monitor and alert engines do, so the recorded slots
 * show what the fences let through: each slot once, none missed.
 */
describe("leased scheduling across workers", () => {
  const dir = makeTempDir();
  let store: MetaStore;
  const recorded: Run[] = [];
  const refused: Run[] = [];
  const schedulers: PeriodicScheduler[] = [];

  function worker(name: string, leases: WorkLeaseRepository, dead: () => boolean = () => false) {
    const running = new Set<string>();
    const scheduler = createLeasedScheduler({
      what: "test entity",
      kind: "monitor",
      workerId: name,
      leases,
      leaseMs: LEASE,
      syncMs: 500,
      clock: systemClock,
      concurrency: 100,
      logger: createLogger("silent"),
      listActive: async () => ENTITIES.map((id) => ({ id, periodMs: PERIOD })),
      async run(id: string, fence: LeaseFence) {
        running.add(id);
        try {
          await sleep(50); // the check itself
          if (dead()) throw new Error("process gone"); // killed mid-check: nothing recorded
          await store.transaction(async (tx) => {
            if (!(await tx.repos.workLeases.advance(fence))) throw new LeaseLostError(fence);
          });
          recorded.push({ worker: name, id, slot: fence.slot });
          return true;
        } catch (error) {
          if (error instanceof LeaseLostError) refused.push({ worker: name, id, slot: fence.slot });
          throw error;
        } finally {
          running.delete(id);
        }
      },
      isRunning: (id) => running.has(id),
      idle: async () => {
        while (running.size > 0) await sleep(10);
      },
    });
    schedulers.push(scheduler);
    return scheduler;
  }

  beforeAll(async () => {
    store = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
    await store.migrate();
  });
  afterAll(async () => {
    for (const scheduler of schedulers) await scheduler.stop();
    await store?.close();
    dir.remove();
  });

  it("splits the work, moves a silent worker's share within a lease, and records each slot once", async () => {
    const real = store.repos.workLeases;
    let crashed = false;
    const failing = <T>(work: () => Promise<T>) =>
      crashed ? Promise.reject(new Error("process gone")) : work();
    // w1's store calls fail once "crashed": it stops renewing, as a killed process does.
    const w1Leases: WorkLeaseRepository = {
      ...real,
      heartbeat: (...args) => failing(() => real.heartbeat(...args)),
      held: (...args) => failing(() => real.held(...args)),
      claim: (...args) => failing(() => real.claim(...args)),
      release: (...args) => failing(() => real.release(...args)),
      leave: (...args) => failing(() => real.leave(...args)),
    };
    const started = Date.now();
    await worker("w1", w1Leases, () => crashed).start();
    await sleep(1_000);
    await worker("w2", real).start();
    await sleep(3 * PERIOD);
    const owners = await real.list("monitor");
    const share = (w: string) => owners.filter((l) => l.owner === w).length;
    // Joined: the entities are split evenly.
    expect([share("w1"), share("w2")]).toEqual([6, 6]);

    crashed = true;
    const crashedAt = Date.now();
    await sleep(4 * PERIOD);
    const ended = Date.now();
    expect((await real.list("monitor")).every((l) => l.owner === "w2")).toBe(true);

    // No slot recorded twice.
    const keys = recorded.map((r) => `${r.id}@${r.slot}`);
    expect(keys.length).toBe(new Set(keys).size);
    // Every slot of every entity from the first full period to the last one due is recorded.
    for (const id of ENTITIES) {
      const slots = recorded
        .filter((r) => r.id === id)
        .map((r) => r.slot)
        .sort((a, b) => a - b);
      const due = slots.filter((s) => s > started + PERIOD && s < ended - PERIOD);
      const gaps = due.slice(1).map((slot, i) => slot - (due[i] ?? 0));
      expect(
        gaps.every((gap) => gap === PERIOD),
        `${id}: ${gaps.join(",")}`,
      ).toBe(true);
      expect(due.length).toBeGreaterThanOrEqual(Math.floor((ended - started) / PERIOD) - 3);
    }
    // The share w1 held was run by w2 after the crash; w1 recorded nothing after it ran out.
    const afterCrash = recorded.filter((r) => r.slot > crashedAt + LEASE + 500);
    expect(afterCrash.length).toBeGreaterThan(0);
    expect(afterCrash.every((r) => r.worker === "w2")).toBe(true);
  }, 30_000);

  it("re-reads the entities only when their fingerprint changes", async () => {
    let version = "v1";
    let listed = 0;
    const scheduler = createLeasedScheduler({
      what: "fingerprinted entity",
      kind: "alert_rule",
      workerId: "w-version",
      leases: store.repos.workLeases,
      leaseMs: 300,
      syncMs: 0,
      clock: systemClock,
      concurrency: 1,
      logger: createLogger("silent"),
      listActive: async () => {
        listed++;
        return [{ id: "alr_one", periodMs: 60_000 }];
      },
      version: async () => version,
      run: async () => true,
      isRunning: () => false,
      idle: async () => {},
    });
    schedulers.push(scheduler);
    await scheduler.start();
    await sleep(1_000); // about ten rounds
    expect(listed).toBe(1);
    version = "v2";
    await sleep(300);
    expect(listed).toBe(2);
    // A local create or resume reads the list at once, whatever the fingerprint says.
    scheduler.schedule({ id: "alr_two", periodMs: 60_000 }, { soon: true });
    await sleep(50);
    expect(listed).toBe(3);
    await scheduler.stop();
  });
});
