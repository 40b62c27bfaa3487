import type { ApiKeyActor } from "../../src/context.js";
import { PanelCache } from "../../src/dashboards/panel-cache.js";
import { PanelLimiter } from "../../src/dashboards/panel-limiter.js";
import { type PanelQueryCtx, runPanelQuery } from "../../src/dashboards/panel-queries.js";
import { AppUrl } from "../../src/lib/app-url.js";
import { newId } from "../../src/lib/ids.js";
import { openMetaDatabase } from "../../src/meta/database.js";
import { createMetaStore, type MetaStore } from "../../src/meta/meta-store.js";
import { createTqlService } from "../../src/tql/tql-service.js";
import { defaultAuthDeps } from "./auth-deps.js";
import { heldEngine } from "./held-engine.js";
import { makeTempDir } from "./temp-dir.js";

/** The instant panel queries run at in these tests: 12:00:07 UTC. */
export const NOW = new Date(Date.UTC(2026, 0, 5, 12, 0, 7));

/**
 * runPanelQuery's deps by hand over an engine that holds every query until released (so the
 * engine's calls are counted and in-flight queries can be shared), a metadata store with
 * projects prj_a and prj_b, and a cache on a clock the test moves.
 */
export async function panelQueryFixture(options: {
  maxRunning?: number;
  maxQueued?: number;
  maxWaitMs?: number;
  cacheBytes?: number;
}) {
  const dir = makeTempDir();
  const meta: MetaStore = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
  await meta.migrate();
  const at = NOW.toISOString();
  await meta.repos.organizations.insert({ id: "org_p", name: "P", createdAt: at });
  for (const id of ["prj_a", "prj_b"])
    await meta.repos.projects.insert({ id, orgId: "org_p", name: id, createdAt: at });
  const held = heldEngine();
  const tql = createTqlService({
    executor: held.engine,
    limits: {
      maxExecutionSeconds: 30,
      maxMemoryBytes: 1e9,
      maxRowsToRead: 1e9,
      maxConcurrentPerProject: options.maxRunning ?? 2,
    },
  });
  const cacheClock = { ms: 0 };
  const dashboards = {
    database: held.engine.database,
    limiter: new PanelLimiter({
      maxRunning: options.maxRunning ?? 2,
      maxQueued: options.maxQueued ?? 64,
      maxWaitMs: options.maxWaitMs ?? 30_000,
    }),
    cache: new PanelCache({
      maxBytes: options.cacheBytes ?? 1024 * 1024,
      now: () => cacheClock.ms,
    }),
  };
  const deps = {
    meta,
    clock: { now: () => NOW },
    newId,
    sessionTtlHours: 1,
    appUrl: new AppUrl(undefined),
    passwords: defaultAuthDeps().passwords,
    tql,
    dashboards,
  };
  const keyOf = (projectId: string): ApiKeyActor => ({
    kind: "api_key",
    keyId: `key_${projectId}`,
    projectId,
    permissions: ["tql:query"],
  });
  const ctx = (projectId = "prj_a"): PanelQueryCtx => ({ deps, actor: keyOf(projectId) });
  /** Runs one panel query as the project's key. */
  const run = (input: unknown, projectId = "prj_a") =>
    runPanelQuery({ ctx: ctx(projectId), projectId, input });
  /** Lets pending promise callbacks and timers of 0 ms run. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  return {
    ...held,
    dashboards,
    cacheClock,
    run,
    settle,
    async close() {
      await meta.close();
      dir.remove();
    },
  };
}
