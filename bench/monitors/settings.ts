import { parseArgs } from "node:util";

// The bench's settings (command-line flags) and its targets.

export const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "10000" },
    "warmup-seconds": { type: "string", default: "60" },
    seconds: { type: "string", default: "180" },
    "baseline-seconds": { type: "string", default: "60" },
    /** The bare loop's warm-up: its CPU per request falls by a third over the first half minute (JIT). */
    "baseline-warmup-seconds": { type: "string", default: "30" },
    concurrency: { type: "string" },
    /**
     * After the window, where a check's CPU goes: bare request, runner, engine.check, each this
     * many seconds per round at the window's rate (bench/monitors/parts.ts); 0 skips it.
     */
    "parts-seconds": { type: "string", default: "0" },
    "parts-rounds": { type: "string", default: "3" },
    /** Writes a CPU profile of the measured window (main thread) to this file. */
    profile: { type: "string" },
  },
});
export const MONITORS = Number(args.monitors);
export const WARMUP_SECONDS = Number(args["warmup-seconds"]);
export const SECONDS = Number(args.seconds);
export const BASELINE_SECONDS = Number(args["baseline-seconds"]);
export const BASELINE_WARMUP_SECONDS = Number(args["baseline-warmup-seconds"]);
export const PARTS_SECONDS = Number(args["parts-seconds"]);
export const PARTS_ROUNDS = Number(args["parts-rounds"]);
export const PERIOD_MS = 60_000;
export const TARGET_LAG_P99_MS = 2000;
/** Issue 37: server CPU per keep-alive API check at 100 checks/s (--monitors 6000). */
export const TARGET_CPU_MICROS_PER_CHECK = 400;
/** How long after the window checks of its last slots may still start before they count as missed. */
export const GRACE_MS = 30_000;
/** Sampling interval of the event-loop delay histograms. */
export const DELAY_RESOLUTION_MS = 10;
