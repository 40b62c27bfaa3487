import type { AppDeps } from "../../src/composition/app-deps.js";
import { compileTql } from "../../src/tql/compile.js";
import { GUARD_SETTINGS, PROJECT_PARAM } from "../../src/tql/printer.js";
import { log } from "../harness/run.js";
import { percentileOf as percentile } from "../harness/stats.js";
import { BURST, RULES, round, ruleQuery } from "./settings.js";

/**
 * Burst through the engine, then the same queries bare, both at the same concurrency: a warm-up
 * slice, then bare, the TQL service alone, the engine, and bare again (BURST off skips them).
 */
export async function burstPhase(
  deps: AppDeps,
  projectId: string,
  ruleIds: readonly string[],
  concurrency: number,
  lagS: readonly number[],
) {
  const { telemetry, config } = deps;
  async function pool<T>(items: readonly T[], run: (item: T, index: number) => Promise<void>) {
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < items.length) {
          const index = next++;
          await run(items[index] as T, index);
        }
      }),
    );
    return (performance.now() - t) / 1000;
  }
  const settings = {
    ...GUARD_SETTINGS,
    max_execution_time: config.tql.maxExecutionSeconds,
    readonly: 1,
    os_thread_priority: 19,
    output_format_json_quote_64bit_integers: 1,
  };
  const burstMs: number[] = [];
  const bareMs: number[] = [];
  const burst = () =>
    pool(ruleIds, async (id) => {
      const t = performance.now();
      await deps.alerts.engine.evaluate(id);
      burstMs.push(performance.now() - t);
    });
  const bare = () =>
    pool(ruleIds, async (_id, index) => {
      const { query } = ruleQuery(index);
      const { sql, params } = compileTql(query, { database: telemetry.database, rowCap: 10_001 });
      const t = performance.now();
      await telemetry.queryCompact(sql, {
        params: { ...params, [PROJECT_PARAM]: projectId },
        settings,
        adHoc: true,
      });
      bareMs.push(performance.now() - t);
    });
  // A warm-up slice, then bare, the TQL service alone, the engine, and bare again.
  log(
    `scheduled done: lag p99 ${round(percentile(lagS, 99), 2)} s over ${lagS.length} evaluations; burst beside bare`,
  );
  await pool(ruleIds.slice(0, Math.min(50, RULES)), async (_id, index) => {
    const { query } = ruleQuery(index);
    const { sql, params } = compileTql(query, { database: telemetry.database, rowCap: 10_001 });
    await telemetry.queryCompact(sql, {
      params: { ...params, [PROJECT_PARAM]: projectId },
      settings,
      adHoc: true,
    });
  });
  // The rule's query through the TQL service alone (no recording): where the engine's time goes.
  const tqlMs: number[] = [];
  const tqlOnly = () =>
    pool(ruleIds, async (_id, index) => {
      const t = performance.now();
      await deps.tql.queryForAlert(projectId, ruleQuery(index).query);
      tqlMs.push(performance.now() - t);
    });
  const bareFirst = BURST ? await bare() : Number.NaN;
  const tqlWall = BURST ? await tqlOnly() : Number.NaN;
  const burstWall = BURST ? await burst() : Number.NaN;
  const bareWall = BURST ? await bare() : Number.NaN;
  return { bareFirst, tqlWall, burstWall, bareWall, burstMs, bareMs, tqlMs };
}
