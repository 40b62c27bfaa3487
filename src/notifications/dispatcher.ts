import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import type { Metrics } from "../lib/metrics.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { NotificationDelivery } from "../meta/repositories/notification-deliveries.js";
import type { ChannelDeps } from "./channels/channel-type.js";
import {
  channelTypeSpec,
  errorMessage,
  loadChannelSettings,
  sendThroughChannel,
} from "./channels/registry.js";
import { readStoredNotification } from "./notification-payloads.js";

/** Attempts per delivery, and the wait before each retry (after attempt 1, after attempt 2). */
export const MAX_ATTEMPTS = 3;
export const RETRY_DELAYS_MS = [30_000, 120_000] as const;
const INTERVAL_MS = 5_000;
const BATCH_SIZE = 20;
/** Longer than the slowest send (Slack 10 s, SMTP ≤ 50 s), so a lease never ends mid-send. */
const LEASE_MS = 120_000;
/** Logged when an outcome came too late: the lease ran out and another worker owns the delivery. */
const LEASE_LOST =
  "notification delivery outcome not recorded: its lease ran out and it was claimed again";

export interface NotificationDispatcherOptions {
  meta: MetaAccess;
  clock: Clock;
  channelDeps: ChannelDeps;
  secretBox: SecretBox;
  logger: Logger;
  /** How often the timer looks for due deliveries (default 5 s). */
  intervalMs?: number;
  metrics?: Pick<Metrics, "notificationDeliveries">;
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

/** A failure that retrying cannot fix (the channel is gone or of an unknown type). */
class PermanentFailure extends Error {}

export function createNotificationDispatcher(
  options: NotificationDispatcherOptions,
): NotificationDispatcher {
  const { meta, clock, logger } = options;
  const log = logger.child({ component: "notifications" });
  const intervalMs = options.intervalMs ?? INTERVAL_MS;

  async function send(delivery: NotificationDelivery): Promise<void> {
    const channel = await meta.repos.notificationChannels.findById(delivery.channelId);
    if (!channel) throw new PermanentFailure("the channel no longer exists");
    const spec = channelTypeSpec(channel.type);
    if (!spec) throw new PermanentFailure(`unknown channel type '${channel.type}'`);
    const settings = loadChannelSettings(spec, channel, options.secretBox);
    const notification = readStoredNotification(delivery.payload);
    await sendThroughChannel(spec, notification, settings, options.channelDeps, {
      deliveryId: delivery.id,
      occurredAt: delivery.createdAt,
    });
  }

  async function attempt(delivery: NotificationDelivery): Promise<void> {
    const attempts = delivery.attempts + 1;
    // The lease it was claimed with: its outcome is recorded only while that still holds.
    const heldUntil = delivery.nextAttemptAt ?? "";
    try {
      await send(delivery);
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempts - 1];
      const final =
        error instanceof PermanentFailure || attempts >= MAX_ATTEMPTS || delay === undefined;
      const nextAttemptAt =
        final || delay === undefined ? null : new Date(clock.now().getTime() + delay).toISOString();
      const message = errorMessage(error);
      // Channel errors are redacted of secret settings before they reach here.
      log.warn(
        {
          deliveryId: delivery.id,
          channelId: delivery.channelId,
          event: delivery.event,
          attempt: attempts,
          nextAttemptAt,
          error: message,
        },
        final
          ? "notification delivery failed for good"
          : "notification delivery failed; will retry",
      );
      options.metrics?.notificationDeliveries.inc({ outcome: final ? "failed" : "retry" });
      const recorded = await meta.repos.notificationDeliveries.markFailed(delivery.id, {
        error: message,
        attempts,
        nextAttemptAt,
        heldUntil,
      });
      if (!recorded) log.warn({ deliveryId: delivery.id }, LEASE_LOST);
      return;
    }
    options.metrics?.notificationDeliveries.inc({ outcome: "sent" });
    const recorded = await meta.repos.notificationDeliveries.markSent(
      delivery.id,
      clock.now().toISOString(),
      heldUntil,
    );
    if (!recorded) log.warn({ deliveryId: delivery.id }, LEASE_LOST);
    log.info(
      {
        deliveryId: delivery.id,
        channelId: delivery.channelId,
        event: delivery.event,
        attempt: attempts,
      },
      "notification delivered",
    );
  }

  async function deliverDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = clock.now();
      const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
      const batch = await meta.repos.notificationDeliveries.claimDue(
        now.toISOString(),
        BATCH_SIZE,
        leaseUntil,
      );
      // One channel's slow answer must not hold up the others.
      await Promise.all(
        batch.map((delivery) =>
          attempt(delivery).catch((error: unknown) => {
            // Recording the outcome failed (store down): the lease runs out and it is retried.
            log.error(
              { deliveryId: delivery.id, error: errorMessage(error) },
              "could not record a notification delivery",
            );
          }),
        ),
      );
      total += batch.length;
      if (batch.length < BATCH_SIZE) return total;
    }
  }

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
