import type { ErrorGroupStore } from "../ingest/error-groups.js";
import type { Clock } from "../lib/clock.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";

/** What the read API's verbs use: the telemetry engine, the time, and the error-group writer. */
export interface ReadDeps {
  telemetry: TelemetryExecutor;
  clock: Clock;
  errorGroups: ErrorGroupStore;
}
