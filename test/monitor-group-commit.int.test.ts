import { join } from "node:path";
import SQLite from "better-sqlite3";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DomainDeps, systemCtx } from "../src/context.js";
import { AppUrl } from "../src/lib/app-url.js";
import { systemClock } from "../src/lib/clock.js";
import { newId } from "../src/lib/ids.js";
import { LeaseLostError } from "../src/lib/leased-scheduler.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../src/meta/meta-store.js";
import type { RecordCheckInput } from "../src/monitors/check-recording.js";
import type { CheckResult } from "../src/monitors/check-result.js";
import { createMonitorEngine } from "../src/monitors/engine.js";
import { createGroupCommit } from "../src/monitors/group-commit.js";
import { createMonitor, type MonitorCtx } from "../src/monitors/monitors.js";
import { initialize } from "../src/setup/initialize.js";
import { createComponent } from "../src/status-pages/components.js";
import { createStatusPageEngine } from "../src/status-pages/engine.js";
import { utcDay } from "../src/status-pages/history.js";
import type { StatusPageEngine } from "../src/status-pages/signals.js";
import { createPage } from "../src/status-pages/status-pages.js";
import { defaultAuthDeps } from "./helpers/auth-deps.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * Group commit (src/monitors/group-commit.ts) on a real SQLite store: the records of a window
 * share one transaction, none is acknowledged before its commit, a failing one fails alone, and
 * a status page counts a check by the time it is acknowledged.
 */
let dir: ReturnType<typeof makeTempDir>;
let store: MetaStore;
let domain: DomainDeps & { statusPages: StatusPageEngine };
let ctx: MonitorCtx;
let orgId: string;
let projectId: string;
/** Transactions begun through `meta` (the store as the group commit sees it). */
let transactions = 0;
let meta: MetaStore;

beforeEach(async () => {
  dir = makeTempDir();
  store = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
  await store.migrate();
  transactions = 0;
  meta = {
    ...store,
    transaction: (fn) => {
      transactions++;
      return store.transaction(fn);
    },
  };
  domain = {
    meta: store,
    clock: systemClock,
    newId,
    sessionTtlHours: 24,
    appUrl: new AppUrl(undefined),
    ...defaultAuthDeps(),
    statusPages: createStatusPageEngine({ clock: systemClock }),
  };
  const admin = await initialize({
    ctx: systemCtx(domain),
    input: { email: "a@example.com", password: "a long password" },
  });
  ({ orgId, projectId } = admin);
  const engine = createMonitorEngine({
    ...domain,
    logger: pino({ level: "silent" }),
    run: () => Promise.reject(new Error("not run here")),
  });
  ctx = {
    deps: { ...domain, monitors: { engine, allowPrivateTargets: true } },
    actor: { kind: "system" },
  };
});
afterEach(async () => {
  await store.close();
  dir.remove();
});

async function monitors(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await createMonitor({
      ctx,
      projectId,
      input: { name: `m${i}`, type: "api", steps: [{ url: "http://127.0.0.1:9/health" }] },
    });
    ids.push(created.id);
  }
  return ids;
}

function result(passed: boolean): CheckResult {
  return {
    passed,
    startedAt: new Date().toISOString(),
    durationMs: 3,
    traceId: "0af7651916cd43dd8448eb211c80319c",
    steps: [],
  };
}

const check = (monitorId: string, passed = true): RecordCheckInput => ({
  monitorId,
  result: result(passed),
  trigger: "scheduled",
  fence: undefined,
});

/** Rows of monitor_results as another connection sees them (committed only). */
function committedResults(): number {
  const reader = new SQLite(join(dir.path, "meta.sqlite"), { readonly: true });
  try {
    return (reader.prepare("SELECT count(*) AS n FROM monitor_results").get() as { n: number }).n;
  } finally {
    reader.close();
  }
}

