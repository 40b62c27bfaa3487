import { delayFigures, machine } from "../harness/process-figures.js";
import { round } from "../harness/stats.js";
import type { BaselineResult } from "./baseline.js";
import type { PartsFigures } from "./parts.js";
import {
  DELAY_RESOLUTION_MS,
  MONITORS,
  PERIOD_MS,
  SECONDS,
  TARGET_CPU_MICROS_PER_CHECK,
  TARGET_LAG_P99_MS,
  WARMUP_SECONDS,
} from "./settings.js";
import type { readStore, WindowFigures } from "./window.js";

interface TargetStats {
  requests: number;
  cpuMicros: number;
}

export interface MonitorsFigures {
  concurrency: number;
  createSeconds: number;
  window: WindowFigures;
  store: ReturnType<typeof readStore>;
  bare: BaselineResult;
  /** The target's counters around the baseline run. */
  targetBeforeBaseline: TargetStats;
  targetAfterBaseline: TargetStats;
  /** Where a check's CPU goes (--parts-seconds), else undefined. */
  parts?: PartsFigures | undefined;
}

/** The JSON result line's object: Vigil's window, the store, the bare baseline, their ratios. */
export function monitorsResult(f: MonitorsFigures) {
  const { concurrency, createSeconds, bare, targetBeforeBaseline, targetAfterBaseline } = f;
  const { startedInWindow, cpuUsed, window, recorded, expected, coverage, lag } = f.window;
  const { delay, rssSamples, targetBefore, targetAfter, graceMs, skippedInWindow } = f.window;
  const { failed, outcomes, reasons, checkMs, requestMs, utilization, cpuSplit } = f.window;
  const { stored, storedInWindow, fileBytes } = f.store;
  const rate = MONITORS / (PERIOD_MS / 1000);
  const checksPerSecond = startedInWindow / SECONDS;
  const cpuPerCheck = cpuUsed / Math.max(1, startedInWindow);
  // Checked = started and recorded (passed or failed); failures are reported on their own.
  const coverageComplete =
    window.filter(recorded).length === expected && coverage.every((n) => n === MONITORS);
  const targetMet = coverageComplete && lag.p99 < TARGET_LAG_P99_MS;
  const delayMs = delayFigures(delay, DELAY_RESOLUTION_MS);
  const rssMax = Math.max(...rssSamples);
  const mib = (bytes: number) => round(bytes / 2 ** 20, 1);
  const targetCpuPerRequest = {
    vigil: round(
      (targetAfter.cpuMicros - targetBefore.cpuMicros) /
        Math.max(1, targetAfter.requests - targetBefore.requests),
      1,
    ),
    baseline: round(
      (targetAfterBaseline.cpuMicros - targetBeforeBaseline.cpuMicros) /
        Math.max(1, targetAfterBaseline.requests - targetBeforeBaseline.requests),
      1,
    ),
  };

  // Issue 37's figure: this process's CPU (every thread: scheduler, runner, recording with the
  // state machine and the status pages' lookup, metrics) per check started in the window,
  // beside the bare undici loop's CPU per request at the same rate.
  const cpuFigure = {
    micros: round(cpuPerCheck, 1),
    bareRequestMicros: bare.cpuMicrosPerRequest,
    checksPerSecond: round(checksPerSecond, 1),
    targetMicros: TARGET_CPU_MICROS_PER_CHECK,
    met: coverageComplete && cpuPerCheck <= TARGET_CPU_MICROS_PER_CHECK,
  };

  return {
    bench: "monitors",
    cpuPerCheck: cpuFigure,
    monitors: MONITORS,
    frequency: "1m",
    concurrency,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    machine: machine(),
    createSeconds: round(createSeconds, 1),
    vigil: {
      checksStarted: startedInWindow,
      checksPerSecond: round(checksPerSecond, 1),
      expectedChecksPerSecond: round(rate, 1),
      slotsInWindow: expected,
      slotsChecked: window.length,
      coveragePerMinute: coverage,
      graceMs,
      scheduleLagMs: lag,
      skippedSlots: skippedInWindow,
      failedChecks: failed,
      outcomes,
      failureReasons: reasons,
      checkMs,
      requestMs,
      eventLoopDelayMs: delayMs,
      eventLoopUtilization: round(utilization, 3),
      rssMiB: {
        start: mib(rssSamples[0] ?? 0),
        end: mib(rssSamples.at(-1) ?? 0),
        max: mib(rssMax),
      },
      cpuMicrosPerCheck: round(cpuPerCheck, 1),
      cpuSplit,
      cpuShareOfOneCore: round(cpuUsed / (SECONDS * 1e6), 3),
      targetRequests: targetAfter.requests - targetBefore.requests,
    },
    store: {
      monitorResults: stored.rows,
      monitorResultsInWindow: storedInWindow,
      avgDetailBytes: Math.round(stored.detailBytes),
      metaFileMiB: mib(fileBytes),
      projectedRowsPerDay: Math.round(MONITORS * 1440),
    },
    baseline: bare,
    parts: f.parts ?? null,
    targetCpuMicrosPerRequest: targetCpuPerRequest,
    ratios: {
      cpuPerCheckToBareRequest: round(cpuPerCheck / bare.cpuMicrosPerRequest, 2),
      requestP50ToBare: round(requestMs.p50 / bare.latencyMs.p50, 2),
      requestP99ToBare: round(requestMs.p99 / bare.latencyMs.p99, 2),
    },
    target: {
      everyMonitorEveryMinute: true,
      lagP99Ms: TARGET_LAG_P99_MS,
      cpuMicrosPerCheck: TARGET_CPU_MICROS_PER_CHECK,
    },
    coverage_complete: coverageComplete,
    target_met: targetMet,
  };
}
export type MonitorsResult = ReturnType<typeof monitorsResult>;
