import { printResult } from "../harness/run.js";
import { printTable } from "../harness/table.js";
import type { burstPhase } from "./burst.js";
import type { scheduledPhase } from "./scheduled.js";
import {
  BATCH,
  INGEST_RATE,
  MINUTES,
  RULES,
  round,
  SPANS,
  stats,
  TARGET_LAG_P99_S,
} from "./settings.js";

export interface AlertsFigures {
  concurrency: number;
  scheduled: Awaited<ReturnType<typeof scheduledPhase>>;
  burst: Awaited<ReturnType<typeof burstPhase>>;
  ingestErrors: number;
}

/** The result, the table and the summary lines, then the JSON result line. */
export function report(f: AlertsFigures) {
  const { concurrency, ingestErrors } = f;
  const {
    lagS,
    recordedLagS,
    evalMs,
    queryMs,
    errors,
    fired,
    scheduledSeconds,
    scheduledIngest,
    engineShare,
  } = f.scheduled;
  const { bareFirst, tqlWall, burstWall, bareWall, burstMs, bareMs, tqlMs } = f.burst;
  const lag = stats(lagS);
  const result = {
    spans: SPANS,
    rules: RULES,
    minutes: MINUTES,
    concurrency,
    ingestRate: INGEST_RATE,
    batchSpans: BATCH,
    scheduled: {
      evaluations: evalMs.length,
      perSecond: round(evalMs.length / scheduledSeconds, 1),
      errors,
      fired,
      lagSeconds: lag,
      recordedLagSeconds: stats(recordedLagS),
      evaluationMs: stats(evalMs),
      queryMs: stats(queryMs),
      engineSharePct: round(engineShare * 100, 1),
      ingestAckMs: stats(scheduledIngest),
      ingestErrors,
    },
    burst: { wallSeconds: round(burstWall, 2), evaluationMs: stats(burstMs) },
    tqlOnly: { wallSeconds: round(tqlWall, 2), queryMs: stats(tqlMs) },
    bare: {
      wallSeconds: round(bareWall, 2),
      firstWallSeconds: round(bareFirst, 2),
      queryMs: stats(bareMs),
    },
    burstOverBarePct: round((burstWall / bareWall - 1) * 100, 1),
    targetLagP99Seconds: TARGET_LAG_P99_S,
    meetsTarget: lag.p99 < TARGET_LAG_P99_S,
  };
  printTable(
    ["measure", "n", "p50", "p99", "max"],
    [
      ["lag, slot → start (s)", ...Object.values(lag).map(String)],
      [
        "lag, slot → recorded (s)",
        ...Object.values(result.scheduled.recordedLagSeconds).map(String),
      ],
      ["evaluation (ms)", ...Object.values(result.scheduled.evaluationMs).map(String)],
      ["of which query (ms)", ...Object.values(result.scheduled.queryMs).map(String)],
      ["ingest ack (ms)", ...Object.values(result.scheduled.ingestAckMs).map(String)],
      ["burst evaluation (ms)", ...Object.values(result.burst.evaluationMs).map(String)],
      ["TQL service only (ms)", ...Object.values(result.tqlOnly.queryMs).map(String)],
      ["bare query (ms)", ...Object.values(result.bare.queryMs).map(String)],
    ],
  );
  console.log(
    `scheduled: ${result.scheduled.evaluations} evaluations (${result.scheduled.perSecond}/s), engine share ${result.scheduled.engineSharePct} %, ${errors} errors, ${fired} fires; lag p99 ${lag.p99} s (target < ${TARGET_LAG_P99_S} s)`,
  );
  console.log(
    `burst of ${RULES}: bare ${result.bare.firstWallSeconds} s, TQL service only ${result.tqlOnly.wallSeconds} s, engine ${result.burst.wallSeconds} s, bare again ${result.bare.wallSeconds} s (engine ${result.burstOverBarePct} % over bare)`,
  );
  printResult(result);
}