describe("group commit of check records", () => {
  it("records of one window share a transaction, each acknowledged only once committed", async () => {
    const ids = await monitors(5);
    const commits = createGroupCommit({ ...domain, meta }, { windowMs: 100 });
    const seenAtAck: number[] = [];
    const started = performance.now();
    const recorded = await Promise.all(
      ids.map((id) =>
        commits.record(check(id)).then((r) => {
          seenAtAck.push(committedResults());
          return r;
        }),
      ),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect(recorded.map((r) => r?.monitorId)).toEqual(ids);
    expect(transactions).toBe(1);
    // Another connection sees every row of the batch by the time any of them is acknowledged.
    expect(seenAtAck).toEqual([5, 5, 5, 5, 5]);
    const states = await Promise.all(ids.map((id) => store.repos.monitors.findById(id)));
    expect(states.map((m) => m?.lastResultId)).toEqual(recorded.map((r) => r?.id));
  });

  it("a window of 0 commits each record alone, and a manual record does not wait for the window", async () => {
    const ids = await monitors(3);
    await Promise.all(
      ids.map((id) => createGroupCommit({ ...domain, meta }, { windowMs: 0 }).record(check(id))),
    );
    expect(transactions).toBe(3);
    const slow = createGroupCommit({ ...domain, meta }, { windowMs: 60_000 });
    const started = performance.now();
    const waiting = [slow.record(check(ids[1] as string)), slow.record(check(ids[2] as string))];
    // A manual check takes the records waiting for the window along, at once.
    await slow.record(check(ids[0] as string), { now: true });
    await Promise.all(waiting);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(transactions).toBe(4);
    expect(committedResults()).toBe(6);
  });

  it("a record refused by its fence fails alone; the rest of its batch is recorded in the same commit", async () => {
    const ids = await monitors(3);
    const now = new Date().toISOString();
    await store.repos.workLeases.reconcile("monitor", ids);
    await store.repos.workLeases.heartbeat(
      "monitor",
      "w",
      now,
      new Date(Date.now() + 60_000).toISOString(),
    );
    const leases = await store.repos.workLeases.claim("monitor", "w", now, ids.length);
    const token = (id: string) => leases.find((l) => l.entityId === id)?.token ?? 0;
    const fenced = (id: string, owner: string): RecordCheckInput => ({
      ...check(id),
      fence: { kind: "monitor", entityId: id, owner, token: token(id), slot: Date.now() },
    });
    const commits = createGroupCommit({ ...domain, meta }, { windowMs: 50 });
    const outcomes = await Promise.allSettled([
      commits.record(fenced(ids[0] as string, "w")),
      commits.record(fenced(ids[1] as string, "another worker")),
      commits.record(fenced(ids[2] as string, "w")),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(LeaseLostError);
    expect(transactions).toBe(1);
    expect(committedResults()).toBe(2);
    expect((await store.repos.monitors.findById(ids[1] as string))?.lastResultId).toBeNull();
  });

  it("any other failure rolls its batch back, and each record is written again alone: only it fails", async () => {
    const ids = await monitors(3);
    const commits = createGroupCommit({ ...domain, meta }, { windowMs: 50 });
    const broken: RecordCheckInput = {
      ...check(ids[1] as string),
      guard: async () => {
        throw new Error("the guard broke");
      },
    };
    const outcomes = await Promise.allSettled([
      commits.record(check(ids[0] as string)),
      commits.record(broken),
      commits.record(check(ids[2] as string)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain("the guard broke");
    // The batch, then each of its three again on its own.
    expect(transactions).toBe(4);
    expect(committedResults()).toBe(2);
  });

  it("a status page counts a check by the time it is acknowledged, also for a monitor added to it later", async () => {
    const [onPage, later] = await monitors(2);
    const owner = { ...ctx, actor: { kind: "system" as const } };
    const page = await createPage({ ctx: owner, orgId, input: { slug: "acme", title: "Acme" } });
    const api = await createComponent({
      ctx: owner,
      orgId,
      pageId: page.page.id,
      input: { name: "API", monitorIds: [onPage] },
    });
    const commits = createGroupCommit({ ...domain, meta }, { windowMs: 30 });
    const counted = async (componentId: string) =>
      (await store.repos.statusPageDays.checksRunOn([componentId], utcDay(Date.now()))).get(
        componentId,
      ) ?? 0;
    await Promise.all([
      commits.record(check(onPage as string)),
      commits.record(check(later as string, false)),
    ]);
    expect(await counted(api.id)).toBe(1);
    // Not on a page yet: nothing counted; once a component takes it, its next check counts.
    const web = await createComponent({
      ctx: owner,
      orgId,
      pageId: page.page.id,
      input: { name: "Web", monitorIds: [later] },
    });
    expect(await counted(web.id)).toBe(0);
    await commits.record(check(later as string));
    expect(await counted(web.id)).toBe(1);
  });
});
