// The bench's settings (BENCH_API_* variables) and its targets.

export const SPANS = Number(process.env.BENCH_API_SPANS ?? 1_000_000);
export const RATE = Number(process.env.BENCH_API_RATE ?? 200);
export const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 20);
export const WARMUP_SECONDS = Number(process.env.BENCH_API_WARMUP_SECONDS ?? 2);
export const CONCURRENCY = Number(process.env.BENCH_API_CONCURRENCY ?? 8);
export const CLOSED_SECONDS = Number(process.env.BENCH_API_CLOSED_SECONDS ?? 5);
export const SERIAL_SECONDS = Number(process.env.BENCH_API_SERIAL_SECONDS ?? 3);
export const TRACES = Number(process.env.BENCH_API_TRACES ?? 300);
export const TARGET_P99_MS = 50;
export const MIXED_ONLY = process.env.BENCH_API_MIXED_ONLY === "1";
export const DISTINCT_ONLY = process.env.BENCH_API_DISTINCT_ONLY === "1";
export const DISTINCT_RATE = Number(process.env.BENCH_API_DISTINCT_RATE ?? 250);
export const DISTINCT_SECONDS = Number(process.env.BENCH_API_DISTINCT_SECONDS ?? 20);
export const DISTINCT_INGEST_SPANS = Number(process.env.BENCH_API_DISTINCT_INGEST_SPANS ?? 10_000);
export const DISTINCT_LEAD_SECONDS = Number(process.env.BENCH_API_DISTINCT_LEAD_SECONDS ?? 5);
export const DISTINCT_QUIET_RATE = Number(process.env.BENCH_API_DISTINCT_QUIET_RATE ?? 5);
export const TARGET_TRACE_ENGINE_MS = 5;
export const LOGS_PATH = "/v1/logs?limit=50";
