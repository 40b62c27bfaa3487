import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { pino } from "pino";
import { Webhook } from "standardwebhooks";
import type { Agent } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWebhookEventTypes } from "../src/composition/webhooks.js";
import { systemCtx } from "../src/context.js";
import type { DomainEvent } from "../src/events/event-bus.js";
import type { Clock } from "../src/lib/clock.js";
import { createOutboundAgent } from "../src/lib/http/outbound-agent.js";
import { newId } from "../src/lib/ids.js";
import { createSecretBox, type SecretBox } from "../src/lib/secret-box.js";
import { openMetaDatabase } from "../src/meta/database.js";
import type { MetaAccess } from "../src/meta/meta-store.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import type { WebhookDelivery } from "../src/meta/repositories/webhook-deliveries.js";
import type { WebhookEndpointRecord } from "../src/meta/repositories/webhook-endpoints.js";
import { initialize } from "../src/setup/initialize.js";
import { createStatusPageEngine } from "../src/status-pages/engine.js";
import { ATTEMPT_TIMEOUT_MS, RETRY_DELAY_MS } from "../src/webhooks/attempt.js";
import type { WebhookDeliverer } from "../src/webhooks/deliverer.js";
import { createWebhookDeliverer } from "../src/webhooks/delivery-pump.js";
import { LEASE_MS } from "../src/webhooks/delivery-queue.js";
import { createEventPublisher } from "../src/webhooks/event-publisher.js";
import { generateSecret } from "../src/webhooks/signing.js";
import { postWebhook, type WebhookPost } from "../src/webhooks/transport.js";
import { defaultAuthDeps } from "./helpers/auth-deps.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import {
  type ReceivedRequest,
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

const silent = pino({ level: "silent" });
const eventTypes = createWebhookEventTypes();
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

/** A clock the test moves by hand. Starts at the real time: receivers check timestamps within 5 min. */
function fakeClock(): Clock & { ms: number; set(ms: number): void } {
  const clock = {
    ms: Math.floor(Date.now() / 1000) * 1000,
    now: () => new Date(clock.ms),
    set(ms: number) {
      clock.ms = ms;
    },
  };
  return clock;
}

/** The envelope of a delivery request. */
const envelope = (request: ReceivedRequest | undefined) =>
  JSON.parse(request?.body ?? "null") as { event: string; data: unknown; attempt: number };

const header = (request: ReceivedRequest | undefined, name: string) => {
  const value = request?.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe("webhook deliverer on the SQLite meta store", () => {
  let receiver: WebhookReceiver;
  let agent: Agent;
  const send = (post: WebhookPost) => postWebhook(agent, post);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    agent = createOutboundAgent({
      allowPrivateNetworks: true,
      ca: readFileSync(TEST_CA_FILE, "utf8"),
    });
  });
  afterAll(async () => {
    await agent?.close();
    await receiver?.close();
  });

  // A fresh store per test, so no test sees another's queue.
  let dir: ReturnType<typeof makeTempDir>;
  let store: MetaStore;
  let projectId: string;
  let secretBox: SecretBox;
  let clock: ReturnType<typeof fakeClock>;
  const deliverers: WebhookDeliverer[] = [];

  beforeEach(async () => {
    dir = makeTempDir("vigil-webhooks-");
    store = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
    await store.migrate();
    clock = fakeClock();
    projectId = (
      await initialize({
        ctx: systemCtx({
          meta: store,
          clock,
          newId,
          sessionTtlHours: 1,
          ...defaultAuthDeps(),
          statusPages: createStatusPageEngine({ clock }),
        }),
        input: { email: "hooks@example.com", password: "password-1", withApiKey: false },
      })
    ).projectId;
    secretBox = createSecretBox(randomBytes(32));
    receiver.requests.length = 0;
    receiver.respond(() => ({ status: 200 }));
  });
  afterEach(async () => {
    for (const deliverer of deliverers.splice(0)) await deliverer.stop();
    await store.close();
    dir.remove();
  });

  function deliverer(
    options: { clock?: Clock; concurrency?: number; send?: typeof send } = {},
  ): WebhookDeliverer {
    const created = createWebhookDeliverer({
      meta: store,
      clock: options.clock ?? clock,
      newId,
      logger: silent,
      secretBox,
      send: options.send ?? send,
      concurrency: options.concurrency ?? 8,
    });
    deliverers.push(created);
    return created;
  }

  function publisher(target: Pick<WebhookDeliverer, "kick">, publishClock: Clock = clock) {
    return createEventPublisher({
      meta: store,
      clock: publishClock,
      newId,
      logger: silent,
      eventTypes,
      deliverer: target,
    }).publish;
  }

  /** Inserts an endpoint through the repository; returns it with its plain secret. */
  async function addEndpoint(
    events: string[],
    extra: Partial<WebhookEndpointRecord> = {},
  ): Promise<WebhookEndpointRecord & { plainSecret: string; webhook: Webhook }> {
    const plainSecret = generateSecret();
    const id = newId("whe");
    const at = clock.now().toISOString();
    const record = await store.repos.webhookEndpoints.insert({
      id,
      projectId,
      url: `${receiver.url}/hook/${id}`,
      events,
      isActive: true,
      secret: secretBox.seal(plainSecret),
      createdBy: null,
      createdAt: at,
      updatedAt: at,
      ...extra,
    });
    return { ...record, plainSecret, webhook: new Webhook(plainSecret) };
  }

  const event = (id: string, type = "monitor.down", project = projectId): DomainEvent => ({
    id,
    type,
    projectId: project,
    data: { incidentId: `inc_${id}`, note: "down" },
    occurredAt: clock.now().toISOString(),
  });

  /** The delivery of an endpoint's latest attempt (the queue has no listing by endpoint). */
  async function latestDelivery(endpointId: string) {
    const attempts = await store.repos.webhookDeliveries.listAttempts(endpointId, 50);
    const deliveryId = attempts[0]?.deliveryId;
    return deliveryId ? store.repos.webhookDeliveries.findById(deliveryId) : undefined;
  }

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
