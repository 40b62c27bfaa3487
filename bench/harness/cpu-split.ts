import { constants, PerformanceObserver } from "node:perf_hooks";
import { round } from "./stats.js";
import { type ThreadCpu, threadCpu, threadCpuPerUnit } from "./thread-cpu.js";

// Where this process's CPU went over a measured stretch: its event loop's thread against all its
// other threads (Node 20 leaves them unnamed: V8's garbage collector and compiler helpers,
// libuv's pool, SQLite's checkpointer), and the collector's pauses of the event loop by kind.

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks",
};

export interface CpuSplit {
  /** µs per unit on the event loop's thread (the garbage collector's pauses included). */
  eventLoopMicros: number;
  /** µs per unit on every other thread of the process. */
  otherThreadsMicros: number;
  /** The collector's pauses of the event loop: how many, and µs of pause per unit, by kind. */
  gcPauses: Record<string, { count: number; micros: number }>;
}

/**
 * Starts measuring. The function it returns stops, and the one that returns gives the split per
 * `units` of work (counted after the stop, if need be).
 */
export function startCpuSplit(): () => (units: number) => CpuSplit {
  const before = threadCpu(process.pid);
  const pauses = new Map<string, { count: number; ms: number }>();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as { detail?: { kind?: number } };
      const kind = GC_KINDS[detail?.kind ?? -1] ?? "other";
      const seen = pauses.get(kind) ?? { count: 0, ms: 0 };
      seen.count++;
      seen.ms += entry.duration;
      pauses.set(kind, seen);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return () => {
    observer.disconnect();
    const after = threadCpu(process.pid);
    return (units) => split(before, after, pauses, units);
  };
}

function split(
  before: ThreadCpu,
  after: ThreadCpu,
  pauses: Map<string, { count: number; ms: number }>,
  units: number,
): CpuSplit {
  const perUnit = (micros: number) => round(micros / Math.max(1, units), 1);
  const byName = threadCpuPerUnit(before, after, Math.max(1, units), 0);
  const { "event loop": eventLoop = 0, ...others } = byName;
  return {
    eventLoopMicros: eventLoop,
    otherThreadsMicros: round(
      Object.values(others).reduce((sum, micros) => sum + micros, 0),
      1,
    ),
    gcPauses: Object.fromEntries(
      [...pauses].map(([kind, p]) => [kind, { count: p.count, micros: perUnit(p.ms * 1000) }]),
    ),
  };
}
