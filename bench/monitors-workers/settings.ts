import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { round } from "../harness/stats.js";

// The bench's settings (command-line flags) and the CPU and memory of other processes.

export const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "20000" },
    workers: { type: "string", default: "2" },
    "warmup-seconds": { type: "string", default: "60" },
    seconds: { type: "string", default: "180" },
  },
});
export const MONITORS = Number(args.monitors);
export const WORKERS = Number(args.workers);
export const WARMUP_SECONDS = Number(args["warmup-seconds"]);
export const SECONDS = Number(args.seconds);
export const PERIOD_MS = 60_000;

/** CPU seconds of every PostgreSQL process (the bench's own server is the only one running). */
export function postgresCpuSeconds(): number {
  const out = execFileSync("ps", ["-C", "postgres", "-o", "times="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((n) => Number.isFinite(n))
    .reduce((a, b) => a + b, 0);
}

/** CPU seconds (user + system) and RSS of a process, from /proc. */
export function procStats(pid: number): { cpuSeconds: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return { cpuSeconds: ticks / 100, rssMiB: round(Number(rss) / 1024, 0) };
}

export interface PhaseResult {
  workers: number;

  warmupSeconds: number;
  checksPerSecond: number;
  lagMs: { p50: number; p99: number; max: number };
  coverageMinPercent: number;
  coverageMeanPercent: number;
  missedSlots: number;
  duplicateSlots: number;
  failedChecks: number;
  cpuSecondsPerWorker: number[];
  rssMiBPerWorker: number[];
  postgresCpuSeconds: number;
  targetCpuSeconds: number;
}
