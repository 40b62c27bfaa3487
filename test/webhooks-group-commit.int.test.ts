import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWebhookEventTypes } from "../src/composition/webhooks.js";
import type { DomainEvent } from "../src/events/event-bus.js";
import { newId } from "../src/lib/ids.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaAccess, type MetaStore } from "../src/meta/meta-store.js";
import type { NewWebhookDelivery } from "../src/meta/repositories/webhook-deliveries.js";
import type { MetaSchema } from "../src/meta/schema.js";
import { createEventPublisher } from "../src/webhooks/event-publisher.js";
import { findPostgresBin, startThrowawayPostgres } from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-dir.js";

// The publisher's group commit (docs/webhooks.md, "Publishing"): one transaction at a time,
// holding every event published since the last one began; a publish resolves only once the
// commit holding its deliveries is done; a failed batch is written again event by event, so no
// delivery is lost or stored twice. On SQLite and, where its binaries are, PostgreSQL.

const silent = pino({ level: "silent" });
const eventTypes = createWebhookEventTypes();
const binDir = findPostgresBin();

interface Engine {
  /** The store the publisher writes through, and a second connection to the same database. */
  open(): Promise<{ store: MetaStore; other: Kysely<MetaSchema>; close(): Promise<void> }>;
}

const sqlite: Engine = {
  async open() {
    const dir = makeTempDir("vigil-group-commit-");
    const store = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
    await store.migrate();
    // A second connection of its own (no checkpointer): it sees committed rows only.
    const other = new Kysely<MetaSchema>({
      dialect: new SqliteDialect({
        database: new SQLite(join(dir.path, "meta.sqlite"), { readonly: true }),
      }),
    });
    return {
      store,
      other,
      async close() {
        await other.destroy();
        await store.close();
        dir.remove();
      },
    };
  },
};

const engines: [string, Engine | undefined][] = [["SQLite", sqlite]];
let postgresUrl: string | undefined;
let stopPostgres: (() => Promise<void>) | undefined;
const postgres: Engine = {
  async open() {
    const store = createMetaStore(openMetaDatabase({ url: postgresUrl, dataDir: "/nonexistent" }));
    await store.migrate();
    const other = openMetaDatabase({ url: postgresUrl, dataDir: "/nonexistent" }).db;
    await sql`TRUNCATE webhook_deliveries, webhook_endpoints, projects, organizations CASCADE`.execute(
      other,
    );
    return {
      store,
      other,
      async close() {
        await other.destroy();
        await store.close();
      },
    };
  },
};
engines.push(["PostgreSQL", binDir ? postgres : undefined]);

beforeAll(async () => {
  if (!binDir) return;
  const started = await startThrowawayPostgres(binDir);
  postgresUrl = started.url;
  stopPostgres = () => started.stop();
}, 60_000);
afterAll(async () => {
  await stopPostgres?.();
});

