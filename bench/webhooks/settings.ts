import { parseArgs } from "node:util";
import { percentile, round } from "../harness/stats.js";

// The bench's settings (command-line flags) and what every part of it shares.

export const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "20000" },
    concurrency: { type: "string" },
    endpoints: { type: "string", default: "1" },
    burst: { type: "string", default: "1000" },
    "steady-rate": { type: "string", default: "1000" },
    "steady-seconds": { type: "string", default: "10" },
    chunk: { type: "string", default: "100" },
    "skip-baseline": { type: "boolean", default: false },
  },
});
export const EVENTS = Number(args.events);
export const ENDPOINTS = Number(args.endpoints);
export const BURST = Number(args.burst);
export const STEADY_RATE = Number(args["steady-rate"]);
export const STEADY_SECONDS = Number(args["steady-seconds"]);
export const CHUNK = Number(args.chunk);
export const SKIP_BASELINE = args["skip-baseline"] === true;
export const TARGET_DELIVERIES_PER_SECOND = 3000;
export const TARGET_BURST_P99_MS = 250;
/** Issue 37: server CPU per delivery in the throughput phase (measured 276–290 µs before). */
export const TARGET_CPU_MICROS_PER_DELIVERY = 150;
export const EVENT_TYPE = "monitor.down";
/** Sampling interval of the event-loop delay histograms. */
export const DELAY_RESOLUTION_MS = 10;
/** How long a phase may wait for its last arrivals before it is reported incomplete. */
export const ARRIVAL_TIMEOUT_MS = 180_000;

export const TLS_DIR = new URL("../../test/fixtures/tls/", import.meta.url);

export const yieldToLoop = () => new Promise((resolve) => setImmediate(resolve));
/** Wall-clock milliseconds with sub-ms resolution; the receiver stamps arrivals the same way. */
export const now = () => performance.timeOrigin + performance.now();

export interface Spread {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = Float64Array.from(values).sort();
  return {
    p50: round(percentile(sorted, 50), 1),
    p95: round(percentile(sorted, 95), 1),
    p99: round(percentile(sorted, 99), 1),
    max: round(sorted.at(-1) ?? Number.NaN, 1),
  };
}

/** A monitor.down payload of the usual size, tagged with the bench's sequence number. */
export function eventData(seq: number) {
  return {
    monitorId: "mon_01kbench000000000000000000",
    incidentId: `inc_01kbench${String(seq).padStart(18, "0")}`,
    projectId: "prj_01kbench000000000000000000",
    monitor: {
      id: "mon_01kbench000000000000000000",
      name: "Checkout API",
      type: "api",
      url: "https://shop.example.com/api/health",
    },
    incident: {
      id: `inc_01kbench${String(seq).padStart(18, "0")}`,
      startedAt: "2026-11-21T09:30:00.000Z",
      endedAt: null,
      durationMs: null,
    },
    check: {
      resultId: "run_01kbench000000000000000000",
      startedAt: "2026-11-21T09:30:00.000Z",
      failedStep: "health",
      reason: "status_code equals 200: got 503",
      statusCode: 503,
    },
    bench: { seq },
  };
}
