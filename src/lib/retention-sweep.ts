import type { Logger } from "pino";
import type { Clock } from "./clock.js";
import { createPeriodicTask } from "./periodic-task.js";

export interface RetentionSweepOptions {
  clock: Clock;
  logger: Logger;
  /** What is swept, for the log ("monitor results"). */
  what: string;
  retentionDays: number;
  /** Deletes up to `limit` rows older than `cutoff` (ISO) and says how many it deleted. */
  deleteBatch(cutoff: string, limit: number): Promise<number>;
  /** Rows per delete, so one sweep never holds the SQLite writer for long (default 5,000). */
  batchSize?: number;
  /** How often it runs after the first run at start (default hourly). */
  intervalMs?: number;
}

/** Deletes data past its retention: once at start, then periodically, in bounded batches. */
export interface RetentionSweep {
  /** Deletes everything past retention now; resolves with how many rows went. */
  purge(): Promise<number>;
  start(): void;
  /** Stops the timer and waits for a run in flight. */
  stop(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function createRetentionSweep(options: RetentionSweepOptions): RetentionSweep {
  const batchSize = options.batchSize ?? 5000;

  async function purge(): Promise<number> {
    const now = options.clock.now().getTime();
    const cutoff = new Date(now - options.retentionDays * DAY_MS).toISOString();
    let total = 0;
    for (;;) {
      const deleted = await options.deleteBatch(cutoff, batchSize);
      total += deleted;
      if (deleted < batchSize) break;
      // Let other work in between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (total > 0)
      options.logger.info({ deleted: total, cutoff }, `deleted expired ${options.what}`);
    return total;
  }

  const task = createPeriodicTask({
    run: async () => {
      await purge();
    },
    intervalMs: options.intervalMs ?? 60 * 60 * 1000,
    onError: (error) =>
      options.logger.error({ err: error.message }, `${options.what} retention failed`),
  });

  return { purge, start: task.start, stop: task.stop };
}
