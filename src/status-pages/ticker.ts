import type { Logger } from "pino";
import { createPeriodicTask, type PeriodicTask } from "../lib/periodic-task.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageEngine } from "./signals.js";

/** How often maintenance edges are moved and components reconciled with their sources. */
export const STATUS_PAGE_TICK_MS = 15_000;

/** The state engine's tick, run periodically; `runOnce` lets tests drive it on a fake clock. */
export type StatusPageTicker = PeriodicTask;

export function createStatusPageTicker(deps: {
  engine: StatusPageEngine;
  meta: MetaAccess;
  logger: Logger;
  intervalMs?: number;
}): StatusPageTicker {
  return createPeriodicTask({
    run: async () => {
      const moved = await deps.engine.tick(deps.meta);
      if (moved.windowsMoved > 0 || moved.componentsChanged > 0)
        deps.logger.info(moved, "status pages: maintenance windows and component states moved");
    },
    intervalMs: deps.intervalMs ?? STATUS_PAGE_TICK_MS,
    onError: (error) => deps.logger.error({ err: error.message }, "status page tick failed"),
  });
}
