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

// Sending the notification outbox's due deliveries: claim, send through the channel, record the
// outcome with its retry. The dispatcher (dispatcher.ts) runs this on its timer and on kicks.

/** Attempts per delivery, and the wait before each retry (after attempt 1, after attempt 2). */
export const MAX_ATTEMPTS = 3;
export const RETRY_DELAYS_MS = [30_000, 120_000] as const;
const BATCH_SIZE = 20;
/** Longer than the slowest send (Slack 10 s, SMTP ≤ 50 s), so a lease never ends mid-send. */
const LEASE_MS = 120_000;
/** Logged when an outcome came too late: the lease ran out and another worker owns the delivery. */
const LEASE_LOST =
  "notification delivery outcome not recorded: its lease ran out and it was claimed again";

/** What sending a delivery needs: the store, a clock, the channels' deps and the secret box. */
export interface DeliveryOptions {
  meta: MetaAccess;
  clock: Clock;
  channelDeps: ChannelDeps;
  secretBox: SecretBox;
  metrics?: Pick<Metrics, "notificationDeliveries">;
}

/** A failure that retrying cannot fix (the channel is gone or of an unknown type). */
class PermanentFailure extends Error {}

async function send(options: DeliveryOptions, delivery: NotificationDelivery): Promise<void> {
  const { meta } = options;
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

/** One attempt at a claimed delivery, its outcome recorded (sent, retry later, or failed for good). */
async function attempt(
  options: DeliveryOptions,
  log: Logger,
  delivery: NotificationDelivery,
): Promise<void> {
  const { meta, clock } = options;
  const attempts = delivery.attempts + 1;
  // The lease it was claimed with: its outcome is recorded only while that still holds.
  const heldUntil = delivery.nextAttemptAt ?? "";
  try {
    await send(options, delivery);
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
      final ? "notification delivery failed for good" : "notification delivery failed; will retry",
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

/**
 * Claims the deliveries due now, batch by batch, and attempts each; resolves with how many it
 * attempted. A failed send never rejects: it is recorded and logged.
 */
export async function deliverDueNotifications(
  options: DeliveryOptions,
  log: Logger,
): Promise<number> {
  const { meta, clock } = options;
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
        attempt(options, log, delivery).catch((error: unknown) => {
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
