/**
 * What the quiet-day benches share (ADR 0019): a table's active parts per day, and the engine's
 * forced merge of every quiet day, its age shortened from an hour to 1 s so the bench need not
 * wait an hour; and the timing of one read per key, first and again, beside `SELECT 1`.
 */
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { latencies, round } from "./harness/http-load.js";
import { cpuSeconds } from "./harness/serve-process.js";

/** The table's days (partitions), active parts in all, and the most parts one day has. */
export async function partsPerDay(telemetry: TelemetryExecutor, table: string) {
  const rows = await telemetry.query<{ parts: string }>(
    `SELECT count() AS parts FROM system.parts
     WHERE database = {db:String} AND table = {t:String} AND active GROUP BY partition`,
    { params: { db: telemetry.database, t: table } },
  );
  const counts = rows.map((r) => Number(r.parts));
  return {
    days: counts.length,
    parts: counts.reduce((a, b) => a + b, 0),
    max: Math.max(...counts),
  };
}

/**
 * Shortens the table's forced-merge age to 1 s, starts its merges and waits until every day is
 * one part; stops its merges again. Returns how long that took, its process CPU, and the parts.
 */
export async function mergeQuietDays(telemetry: TelemetryExecutor, table: string) {
  const target = `${telemetry.database}.${table}`;
  await telemetry.command(
    `ALTER TABLE ${target} MODIFY SETTING min_age_to_force_merge_seconds = 1`,
  );
  const started = performance.now();
  const cpuBefore = cpuSeconds(process.pid);
  await telemetry.command(`SYSTEM START MERGES ${target}`);
  let parts = await partsPerDay(telemetry, table);
  while (parts.max > 1) {
    if (performance.now() - started > 600_000)
      throw new Error(`the days of ${table} were not merged in 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    parts = await partsPerDay(telemetry, table);
  }
  const merge = {
    seconds: round((performance.now() - started) / 1000, 1),
    cpuSeconds: round(cpuSeconds(process.pid) - cpuBefore, 1),
  };
  await telemetry.command(`SYSTEM STOP MERGES ${target}`);
  return { merge, parts };
}

/**
 * `read` of each key once, one after the other, then the same again; and `SELECT 1` as often:
 * wall time p50/p90/p99 of each. The first pass is what distinct reads cost; in the second the
 * engine's query condition cache skips the granules that held nothing the first time.
 */
export async function readEachTwice(
  telemetry: TelemetryExecutor,
  keys: readonly string[],
  read: (key: string) => Promise<unknown>,
) {
  const time = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    return performance.now() - started;
  };
  const first: number[] = [];
  for (const key of keys) first.push(await time(() => read(key)));
  const again: number[] = [];
  for (const key of keys) again.push(await time(() => read(key)));
  const floor: number[] = [];
  for (let i = 0; i < keys.length; i++) floor.push(await time(() => telemetry.query("SELECT 1")));
  const figures = (ms: number[]) => {
    const { p50, p90, p99 } = latencies(Float64Array.from(ms));
    return { p50, p90, p99 };
  };
  return { first: figures(first), sameAgain: figures(again), selectOne: figures(floor) };
}
