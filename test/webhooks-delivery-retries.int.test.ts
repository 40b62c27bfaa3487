import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MetaStore } from "../src/meta/meta-store.js";
import { ATTEMPT_TIMEOUT_MS, RETRY_DELAY_MS } from "../src/webhooks/attempt.js";
import { LEASE_MS } from "../src/webhooks/delivery-queue.js";
import type { WebhookPost } from "../src/webhooks/transport.js";
import {
  envelope,
  type FakeClock,
  HOUR,
  header,
  iso,
  useDelivererFixture,
} from "./helpers/webhook-deliverer.js";
import type { WebhookReceiver } from "./helpers/webhook-receiver.js";

// The deliverer's retry rules (one retry 60 s later, 10 s per attempt), what an endpoint's
// change or deletion does to its queue, and the at-least-once lease (docs/webhooks.md).

describe("webhook deliverer on the SQLite meta store: retries, endpoint changes and leases", () => {
  const fx = useDelivererFixture();
  const { deliverer, publisher, addEndpoint, event, latestDelivery } = fx;
  let receiver: WebhookReceiver;
  let store: MetaStore;
  let clock: FakeClock;
  beforeAll(() => {
    receiver = fx.receiver();
  });
  beforeEach(() => {
    ({ store, clock } = fx.state());
  });

  describe("retry rules", () => {
    it("retries a failed attempt 1 exactly 60 s later with the same webhook-id, then gives up", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      const hooks = deliverer();
      const publish = publisher(hooks);
      receiver.respond(() => ({ status: 500, body: "broken" }));
      const t0 = clock.ms;

      expect(await publish(event("evt_retry"))).toBe(1);
      expect(await hooks.deliverDue()).toBe(1);
      expect(receiver.requests).toHaveLength(1);
      const [record1] = await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50);
      expect(record1).toMatchObject({
        attempt: 1,
        statusCode: 500,
        success: false,
        body: "broken",
        createdAt: iso(t0),
        retryAt: iso(t0 + RETRY_DELAY_MS),
      });
      const pending = await store.repos.webhookDeliveries.findById(record1?.deliveryId ?? "");
      expect(pending).toMatchObject({
        status: "pending",
        attempts: 1,
        nextAttemptAt: iso(t0 + 60_000),
        finishedAt: null,
      });

      // One millisecond early: nothing.
      clock.set(t0 + 59_999);
      expect(await hooks.deliverDue()).toBe(0);
      expect(receiver.requests).toHaveLength(1);

      clock.set(t0 + 60_000);
      expect(await hooks.deliverDue()).toBe(1);
      expect(receiver.requests).toHaveLength(2);
      const [first, second] = receiver.requests;
      // The same message, a fresh timestamp, both signed correctly.
      expect(header(second, "webhook-id")).toBe(header(first, "webhook-id"));
      expect(header(first, "webhook-id")).toBe(pending?.messageId);
      expect(header(first, "webhook-timestamp")).toBe(String(t0 / 1000));
      expect(header(second, "webhook-timestamp")).toBe(String(t0 / 1000 + 60));
      for (const [request, attempt] of [
        [first, 1],
        [second, 2],
      ] as const) {
        expect(
          endpoint.webhook.verify(request?.body ?? "", request?.headers as Record<string, string>),
        ).toEqual({
          event: "monitor.down",
          data: { incidentId: "inc_evt_retry", note: "down" },
          attempt,
        });
        expect(request).toMatchObject({ method: "POST", path: `/hook/${endpoint.id}` });
        expect(header(request, "x-service-event")).toBe("monitor.down");
        expect(header(request, "user-agent")).toBe("Vigil-Webhooks/1.0");
        expect(header(request, "content-type")).toBe("application/json");
      }

      // Attempt 2 failed too: failed for good.
      const failed = await store.repos.webhookDeliveries.findById(pending?.id ?? "");
      expect(failed).toMatchObject({
        status: "failed",
        attempts: 2,
        nextAttemptAt: null,
        finishedAt: iso(t0 + 60_000),
      });
      const log = await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50);
      expect(log.map((a) => [a.attempt, a.statusCode, a.retryAt])).toEqual([
        [2, 500, null],
        [1, 500, null],
      ]);
      for (const later of [t0 + 120_000, t0 + HOUR, t0 + 48 * HOUR]) {
        clock.set(later);
        expect(await hooks.deliverDue()).toBe(0);
      }
      expect(receiver.requests).toHaveLength(2);
      expect(await store.repos.webhookDeliveries.nextDueAt()).toBeUndefined();
    });

    it("marks a delivery succeeded when attempt 2 gets a 2xx", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      const hooks = deliverer();
      const t0 = clock.ms;
      receiver.respond(() => ({ status: 503 }));
      await publisher(hooks)(event("evt_ok2"));
      expect(await hooks.deliverDue()).toBe(1);
      receiver.respond(() => ({ status: 204 }));
      clock.set(t0 + RETRY_DELAY_MS);
      expect(await hooks.deliverDue()).toBe(1);
      expect(envelope(receiver.requests[1]).attempt).toBe(2);
      const log = await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50);
      expect(log.map((a) => [a.attempt, a.statusCode, a.success, a.retryAt])).toEqual([
        [2, 204, true, null],
        [1, 503, false, null],
      ]);
      expect(await store.repos.webhookDeliveries.findById(log[0]?.deliveryId ?? "")).toMatchObject({
        status: "succeeded",
        attempts: 2,
        nextAttemptAt: null,
        finishedAt: iso(t0 + 60_000),
      });
      clock.set(t0 + 2 * HOUR);
      expect(await hooks.deliverDue()).toBe(0);
      expect(receiver.requests).toHaveLength(2);
    });

    it("succeeds at once on a 2xx and never sends again", async () => {
      const endpoint = await addEndpoint(["error.created"]);
      const hooks = deliverer();
      await publisher(hooks)(event("evt_ok1", "error.created"));
      expect(await hooks.deliverDue()).toBe(1);
      const delivery = await latestDelivery(endpoint.id);
      expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, nextAttemptAt: null });
      clock.set(clock.ms + 2 * HOUR);
      expect(await hooks.deliverDue()).toBe(0);
      expect(receiver.requests).toHaveLength(1);
    });

    it("treats a redirect as a failure and does not follow it", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      const hooks = deliverer();
      receiver.respond(() => ({ status: 307, headers: { location: `${receiver.url}/elsewhere` } }));
      await publisher(hooks)(event("evt_redirect"));
      expect(await hooks.deliverDue()).toBe(1);
      expect(receiver.requests.map((r) => r.path)).toEqual([`/hook/${endpoint.id}`]);
      const [record] = await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50);
      expect(record).toMatchObject({ statusCode: 307, success: false });
      expect(record?.retryAt).toBe(iso(clock.ms + RETRY_DELAY_MS));
    });

    it("gives each attempt 10 s and logs a timed-out one as status 0 with a retry", async () => {
      // The transport's real 10 s timeout is exercised over HTTP by test/webhooks-api.int.test.ts;
      // here the deliverer's side: the limit it asks for and how it records the timeout.
      const endpoint = await addEndpoint(["monitor.down"]);
      const limits: number[] = [];
      const timingOut = async (post: WebhookPost) => {
        limits.push(post.timeoutMs);
        clock.set(clock.ms + ATTEMPT_TIMEOUT_MS);
        return {
          statusCode: 0,
          durationMs: ATTEMPT_TIMEOUT_MS,
          body: `timed out after ${post.timeoutMs / 1000}s`,
          error: { code: "timeout" as const, message: "timed out" },
        };
      };
      const hooks = deliverer({ send: timingOut });
      const t0 = clock.ms;
      await publisher(hooks)(event("evt_slow"));
      expect(await hooks.deliverDue()).toBe(1);
      expect(limits).toEqual([10_000]);
      const [record] = await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50);
      expect(record).toMatchObject({
        attempt: 1,
        statusCode: 0,
        success: false,
        durationMs: 10_000,
        body: "timed out after 10s",
        createdAt: iso(t0),
        // 60 s after the attempt ended.
        retryAt: iso(t0 + 10_000 + RETRY_DELAY_MS),
      });
      clock.set(t0 + 10_000 + RETRY_DELAY_MS);
      expect(await hooks.deliverDue()).toBe(1);
      expect(limits).toEqual([10_000, 10_000]);
      expect((await latestDelivery(endpoint.id))?.status).toBe("failed");
    });
  });

  describe("endpoint changes", () => {
    it("drops the pending retry of a disabled endpoint without an attempt", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      const hooks = deliverer();
      const t0 = clock.ms;
      receiver.respond(() => ({ status: 500 }));
      await publisher(hooks)(event("evt_disabled"));
      expect(await hooks.deliverDue()).toBe(1);
      await store.repos.webhookEndpoints.update(endpoint.id, {
        url: endpoint.url,
        events: endpoint.events,
        isActive: false,
        updatedAt: iso(t0 + 1000),
      });
      clock.set(t0 + RETRY_DELAY_MS);
      expect(await hooks.deliverDue()).toBe(0);
      expect(receiver.requests).toHaveLength(1);
      const log = await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50);
      expect(log.map((a) => [a.attempt, a.retryAt])).toEqual([[1, null]]);
      expect(await store.repos.webhookDeliveries.findById(log[0]?.deliveryId ?? "")).toMatchObject({
        status: "failed",
        attempts: 1,
        nextAttemptAt: null,
        finishedAt: iso(t0 + 60_000),
      });
      // Enabled again: the dropped retry stays dropped, and new events reach it.
      await store.repos.webhookEndpoints.update(endpoint.id, {
        url: endpoint.url,
        events: endpoint.events,
        isActive: true,
        updatedAt: iso(t0 + 61_000),
      });
      clock.set(t0 + HOUR);
      expect(await hooks.deliverDue()).toBe(0);
      receiver.respond(() => ({ status: 200 }));
      expect(await publisher(hooks)(event("evt_enabled"))).toBe(1);
      expect(await hooks.deliverDue()).toBe(1);
      expect(receiver.requests).toHaveLength(2);
    });

    it("forgets the pending deliveries of a deleted endpoint", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      const hooks = deliverer();
      const t0 = clock.ms;
      receiver.respond(() => ({ status: 500 }));
      const publish = publisher(hooks);
      await publish(event("evt_del_1"));
      expect(await hooks.deliverDue()).toBe(1);
      const [record] = await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50);
      // One retry pending, one not yet attempted at all.
      await publish(event("evt_del_2"));
      expect(await store.repos.webhookEndpoints.delete(endpoint.id)).toBe(true);
      expect(
        await store.repos.webhookDeliveries.findById(record?.deliveryId ?? ""),
      ).toBeUndefined();
      expect(await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50)).toEqual([]);
      expect(await store.repos.webhookDeliveries.nextDueAt()).toBeUndefined();
      clock.set(t0 + RETRY_DELAY_MS);
      expect(await hooks.deliverDue()).toBe(0);
      expect(receiver.requests).toHaveLength(1);
    });

    it("drops the outcome of an attempt whose endpoint was deleted while it was in flight", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      const hooks = deliverer();
      receiver.respond(() => ({ status: 200, delayMs: 300 }));
      await publisher(hooks)(event("evt_inflight_delete"));
      const delivering = hooks.deliverDue();
      await receiver.waitFor(1);
      await store.repos.webhookEndpoints.delete(endpoint.id);
      expect(await delivering).toBe(1);
      expect(await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50)).toEqual([]);
      expect(await store.repos.webhookDeliveries.nextDueAt()).toBeUndefined();
    });
  });

  describe("at-least-once", () => {
    it("attempts a delivery claimed by a process that died once its 30 s lease ends", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      const t0 = clock.ms;
      // The dead process: enqueued, claimed under its lease, never recorded anything.
      await publisher({ kick: () => undefined })(event("evt_orphan"));
      const [claimed] = await store.repos.webhookDeliveries.claimDue(
        iso(t0),
        10,
        iso(t0 + LEASE_MS),
      );
      expect(claimed).toMatchObject({ attempts: 0, nextAttemptAt: iso(t0 + 30_000) });

      const survivor = deliverer();
      clock.set(t0 + LEASE_MS - 1);
      expect(await survivor.deliverDue()).toBe(0);
      expect(receiver.requests).toHaveLength(0);
      clock.set(t0 + LEASE_MS);
      expect(await survivor.deliverDue()).toBe(1);
      expect(receiver.requests).toHaveLength(1);
      const [request] = receiver.requests;
      expect(header(request, "webhook-id")).toBe(claimed?.messageId);
      expect(
        endpoint.webhook.verify(request?.body ?? "", request?.headers as Record<string, string>),
      ).toMatchObject({ attempt: 1 });
      expect(await store.repos.webhookDeliveries.findById(claimed?.id ?? "")).toMatchObject({
        status: "succeeded",
        attempts: 1,
      });
    });

    it("a claim by a live deliverer keeps others off the delivery", async () => {
      await addEndpoint(["monitor.down"]);
      const first = deliverer();
      const second = deliverer();
      receiver.respond(() => ({ status: 200, delayMs: 200 }));
      await publisher(first)(event("evt_once"));
      const [a, b] = await Promise.all([first.deliverDue(), second.deliverDue()]);
      expect((a ?? 0) + (b ?? 0)).toBe(1);
      expect(receiver.requests).toHaveLength(1);
    });
  });
});
