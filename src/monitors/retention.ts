import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import type { MetaAccess } from "../meta/meta-store.js";

export interface ResultRetentionDeps {
  meta: MetaAccess;
  clock: Clock;
  logger: Logger;
  retentionDays: number;
  /** Rows per DELETE, so one purge never holds the SQLite writer for long. */
  batchSize?: number;
  intervalMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Deletes check results past retention (spec: 90 days): at start, then hourly. */
export function createResultRetention(deps: ResultRetentionDeps) {
  const batchSize = deps.batchSize ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  async function purge(): Promise<number> {
    const cutoff = new Date(deps.clock.now().getTime() - deps.retentionDays * DAY_MS).toISOString();
    let total = 0;
    for (;;) {
      const deleted = await deps.meta.repos.monitorResults.deleteOlderThan(cutoff, batchSize);
      total += deleted;
      if (deleted < batchSize) break;
      // Let checks and requests in between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (total > 0) deps.logger.info({ deleted: total, cutoff }, "deleted expired monitor results");
    return total;
  }

  const tick = () => {
    running ??= purge()
      .catch((error: unknown) => {
        deps.logger.error({ err: (error as Error).message }, "monitor result retention failed");
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  return {
    purge,
    start() {
      void tick();
      timer = setInterval(tick, deps.intervalMs ?? 60 * 60 * 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
export type ResultRetention = ReturnType<typeof createResultRetention>;
