import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIdGenerator } from "../src/lib/ids.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import { createMonitorEngine } from "../src/monitors/engine.js";
import {
  createHeartbeatWatcher,
  type HeartbeatWatcher,
} from "../src/monitors/heartbeat-watcher.js";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * Several workers each run a deadline watcher (docs/heartbeats.md): a missed ping is recorded
 * once whichever of them sees it, one per period. PostgreSQL: two stores (two workers' pools) on
 * one database; SQLite: two watchers on one store (one process).
 */
const logger = pino({ level: "silent" });
const MONITORS = 12;
const PERIOD_MS = 60_000;
const t0 = Date.UTC(2026, 2, 1, 9, 0, 0);

function watchersCase(
  open: () => Promise<{ stores: [MetaStore, MetaStore]; close(): Promise<void> }>,
) {
  let stores: [MetaStore, MetaStore];
  let close: () => Promise<void>;
  let nowMs = t0;
  const clock = { now: () => new Date(nowMs) };
  let watchers: HeartbeatWatcher[];
  /** Records the watchers tried, refused ones (another watcher's) included. */
  let attempts = 0;

  beforeAll(async () => {
    ({ stores, close } = await open());
    const [first] = stores;
    await first.migrate();
    const { repos } = first;
    const at = new Date(t0).toISOString();
    await repos.organizations.insert({ id: "org_w", name: "W", createdAt: at });
    await repos.projects.insert({ id: "prj_w", orgId: "org_w", name: "w", createdAt: at });
    for (let i = 0; i < MONITORS; i++) {
      const id = `mon_w${String(i).padStart(2, "0")}`;
      await repos.monitors.insert({
        id,
        projectId: "prj_w",
        name: `job ${i}`,
        status: "active",
        definition: {
          name: `job ${i}`,
          type: "heartbeat",
          period: "1m",
          grace: "0s",
          alertAfter: 2,
          timeoutSeconds: 10,
          locations: ["default"],
          channelIds: [],
          escalationPolicyId: null,
        },
        channelIds: [],
        health: "pending",
        failureStreak: 0,
        lastCheckedAt: null,
        lastResultId: null,
        openIncidentId: null,
        createdBy: null,
        createdAt: at,
        updatedAt: at,
      });
      await repos.heartbeats.insert({
        monitorId: id,
        tokenHash: `hash-${id}`,
        tokenSealed: "sealed",
        lastPingAt: null,
        startedAt: null,
        // Deadlines spread over the first period.
        nextDeadlineAt: new Date(t0 + PERIOD_MS + i * 1000).toISOString(),
        createdAt: at,
      });
    }
    watchers = stores.map((meta, n) => {
      const engine = createMonitorEngine({
        meta,
        clock,
        newId: createIdGenerator(() => nowMs + n),
        logger,
        run: () => Promise.reject(new Error("a heartbeat is never run")),
      });
      return createHeartbeatWatcher({
        meta,
        clock,
        logger,
        record: (check) => {
          attempts++;
          return engine.record(check);
        },
        batch: 5,
        concurrency: 3,
      });
    });
  });
  afterAll(async () => {
    await close?.();
  });

  const missedCounts = async () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < MONITORS; i++) {
      const id = `mon_w${String(i).padStart(2, "0")}`;
      counts.set(id, await stores[0].repos.monitorResults.count({ monitorId: id }));
    }
    return [...counts.values()];
  };
  /** Both watchers at once, twice: how many missed pings they recorded together. */
  const bothWatch = async () => {
    let total = 0;
    for (let round = 0; round < 2; round++)
      for (const recorded of await Promise.all(watchers.map((w) => w.runOnce()))) total += recorded;
    return total;
  };

  it("records each missed deadline once across the watchers, then one per period", async () => {
    nowMs = t0 + PERIOD_MS + 5500; // the first six deadlines passed
    expect(await bothWatch()).toBe(6);
    // Both read the same due deadlines: the fence refused the second attempts.
    expect(attempts).toBeGreaterThan(6);
    expect(await missedCounts()).toEqual([1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    nowMs = t0 + 2 * PERIOD_MS + 20_000; // all first deadlines, and the first six's second ones
    expect(await bothWatch()).toBe(12);
    expect(await missedCounts()).toEqual([2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1]);
    expect(await bothWatch()).toBe(0);
    const first = await stores[1].repos.monitors.findById("mon_w00");
    expect(first).toMatchObject({ health: "outage", failureStreak: 2 });
    const heartbeat = await stores[1].repos.heartbeats.findByMonitorId("mon_w00");
    expect(heartbeat?.nextDeadlineAt).toBe(new Date(t0 + 3 * PERIOD_MS).toISOString());
  });
}

describe("heartbeat watchers on SQLite", () => {
  const dir = makeTempDir();
  watchersCase(async () => {
    const store = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
    return {
      stores: [store, store],
      close: async () => {
        await store.close();
        dir.remove();
      },
    };
  });
});

const binDir = findPostgresBin();
describe.skipIf(!binDir)("heartbeat watchers on PostgreSQL", () => {
  let postgres: ThrowawayPostgres;
  watchersCase(async () => {
    postgres = await startThrowawayPostgres(binDir ?? "");
    const open = () =>
      createMetaStore(openMetaDatabase({ url: postgres.url, dataDir: "/nonexistent" }));
    const stores: [MetaStore, MetaStore] = [open(), open()];
    return {
      stores,
      close: async () => {
        await Promise.all(stores.map((s) => s.close()));
        await postgres.stop();
      },
    };
  });
});
