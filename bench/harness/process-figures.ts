import { cpus, loadavg } from "node:os";
import type { monitorEventLoopDelay } from "node:perf_hooks";
import { round } from "./stats.js";

// What a bench measures of its own process: CPU, memory, the event loop, the machine.

/** CPU time (user + system) in µs, since `since` when given. */
export const cpuMicros = (since?: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

export const mib = (bytes: number) => round(bytes / 2 ** 20, 1);

/**
 * Event-loop delay p50 / p99 / max in ms. The histogram holds whole timer intervals: the delay
 * is what exceeds the sampling interval (`resolutionMs`).
 */
export function delayFigures(
  delay: ReturnType<typeof monitorEventLoopDelay>,
  resolutionMs: number,
) {
  const ms = (ns: number) => round(Math.max(0, ns / 1e6 - resolutionMs));
  return { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) };
}

/** Samples this process's RSS every `everyMs` until stopped: start, end and max in MiB. */
export function sampleRss(everyMs = 500) {
  const samples: number[] = [];
  const sample = () => samples.push(process.memoryUsage().rss);
  sample();
  const timer = setInterval(sample, everyMs);
  return () => {
    clearInterval(timer);
    sample();
    return {
      start: mib(samples[0] ?? 0),
      end: mib(samples.at(-1) ?? 0),
      max: mib(Math.max(...samples)),
    };
  };
}

/** The machine a result was measured on. */
export const machine = () => ({ cpus: cpus().length, loadAverage1m: round(loadavg()[0] ?? 0) });
