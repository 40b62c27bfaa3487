import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../lib/clock.js";
import { nearestSlot, slotAtOrBefore } from "../lib/periodic-scheduler.js";
import type { CheckTrigger, RecordedCheck } from "./check-recording.js";
import {
  createMonitorScheduler,
  type MonitorScheduler,
  nextSlot,
  type SchedulerDeps,
} from "./scheduler.js";

const logger = pino({ level: "silent" });
const MINUTE = 60_000;

/** What the fake engine answers: only "recorded or not" matters to the scheduler. */
const recorded = {} as RecordedCheck;

/** An engine that records when each check started and holds it for `holdMs`. */
function fakeEngine(holdMs = 10) {
  const starts: { id: string; at: number }[] = [];
  const running = new Set<string>();
  const engine = {
    async check(id: string, _trigger: CheckTrigger): Promise<RecordedCheck | undefined> {
      starts.push({ id, at: Date.now() });
      running.add(id);
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      running.delete(id);
      return recorded;
    },
    isRunning: (id: string) => running.has(id),
    idle: async () => {},
    abort: () => {},
  };
  return { engine, starts };
}

/** A started scheduler on the system clock (faked by vitest); by default one with monitors scheduled by hand only. */
async function startScheduler(
  overrides: Partial<SchedulerDeps> & Pick<SchedulerDeps, "engine">,
): Promise<MonitorScheduler> {
  const scheduler = createMonitorScheduler({
    clock: systemClock,
    concurrency: 10,
    logger,
    listActive: async () => [],
    // Without a store to sync with, the set comes from listActive at start and schedule() calls.
    syncIntervalMs: 24 * 60 * MINUTE,
    ...overrides,
  });
  await scheduler.start();
  return scheduler;
}

describe("nextSlot", () => {
  it("is strictly after t, on the monitor's own offset, one period apart", () => {
    const t = Date.UTC(2026, 0, 1, 12, 0, 0);
    const a = nextSlot("mon_a", MINUTE, t);
    expect(a).toBeGreaterThan(t);
    expect(a - t).toBeLessThanOrEqual(MINUTE);
    expect(nextSlot("mon_a", MINUTE, a)).toBe(a + MINUTE);
    expect(nextSlot("mon_a", MINUTE, a - 1)).toBe(a);
  });

  it("spreads many monitors across the period instead of bursting at :00", () => {
    const t = Date.UTC(2026, 0, 1, 12, 0, 0);
    const perSecond = new Array(60).fill(0);
    for (let i = 0; i < 6000; i++)
      perSecond[Math.floor((nextSlot(`mon_${i}`, MINUTE, t) - t) / 1000) % 60]++;
    expect(Math.max(...perSecond)).toBeLessThan(160); // 100 per second on average
    expect(Math.min(...perSecond)).toBeGreaterThan(50);
  });
});

