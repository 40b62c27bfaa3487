import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import { createRetentionSweep, type RetentionSweep } from "../lib/retention-sweep.js";
import type { MetaAccess } from "../meta/meta-store.js";

export interface ResultRetentionDeps {
  meta: MetaAccess;
  clock: Clock;
  logger: Logger;
  retentionDays: number;
  batchSize?: number;
  intervalMs?: number;
}

/** Deletes check results past retention (spec: 90 days): at start, then hourly. */
export function createResultRetention(deps: ResultRetentionDeps): RetentionSweep {
  const { meta, ...options } = deps;
  return createRetentionSweep({
    ...options,
    what: "monitor results",
    deleteBatch: (cutoff, limit) => meta.repos.monitorResults.deleteOlderThan(cutoff, limit),
  });
}
export type ResultRetention = RetentionSweep;
