import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { pino } from "pino";
import { Webhook } from "standardwebhooks";
import type { Agent } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { createWebhookEventTypes } from "../../src/composition/webhooks.js";
import { systemCtx } from "../../src/context.js";
import type { DomainEvent } from "../../src/events/event-bus.js";
import { AppUrl } from "../../src/lib/app-url.js";
import type { Clock } from "../../src/lib/clock.js";
import { createOutboundAgent } from "../../src/lib/http/outbound-agent.js";
import { newId } from "../../src/lib/ids.js";
import { createSecretBox, type SecretBox } from "../../src/lib/secret-box.js";
import { openMetaDatabase } from "../../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../../src/meta/meta-store.js";
import type { WebhookEndpointRecord } from "../../src/meta/repositories/webhook-endpoints.js";
import { initialize } from "../../src/setup/initialize.js";
import { createStatusPageEngine } from "../../src/status-pages/engine.js";
import type { WebhookDeliverer } from "../../src/webhooks/deliverer.js";
import { createWebhookDeliverer } from "../../src/webhooks/delivery-pump.js";
import { createEventPublisher } from "../../src/webhooks/event-publisher.js";
import { generateSecret } from "../../src/webhooks/signing.js";
import { postWebhook, type WebhookPost } from "../../src/webhooks/transport.js";
import { defaultAuthDeps } from "./auth-deps.js";
import { makeTempDir } from "./temp-dir.js";
import {
  type ReceivedRequest,
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./webhook-receiver.js";

// The webhook deliverer and publisher on a fresh SQLite meta store per test, sending to a local
// HTTPS receiver: the fixture of the webhooks-delivery-*.int.test.ts files.

export const silent = pino({ level: "silent" });
export const iso = (ms: number) => new Date(ms).toISOString();
export const HOUR = 3_600_000;

export type FakeClock = Clock & { ms: number; set(ms: number): void };

/** A clock the test moves by hand. Starts at the real time: receivers check timestamps within 5 min. */
export function fakeClock(): FakeClock {
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
export const envelope = (request: ReceivedRequest | undefined) =>
  JSON.parse(request?.body ?? "null") as { event: string; data: unknown; attempt: number };

export const header = (request: ReceivedRequest | undefined, name: string) => {
  const value = request?.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** What a test of the deliverer works with; `state()` is fresh in every test. */
export interface DelivererFixture {
  receiver(): WebhookReceiver;
  state(): { store: MetaStore; projectId: string; secretBox: SecretBox; clock: FakeClock };
  /** Sends through the test's guarded agent (private targets allowed, the test CA trusted). */
  send(post: WebhookPost): ReturnType<typeof postWebhook>;
  /** A deliverer on the test's store, stopped after the test. */
  deliverer(options?: {
    clock?: Clock;
    concurrency?: number;
    send?: (post: WebhookPost) => ReturnType<typeof postWebhook>;
  }): WebhookDeliverer;
  /** The publish function of a publisher waking `target`. */
  publisher(
    target: Pick<WebhookDeliverer, "kick">,
    publishClock?: Clock,
  ): (event: DomainEvent) => Promise<number>;
  /** Inserts an endpoint through the repository; returns it with its plain secret. */
  addEndpoint(
    events: string[],
    extra?: Partial<WebhookEndpointRecord>,
  ): Promise<WebhookEndpointRecord & { plainSecret: string; webhook: Webhook }>;
  event(id: string, type?: string, project?: string): DomainEvent;
  /** The delivery of an endpoint's latest attempt (the queue has no listing by endpoint). */
  latestDelivery(
    endpointId: string,
  ): ReturnType<MetaStore["repos"]["webhookDeliveries"]["findById"]> | Promise<undefined>;
}

/** Registers the hooks of a deliverer suite: one receiver per file, a fresh store per test. */
export function useDelivererFixture(): DelivererFixture {
  const eventTypes = createWebhookEventTypes();
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
  let clock: FakeClock;
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
          appUrl: new AppUrl(undefined),
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

  return {
    receiver: () => receiver,
    state: () => ({ store, projectId, secretBox, clock }),
    send,
    deliverer(options = {}) {
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
    },
    publisher(target, publishClock = clock) {
      return createEventPublisher({
        meta: store,
        clock: publishClock,
        newId,
        logger: silent,
        eventTypes,
        deliverer: target,
      }).publish;
    },
    async addEndpoint(events, extra = {}) {
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
    },
    event: (id, type = "monitor.down", project = projectId) => ({
      id,
      type,
      projectId: project,
      data: { incidentId: `inc_${id}`, note: "down" },
      occurredAt: clock.now().toISOString(),
    }),
    async latestDelivery(endpointId) {
      const attempts = await store.repos.webhookDeliveries.listAttempts(endpointId, 50);
      const deliveryId = attempts[0]?.deliveryId;
      return deliveryId ? store.repos.webhookDeliveries.findById(deliveryId) : undefined;
    },
  };
}