/** Gates the store's transactions before their commit, and counts the delivery inserts. */
function instrumented(store: MetaStore) {
  const counts = { inserts: 0, transactions: 0 };
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  let arrived: (() => void) | undefined;
  let failing: ((rows: readonly NewWebhookDelivery[]) => boolean) | undefined;
  const wrap = (access: MetaAccess): MetaAccess => {
    const repos = new Proxy(access.repos, {
      get(target, key, receiver) {
        const repo = Reflect.get(target, key, receiver);
        if (key !== "webhookDeliveries") return repo;
        return {
          ...repo,
          enqueue(rows: readonly NewWebhookDelivery[]) {
            counts.inserts++;
            if (failing?.(rows)) return Promise.reject(new Error("the store refused the insert"));
            return repo.enqueue(rows);
          },
        };
      },
    });
    const wrapped: MetaAccess = {
      repos,
      run: (fn) => fn(repos),
      transaction: (fn) => fn(wrapped),
    };
    return wrapped;
  };
  const meta: MetaAccess = {
    ...wrap(store),
    transaction: (fn) => {
      counts.transactions++;
      return store.transaction(async (tx) => {
        const result = await fn(wrap(tx));
        if (gate) {
          arrived?.();
          await gate;
        }
        return result;
      });
    },
  };
  return {
    meta,
    counts,
    /**
     * Holds every transaction before its commit until `release()`; resolves once one has
     * written its rows and waits there.
     */
    hold(): Promise<void> {
      gate = new Promise((resolve) => {
        open = resolve;
      });
      return new Promise((resolve) => {
        arrived = resolve;
      });
    },
    release() {
      open?.();
      gate = undefined;
    },
    failWhen(test: ((rows: readonly NewWebhookDelivery[]) => boolean) | undefined) {
      failing = test;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

for (const [name, engine] of engines)
  describe.skipIf(!engine)(`webhook publisher's group commit on ${name}`, () => {
    let store: MetaStore;
    let other: Kysely<MetaSchema>;
    let close: () => Promise<void>;
    /** A store whose transactions a test holds: released after it, whatever happened. */
    let held: { release(): void } | undefined;
    const projectId = "prj_group";
    afterEach(() => {
      held?.release();
      held = undefined;
    });

    beforeEach(async () => {
      ({ store, other, close } = await (engine as Engine).open());
      const at = new Date().toISOString();
      await store.repos.organizations.insert({ id: "org_group", name: "group", createdAt: at });
      await store.repos.projects.insert({
        id: projectId,
        orgId: "org_group",
        name: "group",
        createdAt: at,
      });
      for (const id of ["whe_group_a", "whe_group_b"])
        await store.repos.webhookEndpoints.insert({
          id,
          projectId,
          url: `https://hooks.example.com/${id}`,
          events: ["monitor.down"],
          isActive: true,
          secret: "v1.sealed",
          createdBy: null,
          createdAt: at,
          updatedAt: at,
        });
      return close;
    });

    const event = (id: string): DomainEvent => ({
      id,
      type: "monitor.down",
      projectId,
      data: { id },
      occurredAt: new Date().toISOString(),
    });
    const publisherOn = (meta: MetaAccess) =>
      createEventPublisher({
        meta,
        clock: { now: () => new Date() },
        newId,
        logger: silent,
        eventTypes,
        deliverer: { kick: () => undefined },
      }).publish;
    /** Stored deliveries per event id, as another connection sees them (committed only). */
    const committed = async () => {
      const { rows } = await sql<{ event_id: string; n: number | string }>`
        SELECT event_id, count(*) AS n FROM webhook_deliveries GROUP BY event_id`.execute(other);
      return Object.fromEntries(rows.map((row) => [row.event_id, Number(row.n)]));
    };

    it("resolves a publish only once the commit holding its deliveries is done", async () => {
      const store$ = instrumented(store);
      const publish = publisherOn(store$.meta);
      const waiting = store$.hold();
      held = store$;
      let resolved = 0;
      const publishes = ["evt_1", "evt_2", "evt_3"].map((id) =>
        publish(event(id)).then((n) => {
          resolved++;
          return n;
        }),
      );
      await waiting;
      for (let i = 0; i < 5; i++) await tick();
      expect(store$.counts.transactions).toBe(1);
      expect(resolved).toBe(0);
      expect(await committed()).toEqual({});
      store$.release();
      expect(await Promise.all(publishes)).toEqual([2, 2, 2]);
      expect(await committed()).toEqual({ evt_1: 2, evt_2: 2, evt_3: 2 });
    });

    it("writes what is published during a commit in the next one, all in one transaction", async () => {
      const store$ = instrumented(store);
      const publish = publisherOn(store$.meta);
      const waiting = store$.hold();
      held = store$;
      const first = [publish(event("evt_a")), publish(event("evt_b"))];
      await waiting;
      const later: Promise<number>[] = [];
      // Five publishes, each in a tick of its own, while the first commit waits.
      for (let i = 0; i < 5; i++) {
        await tick();
        later.push(publish(event(`evt_later_${i}`)));
      }
      expect(store$.counts).toEqual({ inserts: 1, transactions: 1 });
      store$.release();
      expect(await Promise.all([...first, ...later])).toEqual(Array(7).fill(2));
      expect(store$.counts).toEqual({ inserts: 2, transactions: 2 });
      const stored = await committed();
      expect(Object.keys(stored)).toHaveLength(7);
      expect(Object.values(stored).every((n) => n === 2)).toBe(true);
    });

    it("rejects every caller of a batch the store refuses, and stores none of it", async () => {
      const store$ = instrumented(store);
      const publish = publisherOn(store$.meta);
      store$.failWhen(() => true);
      const outcomes = await Promise.allSettled(
        ["evt_x", "evt_y", "evt_z"].map((id) => publish(event(id))),
      );
      expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
      expect(await committed()).toEqual({});
      // Published again once the store is back: each stored once.
      store$.failWhen(undefined);
      expect(
        await Promise.all(["evt_x", "evt_y", "evt_z"].map((id) => publish(event(id)))),
      ).toEqual([2, 2, 2]);
      expect(await committed()).toEqual({ evt_x: 2, evt_y: 2, evt_z: 2 });
    });

    it("fails only the event the store refuses; the rest of its batch is stored once", async () => {
      const store$ = instrumented(store);
      const publish = publisherOn(store$.meta);
      store$.failWhen((rows) => rows.some((row) => row.eventId === "evt_bad"));
      const outcomes = await Promise.allSettled(
        ["evt_ok_1", "evt_bad", "evt_ok_2"].map((id) => publish(event(id))),
      );
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect(await committed()).toEqual({ evt_ok_1: 2, evt_ok_2: 2 });
    });

    it("loses and duplicates nothing when many producers publish, some the same events", async () => {
      const publish = publisherOn(store);
      const producer = async (p: number) => {
        const counts: number[] = [];
        for (let i = 0; i < 40; i++) {
          // Producers p and p + 4 publish the same events.
          counts.push(await publish(event(`evt_${p % 4}_${i}`)));
          if (i % 7 === 0) await tick();
        }
        return counts;
      };
      const counts = (await Promise.all(Array.from({ length: 8 }, (_, p) => producer(p)))).flat();
      expect(counts.every((n) => n === 2)).toBe(true);
      const stored = await committed();
      expect(Object.keys(stored)).toHaveLength(160);
      expect(Object.values(stored).every((n) => n === 2)).toBe(true);
    });
  });
