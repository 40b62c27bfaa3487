import type pg from "pg";
import { nearestSlot, slotAtOrBefore } from "../../src/lib/periodic-scheduler.js";
import { log } from "../harness/run.js";
import { percentile, round } from "../harness/stats.js";
import { PERIOD_MS } from "./settings.js";

/**
 * The window's scheduled checks from the store: checks per second, lag from each slot, coverage
 * per whole minute, missed slots, and slots checked twice (a fencing bug).
 */
export async function slotFigures(sql: pg.Client, from: number, to: number) {
  // Slots whose checks may start up to half a period late or early are fully inside.
  const windowFrom = from + PERIOD_MS / 2;
  const windowTo = to - PERIOD_MS / 2;
  const { rows } = await sql.query<{ monitor_id: string; started_at: string; passed: number }>(
    "select monitor_id, started_at, passed from monitor_results where trigger = 'scheduled' and started_at >= $1",
    // The measured window only: the warm-up's first runs (at once, for never-checked monitors)
    // stand for the nearest slot, which their start time need not be.
    [new Date(from).toISOString()],
  );
  const lags: number[] = [];
  const seen = new Map<string, number>();
  let failed = 0;
  let inWindow = 0;
  for (const row of rows) {
    const at = Date.parse(row.started_at);
    const slot = nearestSlot(row.monitor_id, PERIOD_MS, at);
    const key = `${row.monitor_id}@${slot}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (at >= from && at < to) {
      inWindow++;
      lags.push(Math.max(0, at - slot));
      if (!row.passed) failed++;
    }
  }
  const duplicateSlots = [...seen.values()].filter((n) => n > 1).length;
  // Two checks standing for one slot would be a fencing bug: show a few, with their times.
  for (const [key] of [...seen].filter(([, n]) => n > 1).slice(0, 3)) {
    const id = key.split("@")[0];
    const times = rows.filter((r) => r.monitor_id === id).map((r) => r.started_at);
    log(`  ${key}: ${times.join(", ")}`);
  }
  // Coverage per whole minute of the window: every monitor has exactly one slot in it.
  const ids = (await sql.query<{ id: string }>("select id from monitors")).rows.map((r) => r.id);
  const coverage: number[] = [];
  let missedSlots = 0;
  for (let minute = windowFrom; minute + PERIOD_MS <= windowTo; minute += PERIOD_MS) {
    let covered = 0;
    for (const id of ids) {
      // Its one slot in [minute, minute + period).
      const slot = slotAtOrBefore(id, PERIOD_MS, minute + PERIOD_MS - 1);
      if (seen.has(`${id}@${slot}`)) covered++;
      else missedSlots++;
    }
    coverage.push((100 * covered) / ids.length);
  }
  const sorted = Float64Array.from(lags).sort();
  return {
    checksPerSecond: round(inWindow / ((to - from) / 1000), 1),
    lagMs: {
      p50: round(percentile(sorted, 50), 0),
      p99: round(percentile(sorted, 99), 0),
      max: round(sorted.at(-1) ?? Number.NaN, 0),
    },
    coverageMinPercent: round(Math.min(...coverage), 3),
    coverageMeanPercent: round(coverage.reduce((a, b) => a + b, 0) / coverage.length, 3),
    missedSlots,
    duplicateSlots,
    failedChecks: failed,
  };
}