describe("createMonitorScheduler", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1, 12, 0, 0) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs each monitor once per period on its slot", async () => {
    const { engine, starts } = fakeEngine();
    const scheduler = await startScheduler({
      engine,
      listActive: async () => [
        { id: "mon_a", periodMs: MINUTE },
        { id: "mon_b", periodMs: 5 * MINUTE },
      ],
    });
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    const a = starts.filter((s) => s.id === "mon_a").map((s) => s.at);
    const b = starts.filter((s) => s.id === "mon_b").map((s) => s.at);
    expect(a).toHaveLength(10);
    expect(b).toHaveLength(2);
    for (let i = 1; i < a.length; i++) expect((a[i] ?? 0) - (a[i - 1] ?? 0)).toBe(MINUTE);
    expect(a[0]).toBe(nextSlot("mon_a", MINUTE, Date.UTC(2026, 0, 1, 12, 0, 0)));
    await scheduler.stop();
  });

  it("with a tick, slots due within it start together at its end, each standing for its own slot", async () => {
    const { engine, starts } = fakeEngine();
    const ids = Array.from({ length: 600 }, (_, i) => `mon_${i}`);
    const scheduler = await startScheduler({
      engine,
      listActive: async () => ids.map((id) => ({ id, periodMs: MINUTE })),
      concurrency: 1000,
      tickMs: 1000,
    });
    const t0 = Date.now();
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    // Every monitor every minute, each within the tick after its slot, on whole seconds.
    for (const id of ids) {
      const at = starts.filter((s) => s.id === id).map((s) => s.at);
      const slot = nextSlot(id, MINUTE, t0);
      expect(at).toEqual([0, 1, 2].map((k) => Math.ceil((slot + k * MINUTE) / 1000) * 1000));
    }
    // 600 monitors spread over a minute wake the scheduler at most once a second.
    expect(starts).toHaveLength(3 * 600);
    expect(new Set(starts.map((s) => s.at)).size).toBeLessThanOrEqual(3 * 60);
    await scheduler.stop();
  });

  it("never overlaps a monitor with its own previous run: the slot is skipped", async () => {
    const { engine, starts } = fakeEngine(90_000);
    const scheduler = await startScheduler({
      engine,
      listActive: async () => [{ id: "mon_slow", periodMs: MINUTE }],
    });
    await vi.advanceTimersByTimeAsync(6 * MINUTE);
    // A run takes 1.5 periods, so every other slot is given up.
    expect(starts.length).toBe(3);
    await scheduler.stop();
  });

  it("bounds concurrency; queued checks start as others finish", async () => {
    const { engine, starts } = fakeEngine(1000);
    let peak = 0;
    let live = 0;
    const scheduler = await startScheduler({
      engine: {
        ...engine,
        async check(id, trigger) {
          live++;
          peak = Math.max(peak, live);
          await engine.check(id, trigger);
          live--;
          return undefined;
        },
      },
      concurrency: 3,
    });
    for (let i = 0; i < 9; i++)
      scheduler.schedule({ id: `mon_${i}`, periodMs: MINUTE }, { soon: true });
    await vi.advanceTimersByTimeAsync(5000);
    expect(starts).toHaveLength(9);
    expect(peak).toBe(3);
    await scheduler.stop();
  });

  it("soon runs a new monitor at once; unschedule stops it; reschedule changes its period", async () => {
    const { engine, starts } = fakeEngine();
    const scheduler = await startScheduler({
      engine,
    });
    scheduler.schedule({ id: "mon_new", periodMs: MINUTE }, { soon: true });
    await vi.advanceTimersByTimeAsync(100);
    expect(starts).toHaveLength(1);
    scheduler.schedule({ id: "mon_new", periodMs: 5 * MINUTE });
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(starts).toHaveLength(2);
    scheduler.unschedule("mon_new");
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(starts).toHaveLength(2);
    expect(scheduler.stats().scheduled).toBe(0);
    await scheduler.stop();
  });

  it("after a restart keeps the same slots (no burst, no immediate re-check)", async () => {
    const first = fakeEngine();
    const list = async () => [{ id: "mon_r", periodMs: MINUTE }];
    const a = await startScheduler({
      engine: first.engine,
      concurrency: 5,
      listActive: list,
    });
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    await a.stop();
    const second = fakeEngine();
    const b = await startScheduler({
      engine: second.engine,
      concurrency: 5,
      listActive: list,
    });
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    const all = [...first.starts, ...second.starts].map((s) => s.at);
    for (let i = 1; i < all.length; i++) expect((all[i] ?? 0) - (all[i - 1] ?? 0)).toBe(MINUTE);
    await b.stop();
  });

  it("a first check run at once rejoins the monitor's own grid", async () => {
    const { engine, starts } = fakeEngine();
    const scheduler = await startScheduler({
      engine,
    });
    scheduler.schedule({ id: "mon_grid", periodMs: MINUTE }, { soon: true });
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    const [first, ...later] = starts.map((s) => s.at);
    expect(later.length).toBeGreaterThanOrEqual(2);
    expect((later[0] ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(MINUTE / 2);
    for (const at of later) expect(nextSlot("mon_grid", MINUTE, at - 1)).toBe(at);
    await scheduler.stop();
  });

  it("from its last recorded slot: a missed slot runs at once, late; a slot already run is not run again", async () => {
    const { engine, starts } = fakeEngine();
    const scheduler = await startScheduler({ engine });
    const now = Date.now();
    const missed = slotAtOrBefore("mon_late", MINUTE, now);
    // Taken over: its last run was two slots ago, so the latest slot is due (late) now.
    scheduler.schedule({ id: "mon_late", periodMs: MINUTE, lastSlot: missed - MINUTE });
    // Resumed at once, but the slot it would stand for was already run: it waits for the next.
    const ran = nearestSlot("mon_done", MINUTE, now);
    scheduler.schedule({ id: "mon_done", periodMs: MINUTE, lastSlot: ran }, { soon: true });
    await vi.advanceTimersByTimeAsync(10);
    expect(starts.map((s) => s.id)).toEqual(["mon_late"]);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    const done = starts.filter((s) => s.id === "mon_done").map((s) => s.at);
    expect(done[0]).toBe(nextSlot("mon_done", MINUTE, ran));
    const late = starts.filter((s) => s.id === "mon_late").map((s) => s.at);
    expect(late.slice(1)).toEqual([missed + MINUTE, missed + 2 * MINUTE]);
    await scheduler.stop();
  });

  it("a missed slot half a period or more old: the run at once stands for the next slot", async () => {
    const { engine, starts } = fakeEngine();
    const scheduler = await startScheduler({ engine });
    const now = Date.now();
    const missed = slotAtOrBefore("mon_very_late", MINUTE, now);
    expect(now - missed).toBeGreaterThanOrEqual(MINUTE / 2); // the id is chosen for it
    scheduler.schedule({ id: "mon_very_late", periodMs: MINUTE, lastSlot: missed - MINUTE });
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    const at = starts.map((s) => s.at);
    // Not again moments later, when the next slot comes: a period after it.
    expect(at).toEqual([now, missed + 2 * MINUTE, missed + 3 * MINUTE]);
    await scheduler.stop();
  });

  it("a run that waited half a period or more in the queue moves the next one a period on", async () => {
    const starts: { id: string; at: number }[] = [];
    const running = new Set<string>();
    let hogged = false;
    const engine = {
      async check(id: string) {
        starts.push({ id, at: Date.now() });
        running.add(id);
        // The first check of mon_hog holds the only place for 100 s.
        const hold = id === "mon_hog" && !hogged ? 100_000 : 10;
        if (id === "mon_hog") hogged = true;
        await new Promise((resolve) => setTimeout(resolve, hold));
        running.delete(id);
        return recorded;
      },
      isRunning: (id: string) => running.has(id),
      idle: async () => {},
    };
    const scheduler = await startScheduler({ engine, concurrency: 1 });
    const now = Date.now();
    scheduler.schedule({ id: "mon_hog", periodMs: MINUTE }, { soon: true });
    scheduler.schedule({ id: "mon_waits", periodMs: MINUTE });
    await vi.advanceTimersByTimeAsync(4 * MINUTE);
    const waits = starts.filter((s) => s.id === "mon_waits").map((s) => s.at);
    const due = nextSlot("mon_waits", MINUTE, now);
    expect(waits[0]).toBe(now + 100_000);
    expect((waits[0] ?? 0) - due).toBeGreaterThanOrEqual(MINUTE / 2);
    // It stood for the slot nearest its start; the next run comes a period after that slot.
    const stoodFor = nearestSlot("mon_waits", MINUTE, waits[0] ?? 0);
    expect(waits.slice(1, 3)).toEqual([stoodFor + MINUTE, stoodFor + 2 * MINUTE]);
    await scheduler.stop();
  });

  it("drops a monitor the engine no longer checks, and syncs with the store", async () => {
    const { engine, starts } = fakeEngine();
    let active = [{ id: "mon_a", periodMs: MINUTE }];
    const scheduler = await startScheduler({
      engine: {
        ...engine,
        check: async (id, trigger) => (id === "mon_gone" ? undefined : engine.check(id, trigger)),
      },
      syncIntervalMs: MINUTE,
      listActive: async () => active,
    });
    scheduler.schedule({ id: "mon_gone", periodMs: MINUTE }, { soon: true });
    await vi.advanceTimersByTimeAsync(1000);
    expect(scheduler.stats().scheduled).toBe(1);
    // Another node creates mon_b and pauses mon_a.
    active = [{ id: "mon_b", periodMs: MINUTE }];
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    const before = starts.filter((s) => s.id === "mon_a").length;
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(starts.filter((s) => s.id === "mon_a").length).toBe(before);
    expect(starts.filter((s) => s.id === "mon_b").length).toBeGreaterThanOrEqual(3);
    await scheduler.stop();
  });
});
