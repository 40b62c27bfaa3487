import { latencies } from "../harness/http-load.js";

// The bench's settings (BENCH_STATUS_* variables), the page it builds, and small shared helpers.

export const RATE = Number(process.env.BENCH_STATUS_RATE ?? 500);
export const SECONDS = Number(process.env.BENCH_STATUS_SECONDS ?? 20);
export const WARMUP_SECONDS = Number(process.env.BENCH_STATUS_WARMUP_SECONDS ?? 2);
export const CONCURRENCY = Number(process.env.BENCH_STATUS_CONCURRENCY ?? 4);
export const CLOSED_SECONDS = Number(process.env.BENCH_STATUS_CLOSED_SECONDS ?? 5);
export const BUILDS = Number(process.env.BENCH_STATUS_BUILDS ?? 20);
export const LOW_RATE = Number(process.env.BENCH_STATUS_LOW_RATE ?? 50);
export const LOW_SECONDS = Number(process.env.BENCH_STATUS_LOW_SECONDS ?? 10);
/** The client's Accept-Encoding: a browser's by default, `identity` for uncompressed bodies. */
export const ENCODING = process.env.BENCH_STATUS_ENCODING ?? "br, gzip";
export const TARGET_P99_MS = 20;

export const COMPONENTS = 50;
export const GROUPS = ["Core API", "Web", "Data", "Integrations", "Regions"];
export const DAYS = 90;
export const INCIDENTS = 30;
export const PAST_WINDOWS = 6;
export const SLUG = "bench-status";
export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

/** A small seeded generator (mulberry32): the same page on every run. */
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs `fn` `times` times, one after the other: latencies of each call, in ms. */
export async function timed(times: number, fn: () => unknown) {
  const taken = new Float64Array(times);
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await fn();
    taken[i] = performance.now() - t0;
  }
  return latencies(taken);
}
