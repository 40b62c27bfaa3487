import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../lib/clock.js";
import { nextSlot } from "../lib/periodic-scheduler.js";
import type { AlertEvaluation } from "./evaluation-writes.js";
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

  /**
   * A thousand slow rules (25 s each, a heavy query up to its time limit) beside one quick 30 s
   * rule, scheduled with the default concurrency (4) for five minutes: when each rule ran.
   */
  async function floodBeside(
    slow: (i: number) => { projectId: string; orgId: string },
    quick: { projectId: string; orgId: string },
  ) {
    const { engine, runs } = recordingEngine(new Set(), (id) => (id === "alr_quick" ? 10 : 25_000));
    const rules = Array.from({ length: 1000 }, (_, i) => ({
      id: `alr_slow${i}`,
      ...slow(i),
      intervalMs: 30_000,
      lastEvaluatedAt: "2026-01-01T11:59:00.000Z",
    }));
    const scheduler = createAlertScheduler({
      engine,
      rules: {
        listSchedulable: async () => [
          ...rules,
          { id: "alr_quick", ...quick, intervalMs: 30_000, lastEvaluatedAt: null },
        ],
      },
      clock: systemClock,
      concurrency: 4,
      syncIntervalMs: 24 * 60 * MINUTE,
      logger: pino({ level: "silent" }),
    });
    await scheduler.start();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    await scheduler.stop();
    const quickRuns = runs.filter((r) => r.id === "alr_quick").map((r) => r.at);
    // Every 30 s, on its slot: in one FIFO it would wait behind hundreds of 25 s runs.
    expect(quickRuns.length).toBeGreaterThanOrEqual(9);
    for (let i = 1; i < quickRuns.length; i++)
      expect((quickRuns[i] as number) - (quickRuns[i - 1] as number)).toBeLessThanOrEqual(31_000);
    return runs.filter((r) => r.id !== "alr_quick");
  }

  it("takes due rules in turn by project: a thousand slow rules of one never hold back another's", async () => {
    const slowRuns = await floodBeside(() => ({ projectId: "prj_a", orgId: "org_x" }), {
      projectId: "prj_b",
      orgId: "org_x",
    });
    // A holds half of the evaluations at most: two at a time, 25 s each, over 5 minutes.
    expect(slowRuns.length).toBeLessThanOrEqual(2 * Math.ceil((5 * MINUTE) / 25_000) + 2);
    expect(slowRuns.length).toBeGreaterThanOrEqual(2 * Math.floor((5 * MINUTE) / 25_000) - 2);
  });

  it("takes turns by organization too: one owner's projects together never hold every place", async () => {
    // Two projects at half each would hold all four places; their organization holds three.
    await floodBeside((i) => ({ projectId: i % 2 === 0 ? "prj_x1" : "prj_x2", orgId: "org_x" }), {
      projectId: "prj_y",
      orgId: "org_y",
    });
  });
});
