import type { Dispatcher } from "undici";
import type { AppUrl } from "../lib/app-url.js";
import type { Clock } from "../lib/clock.js";
import type { Metrics } from "../lib/metrics.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageNotificationRecord } from "../meta/repositories/status-page-notifications.js";
import type { StatusPageSubscriberRecord } from "../meta/repositories/status-page-subscribers.js";
import type { Mailer } from "../notifications/channels/channel-type.js";
import { deliveryBody, openSecret, signatureHeaders, signingKey } from "../webhooks/signing.js";
import { isSuccess, postWebhook } from "../webhooks/transport.js";
import {
  announcementData,
  announcementEmail,
  confirmationEmail,
  type MessagePage,
  type StoredAnnouncement,
} from "./subscribers-messages.js";
import { openToken, subscriptionPaths, tokenHash } from "./subscribers-tokens.js";

// Sends the subscribers' outbox: claim what is due, send it (email through the server's mailer,
// webhooks signed like Vigil's own through the SSRF-guarded agent), record the outcome with its
// retry. Confirmation emails are queued here too, so no request waits on SMTP.

/** The wait before each retry; after the last one a message is failed for good. */
export const SUBSCRIBER_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000] as const;
const BATCH_SIZE = 20;
/** Longer than the slowest send (SMTP ≤ 50 s, webhooks 10 s). */
const LEASE_MS = 120_000;
const WEBHOOK_TIMEOUT_MS = 10_000;

export interface SubscriberDeliveryDeps {
  meta: MetaAccess;
  clock: Clock;
  secretBox: SecretBox;
  appUrl: AppUrl;
  /** The server's SMTP mailer; undefined without VIGIL_SMTP_URL (email then fails for good). */
  mailer: Mailer | undefined;
  /** The SSRF-guarded outbound agent. */
  dispatcher: Dispatcher;
  /** Counts each attempt's outcome by kind. */
  metrics?: Pick<Metrics, "subscriberMessages">;
  /** Told of each failed attempt (no token or secret is in it). */
  onFailure?(failure: {
    id: string;
    event: string;
    attempt: number;
    error: string;
    final: boolean;
  }): void;
}

/** A failure no retry can fix. */
class Permanent extends Error {}

async function sendEmail(
  deps: SubscriberDeliveryDeps,
  row: StatusPageNotificationRecord,
  subscriber: StatusPageSubscriberRecord,
  page: MessagePage,
): Promise<void> {
  if (!deps.mailer) throw new Permanent("SMTP is not configured (VIGIL_SMTP_URL)");
  if (row.event === "subscription.confirm") {
    // Confirmed meanwhile (an earlier link was used): nothing to send.
    if (subscriber.status !== "pending") return;
    const token = openToken(deps.secretBox, (row.payload as { token: string }).token);
    // Replaced by a later sign-up, whose own email carries the live link: this one is dead.
    if (tokenHash(token) !== subscriber.confirmTokenHash) return;
    const confirmUrl = deps.appUrl.link(subscriptionPaths.confirm(page.slug, token));
    await deps.mailer.send(confirmationEmail(page, confirmUrl, subscriber.address));
    return;
  }
  const unsubscribeUrl = deps.appUrl.link(
    subscriptionPaths.unsubscribe(
      page.slug,
      openToken(deps.secretBox, subscriber.unsubscribeToken),
    ),
  );
  await deps.mailer.send(
    announcementEmail(row.payload as StoredAnnouncement, page, unsubscribeUrl, subscriber.address),
  );
}

async function sendWebhook(
  deps: SubscriberDeliveryDeps,
  row: StatusPageNotificationRecord,
  subscriber: StatusPageSubscriberRecord,
  page: MessagePage,
): Promise<void> {
  if (subscriber.secret === null) throw new Permanent("the subscriber has no signing secret");
  const data = JSON.stringify(announcementData(row.payload as StoredAnnouncement, page));
  const body = deliveryBody(row.event, data, row.attempts + 1);
  const key = signingKey(openSecret(deps.secretBox, subscriber.secret));
  const answer = await postWebhook(deps.dispatcher, {
    url: subscriber.address,
    event: row.event,
    body,
    signature: signatureHeaders(key, row.id, deps.clock.now(), body),
    timeoutMs: WEBHOOK_TIMEOUT_MS,
  });
  if (answer.aborted) throw new Error("cancelled");
  if (!isSuccess(answer.statusCode))
    throw new Error(
      answer.statusCode === 0
        ? `no answer: ${answer.body}`
        : `answered ${answer.statusCode}: ${answer.body.slice(0, 200)}`,
    );
}

async function send(
  deps: SubscriberDeliveryDeps,
  row: StatusPageNotificationRecord,
  subscriber: StatusPageSubscriberRecord | undefined,
): Promise<void> {
  const pageRecord = await deps.meta.repos.statusPages.findById(row.pageId);
  if (!subscriber || !pageRecord) throw new Permanent("the subscriber or its page is gone");
  if (row.event !== "subscription.confirm" && subscriber.status !== "confirmed")
    throw new Permanent("the subscriber has not confirmed");
  const page: MessagePage = {
    id: pageRecord.id,
    slug: pageRecord.slug,
    title: pageRecord.title,
    url: deps.appUrl.link(subscriptionPaths.page(pageRecord.slug)),
  };
  if (subscriber.kind === "email") await sendEmail(deps, row, subscriber, page);
  else await sendWebhook(deps, row, subscriber, page);
}

/** Sends every due message once; resolves with how many were attempted. */
export async function deliverDueSubscriberMessages(deps: SubscriberDeliveryDeps): Promise<number> {
  const repo = deps.meta.repos.statusPageNotifications;
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  const rows = await repo.claimDue(now.toISOString(), BATCH_SIZE, leaseUntil);
  await Promise.all(
    rows.map(async (row) => {
      const heldUntil = row.nextAttemptAt ?? leaseUntil;
      const attempts = row.attempts + 1;
      const subscriber = await deps.meta.repos.statusPageSubscribers.findById(row.subscriberId);
      const kind = subscriber?.kind ?? "email";
      try {
        await send(deps, row, subscriber);
        await repo.markSent(row.id, deps.clock.now().toISOString(), heldUntil);
        deps.metrics?.subscriberMessages.inc({ kind, outcome: "sent" });
      } catch (error) {
        const delay = SUBSCRIBER_RETRY_DELAYS_MS[attempts - 1];
        const final = error instanceof Permanent || delay === undefined;
        const message = error instanceof Error ? error.message : String(error);
        await repo.markFailed(row.id, {
          error: message.slice(0, 1000),
          attempts,
          nextAttemptAt: final ? null : new Date(deps.clock.now().getTime() + delay).toISOString(),
          heldUntil,
        });
        deps.metrics?.subscriberMessages.inc({ kind, outcome: final ? "failed" : "retry" });
        deps.onFailure?.({
          id: row.id,
          event: row.event,
          attempt: attempts,
          error: message,
          final,
        });
      }
    }),
  );
  return rows.length;
}
