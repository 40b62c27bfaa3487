import type { Logger } from "pino";
import type { IdGenerator } from "../lib/ids.js";
import {
  deliverDueSubscriberMessages,
  type SubscriberDeliveryDeps,
} from "./subscribers-delivery.js";
import { announceChanges } from "./subscribers-watch.js";

// The subscribers' worker: every couple of seconds (and when kicked) it queues what changed on
// watched pages and sends what is due; now and then it drops expired sign-ups and old messages.

/** How often pages are looked at and the outbox drained. */
export const SUBSCRIBER_TICK_MS = 2_000;
const SWEEP_EVERY_MS = 10 * 60_000;
/** Sent and failed messages are kept this long (for support questions), then deleted. */
const KEEP_MESSAGES_MS = 7 * 86_400_000;
const SWEEP_BATCH = 500;

export interface SubscriberWorker {
  /** One pass: announce, send, and sweep when due; what it did. */
  runOnce(): Promise<{ queued: number; attempted: number }>;
  start(): void;
  stop(): Promise<void>;
  /** A run soon (a confirmation was queued); a no-op while stopped. */
  kick(): void;
}

export function createSubscriberWorker(
  deps: SubscriberDeliveryDeps & { newId: IdGenerator; logger: Logger; intervalMs?: number },
): SubscriberWorker {
  const log = deps.logger.child({ component: "status-page-subscribers" });
  let sweptAt = 0;
  let running: Promise<{ queued: number; attempted: number }> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;
  let started = false;

  async function sweep(): Promise<void> {
    const now = deps.clock.now();
    if (now.getTime() - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now.getTime();
    const { statusPageSubscribers, statusPageNotifications } = deps.meta.repos;
    const expired = await statusPageSubscribers.deleteExpired(now.toISOString(), SWEEP_BATCH);
    const cutoff = new Date(now.getTime() - KEEP_MESSAGES_MS).toISOString();
    const old = await statusPageNotifications.deleteFinishedBefore(cutoff, SWEEP_BATCH);
    if (expired + old > 0) log.info({ expired, old }, "status page subscribers: swept");
  }

  async function pass(): Promise<{ queued: number; attempted: number }> {
    await sweep();
    const queued = await announceChanges({
      ...deps,
      onPageError: (pageId, error) =>
        log.error(
          { pageId, err: error instanceof Error ? error.message : String(error) },
          "status page subscribers: could not announce a page's changes",
        ),
    });
    let attempted = 0;
    // Drains what is due now, a batch at a time.
    for (let batch = await deliverDueSubscriberMessages(deps); batch > 0; ) {
      attempted += batch;
      batch = batch >= 20 ? await deliverDueSubscriberMessages(deps) : 0;
    }
    return { queued, attempted };
  }

  const runOnce = () => {
    running ??= pass()
      .catch((error: unknown) => {
        log.error({ err: (error as Error).message }, "status page subscribers: run failed");
        return { queued: 0, attempted: 0 };
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  return {
    runOnce,
    start() {
      if (started) return;
      started = true;
      timer = setInterval(() => void runOnce(), deps.intervalMs ?? SUBSCRIBER_TICK_MS);
      timer.unref();
      void runOnce();
    },
    async stop() {
      started = false;
      clearInterval(timer);
      clearTimeout(soon);
      soon = undefined;
      await running;
    },
    kick() {
      if (!started || soon) return;
      soon = setTimeout(() => {
        soon = undefined;
        // A run in flight may have claimed before the new row: run again after it.
        void (running ?? Promise.resolve()).then(() => runOnce());
      }, 0);
      soon.unref();
    },
  };
}
