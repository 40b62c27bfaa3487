import type { ErrorGroupStore } from "../ingest/error-groups.js";
import type { Batcher } from "../lib/batcher.js";
import type { Clock } from "../lib/clock.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { TotalCache } from "./total-cache.js";
import { createTraceLoader, type LoadedTrace, type TraceKey } from "./trace-lookup.js";

/** What the read API's verbs use: the telemetry engine, the time, and the error-group writer. */
export interface ReadDeps {
  telemetry: TelemetryExecutor;
  clock: Clock;
  errorGroups: ErrorGroupStore;
  /** Trace lookups, batched while the engine is busy (see createTraceLoader). */
  traces: Batcher<TraceKey, LoadedTrace>;
  /** List totals of recent queries, so later pages need not count again (see TotalCache). */
  totals: TotalCache;
}

/** The read API's dependencies over these stores, with their own loaders and caches. */
export function createReadDeps(
  stores: Pick<ReadDeps, "telemetry" | "clock" | "errorGroups">,
): ReadDeps {
  return {
    ...stores,
    traces: createTraceLoader(stores.telemetry),
    totals: new TotalCache(stores.clock),
  };
}
