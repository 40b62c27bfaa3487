import type { Logger } from "pino";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageEngine } from "./engine.js";

/** How often maintenance edges are moved and components reconciled with their sources. */
export const STATUS_PAGE_TICK_MS = 15_000;

/** Runs the state engine's tick periodically; one run at a time. */
export interface StatusPageTicker {
  /** One tick now (tests drive it with a fake clock). */
  runOnce(): Promise<void>;
  start(): void;
  /** Stops the timer and waits for a tick in flight. */
  stop(): Promise<void>;
}

export function createStatusPageTicker(deps: {
  engine: StatusPageEngine;
  meta: MetaAccess;
  logger: Logger;
  intervalMs?: number;
}): StatusPageTicker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const runOnce = () => {
    running ??= deps.engine
      .tick(deps.meta)
      .then((moved) => {
        if (moved.windowsMoved > 0 || moved.componentsChanged > 0)
          deps.logger.info(moved, "status pages: maintenance windows and component states moved");
      })
      .catch((error: unknown) => {
        deps.logger.error({ err: (error as Error).message }, "status page tick failed");
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    runOnce,
    start() {
      void runOnce();
      timer = setInterval(runOnce, deps.intervalMs ?? STATUS_PAGE_TICK_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
