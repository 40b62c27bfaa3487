import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../lib/clock.js";
import { nextSlot } from "../lib/periodic-scheduler.js";
import type { AlertEvaluation } from "./evaluator.js";
import { createAlertScheduler } from "./scheduler.js";

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** An engine that records when each rule was evaluated; rules in `gone` no longer exist. */
function recordingEngine(gone: ReadonlySet<string> = new Set(), takesMs = (_id: string) => 0) {
  const runs: { id: string; at: number }[] = [];
  let inFlight = 0;
  return {
    runs,
    inFlight: () => inFlight,
    engine: {
      async evaluateScheduled(id: string): Promise<AlertEvaluation | undefined> {
        runs.push({ id, at: Date.now() });
        if (gone.has(id)) return undefined;
        inFlight++;
        await new Promise((resolve) => setTimeout(resolve, takesMs(id)));
        inFlight--;
        return {
          ruleId: id,
          at: new Date().toISOString(),
          durationMs: 1,
          plan: {
            muted: false,
            state: "ok",
            lastValue: null,
            lastSeries: 0,
            lastError: null,
            failures: 0,
            failingSince: null,
            upserts: [],
            deletes: [],
            changes: [],
            ruleEvents: [],
            firing: [],
          },
          notifications: 0,
          webhooks: 0,
          incidentId: null,
        };
      },
      isRunning: () => false,
      idle: async () => {},
    },
  };
}

describe("createAlertScheduler", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("evaluates every rule on its own slot once per interval, and follows schedule/unschedule", async () => {
    const { engine, runs } = recordingEngine();
    const scheduler = createAlertScheduler({
      engine,
      rules: {
        listSchedulable: async () => [
          {
            id: "alr_a",
            projectId: "prj_a",
            orgId: "org_x",
            intervalMs: MINUTE,
            lastEvaluatedAt: null,
          },
          {
            id: "alr_b",
            projectId: "prj_a",
            orgId: "org_x",
            intervalMs: 5 * MINUTE,
            lastEvaluatedAt: null,
          },
        ],
      },
      clock: systemClock,
      concurrency: 2,
      syncIntervalMs: 24 * 60 * MINUTE,
      logger: pino({ level: "silent" }),
    });
    await scheduler.start();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    const at = (id: string) => runs.filter((r) => r.id === id).map((r) => r.at);
    expect(at("alr_a")).toHaveLength(10);
    expect(at("alr_b")).toHaveLength(2);
    expect(at("alr_a")[0]).toBe(nextSlot("alr_a", MINUTE, T0));
    scheduler.schedule({ id: "alr_new", periodMs: MINUTE }, { soon: true });
    scheduler.unschedule("alr_a");
    // Run at once, then on its own slot at least half an interval later.
    await vi.advanceTimersByTimeAsync(1.5 * MINUTE);
    expect(at("alr_new")).toHaveLength(2);
    expect(at("alr_a")).toHaveLength(10);
    await scheduler.stop();
  });

  it("drops a rule deleted meanwhile (its evaluation finds nothing)", async () => {
    const { engine, runs } = recordingEngine(new Set(["alr_gone"]));
    const scheduler = createAlertScheduler({
      engine,
      rules: {
        listSchedulable: async () => [
          {
            id: "alr_gone",
            projectId: "prj_a",
            orgId: "org_x",
            intervalMs: MINUTE,
            lastEvaluatedAt: null,
          },
        ],
      },
      clock: systemClock,
      concurrency: 1,
      syncIntervalMs: 24 * 60 * MINUTE,
      logger: pino({ level: "silent" }),
    });
    await scheduler.start();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(runs).toHaveLength(1);
    expect(scheduler.stats().scheduled).toBe(0);
    await scheduler.stop();
  });

  it("takes due rules in turn by project: a thousand slow rules of one never hold back another's", async () => {
    // Project A's rules each take 25 s (a heavy query up to its time limit); B's takes 10 ms.
    const { engine, runs } = recordingEngine(new Set(), (id) => (id === "alr_b" ? 10 : 25_000));
    const rulesA = Array.from({ length: 1000 }, (_, i) => ({
      id: `alr_a${i}`,
      projectId: "prj_a",
      orgId: "org_x",
      intervalMs: 30_000,
      lastEvaluatedAt: "2026-01-01T11:59:00.000Z",
    }));
    const scheduler = createAlertScheduler({
      engine,
      rules: {
        listSchedulable: async () => [
          ...rulesA,
          {
            id: "alr_b",
            projectId: "prj_b",
            orgId: "org_x",
            intervalMs: 30_000,
            lastEvaluatedAt: null,
          },
        ],
      },
      clock: systemClock,
      concurrency: 4,
      syncIntervalMs: 24 * 60 * MINUTE,
      logger: pino({ level: "silent" }),
    });
    await scheduler.start();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    const b = runs.filter((r) => r.id === "alr_b").map((r) => r.at);
    // Every 30 s, on its slot: in one FIFO it would wait behind hundreds of A's 25 s runs.
    expect(b.length).toBeGreaterThanOrEqual(9);
    for (let i = 1; i < b.length; i++)
      expect((b[i] as number) - (b[i - 1] as number)).toBeLessThanOrEqual(31_000);
    // A holds half of the evaluations at most: two at a time, 25 s each, over 5 minutes.
    const a = runs.filter((r) => r.id !== "alr_b");
    expect(a.length).toBeLessThanOrEqual(2 * Math.ceil((5 * MINUTE) / 25_000) + 2);
    expect(a.length).toBeGreaterThanOrEqual(2 * Math.floor((5 * MINUTE) / 25_000) - 2);
    await scheduler.stop();
  });

  it("takes turns by organization too: one owner's projects together never hold every place", async () => {
    // Organization x's two projects each hold 500 slow rules; organization y has one rule.
    const { engine, runs } = recordingEngine(new Set(), (id) => (id === "alr_y" ? 10 : 25_000));
    const slow = Array.from({ length: 1000 }, (_, i) => ({
      id: `alr_x${i}`,
      projectId: i % 2 === 0 ? "prj_x1" : "prj_x2",
      orgId: "org_x",
      intervalMs: 30_000,
      lastEvaluatedAt: "2026-01-01T11:59:00.000Z",
    }));
    const scheduler = createAlertScheduler({
      engine,
      rules: {
        listSchedulable: async () => [
          ...slow,
          {
            id: "alr_y",
            projectId: "prj_y",
            orgId: "org_y",
            intervalMs: 30_000,
            lastEvaluatedAt: null,
          },
        ],
      },
      clock: systemClock,
      concurrency: 4,
      syncIntervalMs: 24 * 60 * MINUTE,
      logger: pino({ level: "silent" }),
    });
    await scheduler.start();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    const y = runs.filter((r) => r.id === "alr_y").map((r) => r.at);
    // Two projects at half each would hold all four places; the organization holds three.
    expect(y.length).toBeGreaterThanOrEqual(9);
    for (let i = 1; i < y.length; i++)
      expect((y[i] as number) - (y[i - 1] as number)).toBeLessThanOrEqual(31_000);
    await scheduler.stop();
  });
});
