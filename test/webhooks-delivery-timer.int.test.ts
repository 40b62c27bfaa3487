import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Clock } from "../src/lib/clock.js";
import { newId } from "../src/lib/ids.js";
import type { MetaStore } from "../src/meta/meta-store.js";
import type { WebhookDelivery } from "../src/meta/repositories/webhook-deliveries.js";
import { LEASE_MS } from "../src/webhooks/delivery-queue.js";
import type { WebhookPost } from "../src/webhooks/transport.js";
import {
  envelope,
  type FakeClock,
  header,
  iso,
  sleep,
  until,
  useDelivererFixture,
} from "./helpers/webhook-deliverer.js";
import type { WebhookReceiver } from "./helpers/webhook-receiver.js";

// The deliverer on its own timers (real clock): wake-ups, concurrency, the backlog it holds,
// and stopping with attempts in flight (docs/webhooks.md).

describe("webhook deliverer on the SQLite meta store: the timer path", () => {
  const fx = useDelivererFixture();
  const { deliverer, publisher, addEndpoint, event, send } = fx;
  let receiver: WebhookReceiver;
  let store: MetaStore;
  let projectId: string;
  let clock: FakeClock;
  beforeAll(() => {
    receiver = fx.receiver();
  });
  beforeEach(() => {
    ({ store, projectId, clock } = fx.state());
  });

  describe("the timer path (real clock)", () => {
    const realClock: Clock = { now: () => new Date() };

    it("delivers a published event within about a second, stops, and resumes on start", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      const hooks = deliverer({ clock: realClock });
      const publish = publisher(hooks, realClock);
      hooks.start();
      await sleep(50); // let the first (empty) claim finish, so the timer is armed
      const published = Date.now();
      expect(await publish(event("evt_live"))).toBe(1);
      const [request] = await receiver.waitFor(1, 3_000);
      expect((request?.at ?? Infinity) - published).toBeLessThan(1_000);
      expect(
        endpoint.webhook.verify(request?.body ?? "", request?.headers as Record<string, string>),
      ).toMatchObject({ event: "monitor.down", attempt: 1 });
      await until(
        "the attempt to be recorded",
        async () =>
          (await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50)).length === 1,
      );

      await hooks.stop();
      expect(await publish(event("evt_while_stopped"))).toBe(1);
      await sleep(500);
      expect(receiver.requests).toHaveLength(1);

      const restarted = Date.now();
      hooks.start();
      const [, later] = await receiver.waitFor(2, 3_000);
      expect((later?.at ?? Infinity) - restarted).toBeLessThan(1_000);
      expect(envelope(later)).toMatchObject({ event: "monitor.down", attempt: 1 });
      await hooks.stop();
    });

    it("picks up a retry that comes due while it is idle", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      // The retry of an earlier failure, due 300 ms from now.
      await publisher({ kick: () => undefined }, realClock)(event("evt_due_soon"));
      const [claimed] = await store.repos.webhookDeliveries.claimDue(
        iso(Date.now()),
        1,
        iso(Date.now() + LEASE_MS),
      );
      await store.repos.webhookDeliveries.release([claimed?.id ?? ""], iso(Date.now() + 300));
      const hooks = deliverer({ clock: realClock });
      const started = Date.now();
      hooks.start();
      const [request] = await receiver.waitFor(1, 3_000);
      expect((request?.at ?? 0) - started).toBeGreaterThanOrEqual(250);
      expect((request?.at ?? Infinity) - started).toBeLessThan(1_500);
      await until(
        "the attempt to be recorded",
        async () =>
          (await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50)).length === 1,
      );
    });

    it("makes an attempt that comes due while another is in flight on time", async () => {
      const slow = await addEndpoint(["monitor.down"]);
      const soon = await addEndpoint(["monitor.recovered"]);
      receiver.respond((r) => ({ status: 200, delayMs: r.path.endsWith(slow.id) ? 4_000 : 0 }));
      const hooks = deliverer({ clock: realClock });
      const publish = publisher(hooks, realClock);
      // A delivery for `soon`, due in 1 s (as a retry would be).
      await publisher({ kick: () => undefined }, realClock)(event("evt_soon", "monitor.recovered"));
      const [claimed] = await store.repos.webhookDeliveries.claimDue(
        iso(Date.now()),
        1,
        iso(Date.now() + LEASE_MS),
      );
      await store.repos.webhookDeliveries.release([claimed?.id ?? ""], iso(Date.now() + 1_000));
      const started = Date.now();
      hooks.start();
      // `slow` holds an attempt in flight for 4 s meanwhile.
      await publish(event("evt_slow"));
      await receiver.waitFor(2, 6_000);
      const due = receiver.requests.find((r) => r.path.endsWith(soon.id));
      expect((due?.at ?? Infinity) - started).toBeGreaterThanOrEqual(900);
      expect((due?.at ?? Infinity) - started).toBeLessThan(2_000);
      await hooks.stop();
    });

    it("does not send what it had claimed for an endpoint disabled meanwhile", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      receiver.respond(() => ({ status: 200, delayMs: 1_000 }));
      // One slot: the first event goes out, the other two wait claimed in memory.
      const hooks = deliverer({ clock: realClock, concurrency: 1 });
      const publish = publisher(hooks, realClock);
      hooks.start();
      for (const id of ["evt_a", "evt_b", "evt_c"]) await publish(event(id));
      await receiver.waitFor(1, 3_000);
      // As updateEndpoint does: disable, drop what is pending, then forget what was claimed.
      const at = new Date().toISOString();
      await store.repos.webhookEndpoints.update(endpoint.id, { isActive: false, updatedAt: at });
      await store.repos.webhookDeliveries.cancelPendingOf(endpoint.id, at);
      await hooks.forget(endpoint.id);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(receiver.requests).toHaveLength(1);
      // The attempt on the wire completed and is logged.
      const log = await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50);
      expect(log.map((a) => a.statusCode)).toEqual([200]);
      await hooks.stop();
    });

    // The publisher reads the endpoints, reserves room, stores the delivery leased under the
    // reservation and hands the endpoints over with it: the endpoint may move at any step.
    it.each([
      ["after the publisher read it", "read"],
      ["after the reservation", "reserved"],
      ["after the insert", "stored"],
    ] as const)(
      "sends a handed-over delivery whose endpoint moved %s to its current URL",
      async (_, when) => {
        const endpoint = await addEndpoint(["monitor.down"]);
        const hooks = deliverer({ clock: realClock });
        hooks.start();
        const at = new Date().toISOString();
        // As updateEndpoint does it.
        const move = async () => {
          await store.repos.webhookEndpoints.update(endpoint.id, {
            url: `${receiver.url}/moved`,
            updatedAt: at,
          });
          await hooks.forget(endpoint.id);
        };
        const read = { read: new Map([[endpoint.id, endpoint]]), at: hooks.endpointChanges() };
        if (when === "read") await move();
        const reservation = hooks.reserve(1);
        if (!reservation) throw new Error("the started deliverer had no room");
        if (when === "reserved") await move();
        const stored = {
          id: newId("dlv"),
          projectId,
          endpointId: endpoint.id,
          messageId: newId("msg"),
          eventId: "evt_moved",
          event: "monitor.down",
          payload: JSON.stringify({ note: "moved" }),
          nextAttemptAt: reservation.leaseUntil,
          createdAt: at,
        };
        await store.repos.webhookDeliveries.enqueue([stored]);
        if (when === "stored") await move();
        const delivery: WebhookDelivery = {
          ...stored,
          status: "pending",
          attempts: 0,
          finishedAt: null,
        };
        hooks.adopt(reservation, [delivery], read);
        await receiver.waitFor(1, 3_000);
        await sleep(200);
        expect(receiver.requests.map((r) => r.path)).toEqual(["/moved"]);
        await until("the attempt to be recorded", async () => {
          const after = await store.repos.webhookDeliveries.findById(delivery.id);
          return after?.status === "succeeded";
        });
      },
    );

    it("keeps at most `concurrency` attempts in flight", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      let receiving = 0;
      let mostReceiving = 0;
      receiver.respond(() => {
        receiving++;
        mostReceiving = Math.max(mostReceiving, receiving);
        // Set before the receiver's own timer for the answer, so it fires first.
        setTimeout(() => receiving--, 200);
        return { status: 200, delayMs: 200 };
      });
      let sending = 0;
      let mostSending = 0;
      const countingSend = async (post: WebhookPost) => {
        sending++;
        mostSending = Math.max(mostSending, sending);
        try {
          return await send(post);
        } finally {
          sending--;
        }
      };
      const hooks = deliverer({ clock: realClock, concurrency: 4, send: countingSend });
      const publish = publisher(hooks, realClock);
      hooks.start();
      const started = Date.now();
      await Promise.all(Array.from({ length: 12 }, (_, i) => publish(event(`evt_many_${i}`))));
      await receiver.waitFor(12, 10_000);
      await until(
        "every attempt to be recorded",
        async () =>
          (await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50)).length === 12,
      );
      expect(mostSending).toBe(4);
      expect(mostReceiving).toBeLessThanOrEqual(4);
      expect(mostReceiving).toBeGreaterThanOrEqual(3);
      // 12 requests of 200 ms, 4 at a time: at least three rounds.
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
      await hooks.stop();
    });

    it("holds up to 8 × concurrency of work while attempts are fast, 2 × while they are slow", async () => {
      await addEndpoint(["monitor.down"]);
      /** How many deliveries one deliverer holds leased once its attempts stall. */
      const heldAtPace = async (answerMs: number) => {
        let stall = false;
        let release = () => {};
        const stalled = new Promise<void>((resolve) => {
          release = resolve;
        });
        // Attempts answered in `answerMs`, as the transport measures them, set the pace.
        const paced = async () => {
          if (stall) await stalled;
          return { statusCode: 200, durationMs: answerMs, body: "" };
        };
        const hooks = deliverer({ concurrency: 4, send: paced });
        const publish = publisher(hooks);
        const batch = (from: number) =>
          Array.from({ length: 100 }, (_, i) => publish(event(`evt_${answerMs}_${from + i}`)));
        await Promise.all(batch(0));
        await hooks.deliverDue();
        // Then attempts stall: what the deliverer took on stays leased to it.
        stall = true;
        hooks.start();
        await Promise.all(batch(100));
        await sleep(300);
        // The rest are due: claimable (claimed here under a lease that ends now, so still due).
        const now = clock.now().toISOString();
        const due = await store.repos.webhookDeliveries.claimDue(now, 1000, now);
        release();
        await hooks.stop();
        return 100 - due.length;
      };
      expect(await heldAtPace(5)).toBe(32);
      expect(await heldAtPace(5_000)).toBe(8);
    });

    it("lets attempts in flight finish on stop and hands unstarted ones back, due at once", async () => {
      const endpoint = await addEndpoint(["monitor.down"]);
      receiver.respond(() => ({ status: 200, delayMs: 1_500 }));
      // One slot: the first event is in flight, the second claimed but not started.
      const hooks = deliverer({ clock: realClock, concurrency: 1 });
      const publish = publisher(hooks, realClock);
      hooks.start();
      await publish(event("evt_in_flight"));
      await publish(event("evt_waiting"));
      const [held] = await receiver.waitFor(1, 3_000);
      const stopping = Date.now();
      await hooks.stop();
      // stop() waited for the answer (1.5 s) and recorded it, without sending the second.
      expect(Date.now() - stopping).toBeGreaterThan(1_000);
      expect(receiver.requests).toHaveLength(1);
      const log = await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50);
      expect(log.map((a) => [a.messageId, a.statusCode])).toEqual([
        [header(held, "webhook-id"), 200],
      ]);
      // The unstarted one is due now rather than at its lease's end.
      expect(
        Date.parse((await store.repos.webhookDeliveries.nextDueAt()) ?? ""),
      ).toBeLessThanOrEqual(Date.now());

      // A new deliverer sends it right away.
      receiver.respond(() => ({ status: 200 }));
      const next = deliverer({ clock: realClock });
      const restarted = Date.now();
      next.start();
      const [, second] = await receiver.waitFor(2, 3_000);
      expect((second?.at ?? Infinity) - restarted).toBeLessThan(1_000);
      expect(header(second, "webhook-id")).not.toBe(header(held, "webhook-id"));
      expect(
        endpoint.webhook.verify(second?.body ?? "", second?.headers as Record<string, string>),
      ).toMatchObject({ attempt: 1 });
      await until(
        "the attempt to be recorded",
        async () =>
          (await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50)).length === 2,
      );
    });
  });
});
