import type { AppDeps } from "../../src/composition/app-deps.js";
import { systemClock } from "../../src/lib/clock.js";
import { createPeriodicScheduler } from "../../src/lib/periodic-scheduler.js";
import { log } from "../harness/run.js";
import { BATCH, INGEST_RATE, MINUTES, RULES } from "./settings.js";

/**
 * Scheduled: the periodic scheduler drives the service's alert engine for MINUTES, noting each
 * evaluation's lag (slot → start), its time and its query's, while ingest runs.
 */
export async function scheduledPhase(
  deps: AppDeps,
  ruleIds: readonly string[],
  concurrency: number,
  ingestMs: readonly number[],
) {
  const lagS: number[] = [];
  const recordedLagS: number[] = [];
  const evalMs: number[] = [];
  const queryMs: number[] = [];
  let errors = 0;
  let fired = 0;
  let lastLag = 0;
  const scheduler = createPeriodicScheduler({
    what: "alert rule",
    runner: {
      async run(id) {
        const lag = lastLag;
        const t = performance.now();
        const result = await deps.alerts.engine.evaluate(id);
        const ms = performance.now() - t;
        lagS.push(lag);
        recordedLagS.push(lag + ms / 1000);
        evalMs.push(ms);
        if (result) {
          queryMs.push(result.durationMs);
          if (result.plan.lastError) errors++;
          fired += result.plan.changes.filter((c) => c.kind === "fired").length;
        }
        return result;
      },
      isRunning: (id) => deps.alerts.engine.isRunning(id),
      idle: () => deps.alerts.engine.idle(),
    },
    listActive: async () => ruleIds.map((id) => ({ id, periodMs: 60_000 })),
    clock: systemClock,
    concurrency,
    logger: deps.logger,
    // Called just before run() for the same job: the lag of the evaluation about to start.
    onLag: (seconds) => {
      lastLag = seconds;
    },
  });
  log(
    `scheduled: ${RULES} rules at 1 min, concurrency ${concurrency}, for ${MINUTES} min, ingest ${INGEST_RATE}/s × ${BATCH} spans`,
  );
  const ingestBefore = ingestMs.length;
  const started = performance.now();
  await scheduler.start();
  await new Promise((resolve) => setTimeout(resolve, MINUTES * 60_000));
  await scheduler.stop();
  const scheduledSeconds = (performance.now() - started) / 1000;
  const scheduledIngest = ingestMs.slice(ingestBefore);
  const engineShare = queryMs.reduce((a, b) => a + b, 0) / evalMs.reduce((a, b) => a + b, 0);

  return {
    lagS,
    recordedLagS,
    evalMs,
    queryMs,
    errors,
    fired,
    scheduledSeconds,
    scheduledIngest,
    engineShare,
  };
}
