import pino from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { AppUrl } from "../src/lib/app-url.js";
import { newId } from "../src/lib/ids.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import { createResultRetention } from "../src/monitors/retention.js";
import { initialize } from "../src/setup/initialize.js";
import { createStatusPageEngine } from "../src/status-pages/engine.js";
import { defaultAuthDeps } from "./helpers/auth-deps.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const DAY = 24 * 60 * 60 * 1000;
let dir: ReturnType<typeof makeTempDir>;
let store: MetaStore;

beforeEach(async () => {
  dir = makeTempDir();
  store = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
  await store.migrate();
});
afterEach(async () => {
  await store.close();
  dir.remove();
});

it("deletes results older than the retention in batches and keeps the rest", async () => {
  const now = Date.UTC(2026, 10, 21);
  const clock = { now: () => new Date(now) };
  const domain = {
    meta: store,
    clock,
    newId,
    sessionTtlHours: 24,
    appUrl: new AppUrl(undefined),
    ...defaultAuthDeps(),
    statusPages: createStatusPageEngine({ clock }),
  };
  const { projectId } = await initialize({
    ctx: systemCtx(domain),
    input: {
      email: "r@example.com",
      password: "a long password",
    },
  });
  const monitorId = newId("mon");
  await store.repos.monitors.insert({
    id: monitorId,
    projectId,
    name: "m",
    status: "active",
    definition: {},
    channelIds: [],
    health: "pending",
    failureStreak: 0,
    lastCheckedAt: null,
    lastResultId: null,
    openIncidentId: null,
    createdBy: null,
    createdAt: clock.now().toISOString(),
    updatedAt: clock.now().toISOString(),
  });
  // 25 results a day apart for 30 days ago … 91 days ago, plus 5 within retention.
  const ages = [...Array.from({ length: 25 }, (_, i) => 91 + i), 1, 10, 30, 60, 89.9];
  await store.transaction(async (tx) => {
    for (const age of ages)
      await tx.repos.monitorResults.insert({
        id: newId("run"),
        monitorId,
        startedAt: new Date(now - age * DAY).toISOString(),
        durationMs: 5,
        passed: true,
        trigger: "scheduled",
        detail: { traceId: "0".repeat(32), steps: [] },
      });
  });
  const retention = createResultRetention({
    meta: store,
    clock,
    logger: pino({ level: "silent" }),
    retentionDays: 90,
    batchSize: 10,
  });
  expect(await retention.purge()).toBe(25);
  expect(await store.repos.monitorResults.count({ monitorId })).toBe(5);
  expect(await retention.purge()).toBe(0);
});
