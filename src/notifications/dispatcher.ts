import type { Logger } from "pino";
import { errorMessage } from "./channels/registry.js";
import { type DeliveryOptions, deliverDueNotifications } from "./delivery-attempts.js";

const INTERVAL_MS = 5_000;

export interface NotificationDispatcherOptions extends DeliveryOptions {
  logger: Logger;
  /** How often the timer looks for due deliveries (default 5 s). */
  intervalMs?: number;
}

/** Drains the notification outbox: sends due deliveries through their channels, with retries. */
export interface NotificationDispatcher {
  /**
   * Sends every delivery due now and records each outcome; resolves with how many it attempted.
   * A failed send never rejects: it is recorded (retry or failed for good) and logged.
   */
  deliverDue(): Promise<number>;
  /** Starts the periodic run (unref'd: it never keeps the process alive). Due deliveries left by an earlier process go out on the first run. */
  start(): void;
  /** Stops the timer and waits for a run in flight. */
  stop(): Promise<void>;
  /** Asks for a run soon, e.g. after a check enqueued deliveries; a no-op while stopped. */
  kick(): void;
}

export function createNotificationDispatcher(
  options: NotificationDispatcherOptions,
): NotificationDispatcher {
  const log = options.logger.child({ component: "notifications" });
  const intervalMs = options.intervalMs ?? INTERVAL_MS;

  const deliverDue = () => deliverDueNotifications(options, log);

  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let started = false;

  function run(): void {
    if (running) {
      again = true;
      return;
    }
    running = deliverDue()
      .then(
        () => undefined,
        (error: unknown) =>
          log.error({ error: errorMessage(error) }, "notification dispatch run failed"),
      )
      .finally(() => {
        running = undefined;
        if (again && started) {
          again = false;
          run();
        }
      });
  }

  return {
    deliverDue,
    start() {
      if (started) return;
      started = true;
      timer = setInterval(run, intervalMs);
      timer.unref();
      run();
    },
    async stop() {
      started = false;
      again = false;
      clearInterval(timer);
      clearTimeout(soon);
      timer = undefined;
      soon = undefined;
      while (running) await running;
    },
    kick() {
      if (!started || soon) return;
      soon = setTimeout(() => {
        soon = undefined;
        run();
      }, 0);
      soon.unref();
    },
  };
}
