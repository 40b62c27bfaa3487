import type { ErrorGroupStore } from "../ingest/error-groups.js";
import type { Batcher } from "../lib/batcher.js";
import type { Clock } from "../lib/clock.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import type { TraceKey } from "./traces.js";

/** What the read API's verbs use: the telemetry engine, the time, and the error-group writer. */
export interface ReadDeps {
  telemetry: TelemetryExecutor;
  clock: Clock;
  errorGroups: ErrorGroupStore;
  /** Trace lookups, batched while the engine is busy (see createTraceSpanLoader). */
  traceSpans: Batcher<TraceKey, Record<string, unknown>[]>;
}
