import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../lib/clock.js";
import { nextSlot } from "../lib/periodic-scheduler.js";
import type { AlertEvaluation } from "./evaluator.js";
import { createAlertScheduler } from "./scheduler.js";

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** An engine that records when each rule was evaluated; rules in `gone` no longer exist. */
function recordingEngine(gone: ReadonlySet<string> = new Set()) {
  const runs: { id: string; at: number }[] = [];
  return {
    runs,
    engine: {
      async evaluate(id: string): Promise<AlertEvaluation | undefined> {
        runs.push({ id, at: Date.now() });
        if (gone.has(id)) return undefined;
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
          { id: "alr_a", intervalMs: MINUTE, lastEvaluatedAt: null },
          { id: "alr_b", intervalMs: 5 * MINUTE, lastEvaluatedAt: null },
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
          { id: "alr_gone", intervalMs: MINUTE, lastEvaluatedAt: null },
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
});
