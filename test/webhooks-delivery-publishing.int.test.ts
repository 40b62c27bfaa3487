import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWebhookEventTypes } from "../src/composition/webhooks.js";
import { newId } from "../src/lib/ids.js";
import type { MetaAccess, MetaStore } from "../src/meta/meta-store.js";
import { createEventPublisher } from "../src/webhooks/event-publisher.js";
import {
  type FakeClock,
  header,
  silent,
  useDelivererFixture,
} from "./helpers/webhook-deliverer.js";
import type { WebhookReceiver } from "./helpers/webhook-receiver.js";

// Publishing: one delivery per subscribed endpoint and event, bursts in one transaction, and
// enqueueing inside the caller's transaction (docs/webhooks.md).

const eventTypes = createWebhookEventTypes();

describe("webhook deliverer on the SQLite meta store: publishing", () => {
  const fx = useDelivererFixture();
  const { deliverer, publisher, addEndpoint, event } = fx;
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

  describe("publishing", () => {
    it("enqueues an event once per subscribed, enabled endpoint, however often it is published", async () => {
      const a = await addEndpoint(["monitor.down", "monitor.recovered"]);
      const b = await addEndpoint(["monitor.down"]);
      await addEndpoint(["error.created"]);
      await addEndpoint(["monitor.down"], { isActive: false });
      await store.repos.projects.insert({
        id: "prj_elsewhere",
        orgId: (await store.repos.projects.findById(projectId))?.orgId ?? "",
        name: "elsewhere",
        createdAt: clock.now().toISOString(),
      });
      await addEndpoint(["monitor.down"], { projectId: "prj_elsewhere" });
      const hooks = deliverer();
      const publish = publisher(hooks);

      expect(await publish(event("evt_dup"))).toBe(2);
      await publish(event("evt_dup"));
      expect(await hooks.deliverDue()).toBe(2);
      // Published again after delivery: still nothing new.
      await publish(event("evt_dup"));
      expect(await hooks.deliverDue()).toBe(0);

      expect(receiver.requests.map((r) => r.path).sort()).toEqual(
        [`/hook/${a.id}`, `/hook/${b.id}`].sort(),
      );
      // One message id for the event, shared by its deliveries.
      const ids = new Set(receiver.requests.map((r) => header(r, "webhook-id")));
      expect(ids.size).toBe(1);
      for (const endpoint of [a, b]) {
        const request = receiver.requests.find((r) => r.path === `/hook/${endpoint.id}`);
        expect(
          endpoint.webhook.verify(request?.body ?? "", request?.headers as Record<string, string>),
        ).toMatchObject({ event: "monitor.down", attempt: 1 });
        expect(await store.repos.webhookDeliveries.listAttempts(endpoint.id, 50)).toHaveLength(1);
      }

      // Another event id is another delivery.
      expect(await publish(event("evt_other"))).toBe(2);
      expect(await hooks.deliverDue()).toBe(2);
      expect(receiver.requests).toHaveLength(4);
      expect(new Set(receiver.requests.map((r) => header(r, "webhook-id"))).size).toBe(2);
    });

    it("still enqueues for the others when a subscriber is deleted between listing and insert", async () => {
      const kept = await addEndpoint(["monitor.down"]);
      const doomed = await addEndpoint(["monitor.down"]);
      // On PostgreSQL a delete can commit between the listing and the insert, failing the
      // insert on its foreign key; here the first insert deletes and fails the same way.
      let first = true;
      const queue = store.repos.webhookDeliveries;
      const racing: MetaAccess = {
        repos: {
          ...store.repos,
          webhookDeliveries: {
            ...queue,
            enqueue: async (rows) => {
              if (!first) return queue.enqueue(rows);
              first = false;
              await store.repos.webhookEndpoints.delete(doomed.id);
              throw new Error("insert or update violates foreign key constraint");
            },
          },
        },
        run: (fn) => store.run(fn),
        transaction: (fn) => store.transaction(fn),
      };
      const hooks = deliverer();
      const publish = createEventPublisher({
        meta: racing,
        clock,
        newId,
        logger: silent,
        eventTypes,
        deliverer: hooks,
      }).publish;
      expect(await publish(event("evt_race"))).toBe(1);
      expect(await hooks.deliverDue()).toBe(1);
      expect(receiver.requests.map((r) => r.path)).toEqual([`/hook/${kept.id}`]);
    });

    it("enqueues a burst of events published together in one transaction", async () => {
      await addEndpoint(["error.created"]);
      await addEndpoint(["error.created", "monitor.down"]);
      let transactions = 0;
      const counting: MetaAccess = {
        repos: store.repos,
        run: (fn) => store.run(fn),
        transaction: (fn) => {
          transactions++;
          return store.transaction(fn);
        },
      };
      const hooks = deliverer({ concurrency: 64 });
      const publish = createEventPublisher({
        meta: counting,
        clock,
        newId,
        logger: silent,
        eventTypes,
        deliverer: hooks,
      }).publish;
      const counts = await Promise.all([
        ...Array.from({ length: 300 }, (_, i) => publish(event(`evt_burst_${i}`, "error.created"))),
        publish(event("evt_burst_down", "monitor.down")),
      ]);
      expect(transactions).toBe(1);
      expect(counts.slice(0, 300).every((n) => n === 2)).toBe(true);
      expect(counts[300]).toBe(1);
      expect(await hooks.deliverDue()).toBe(601);
      expect(receiver.requests).toHaveLength(601);
    });

    it("does not fan out test.ping or unknown event types", async () => {
      await addEndpoint(["test.ping", "monitor.down"]);
      await addEndpoint(["made.up"]);
      const hooks = deliverer();
      const publish = publisher(hooks);
      expect(await publish(event("evt_ping", "test.ping"))).toBe(0);
      expect(await publish(event("evt_made_up", "made.up"))).toBe(0);
      expect(await publish(event("evt_verify", "endpoint.verify"))).toBe(0);
      expect(await publish(event("evt_nobody", "incident.created"))).toBe(0);
      // A channel test's sample outage never reaches endpoints.
      expect(await publish({ ...event("evt_sample"), sample: true })).toBe(0);
      expect(await store.repos.webhookDeliveries.nextDueAt()).toBeUndefined();
      expect(await hooks.deliverDue()).toBe(0);
      expect(receiver.requests).toHaveLength(0);
    });
  });

  it("enqueues inside the caller's transaction: a rollback takes the deliveries with it", async () => {
    await addEndpoint(["incident.created"]);
    const hooks = deliverer();
    const { enqueueIn } = createEventPublisher({
      meta: store,
      clock,
      newId,
      logger: silent,
      eventTypes,
      deliverer: hooks,
    });
    await expect(
      store.transaction(async (tx) => {
        expect(
          await enqueueIn(tx, [
            event("evt_rolled_back", "incident.created"),
            event("evt_x", "test.ping"),
          ]),
        ).toEqual([1, 0]);
        throw new Error("the state change failed");
      }),
    ).rejects.toThrow("the state change failed");
    expect(await hooks.deliverDue()).toBe(0);
    await store.transaction((tx) => enqueueIn(tx, [event("evt_kept", "incident.created")]));
    expect(await hooks.deliverDue()).toBe(1);
    expect(receiver.requests).toHaveLength(1);
  });
});
