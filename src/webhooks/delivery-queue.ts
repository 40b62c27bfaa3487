import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { WebhookDelivery } from "../meta/repositories/webhook-deliveries.js";
import type { DeliveryJob } from "./attempt.js";

/**
 * How long a claimed delivery stays this process's: longer than an attempt and its recording,
 * so a live process never loses one; a killed one's come due again this long after the claim.
 */
export const LEASE_MS = 30_000;

/** The durable webhook queue as the pump sees it: claims with a lease, and hand-backs. */
export interface DeliveryQueue {
  /** Claims up to `limit` due deliveries; `at` is when (ms). */
  claim(limit: number): Promise<{ jobs: DeliveryJob[]; claimed: number; at: number }>;
  /**
   * The jobs of deliveries leased to this process, with their endpoints as they are now; those
   * of disabled endpoints end without an attempt, those of deleted ones went with them.
   */
  jobsOf(deliveries: readonly WebhookDelivery[]): Promise<DeliveryJob[]>;
  /** Hands claimed, unstarted jobs back, due now (each only while still under its lease). */
  handBack(jobs: readonly DeliveryJob[]): Promise<void>;
  /** When the next pending delivery is due (or its lease ends); undefined when none is. */
  nextDueAt(): Promise<string | undefined>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createDeliveryQueue(meta: MetaAccess, clock: Clock, log: Logger): DeliveryQueue {
  async function jobsOf(deliveries: readonly WebhookDelivery[]): Promise<DeliveryJob[]> {
    if (deliveries.length === 0) return [];
    const endpointIds = [...new Set(deliveries.map((d) => d.endpointId))];
    const endpoints = new Map(
      (await meta.repos.webhookEndpoints.findByIds(endpointIds)).map((e) => [e.id, e]),
    );
    const jobs: DeliveryJob[] = [];
    const disabled: string[] = [];
    for (const delivery of deliveries) {
      const endpoint = endpoints.get(delivery.endpointId);
      if (!endpoint) continue;
      if (endpoint.isActive) jobs.push({ delivery, endpoint });
      else disabled.push(delivery.id);
    }
    if (disabled.length > 0) {
      await meta.repos.webhookDeliveries.cancel(disabled, iso(clock.now().getTime()));
      log.info({ count: disabled.length }, "dropped webhook deliveries of disabled endpoints");
    }
    return jobs;
  }

  return {
    jobsOf,
    async claim(limit) {
      const now = clock.now().getTime();
      const deliveries = await meta.repos.webhookDeliveries.claimDue(
        iso(now),
        limit,
        iso(now + LEASE_MS),
      );
      return { jobs: await jobsOf(deliveries), claimed: deliveries.length, at: now };
    },
    async handBack(jobs) {
      const byLease = new Map<string, DeliveryJob[]>();
      for (const job of jobs) {
        const lease = job.delivery.nextAttemptAt ?? "";
        byLease.set(lease, [...(byLease.get(lease) ?? []), job]);
      }
      const now = clock.now().toISOString();
      try {
        for (const [lease, group] of byLease)
          await meta.repos.webhookDeliveries.release(
            group.map((job) => job.delivery.id),
            now,
            lease,
          );
      } catch (error) {
        log.warn(
          { err: (error as Error).message },
          "could not hand back webhook deliveries; they come due when their lease ends",
        );
      }
    },
    nextDueAt: () => meta.repos.webhookDeliveries.nextDueAt(),
  };
}
