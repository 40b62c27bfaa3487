import { createDomainDeps } from "../../src/composition/domain-deps.js";
import { openMetaStore } from "../../src/composition/stores.js";
import { loadConfig } from "../../src/config/load-config.js";
import { loadSecretKey } from "../../src/config/secret-key.js";
import { systemCtx } from "../../src/context.js";
import { createSecretBox } from "../../src/lib/secret-box.js";
import type { MonitorEngine } from "../../src/monitors/engine.js";
import { createMonitor } from "../../src/monitors/monitors.js";
import { initialize } from "../../src/setup/initialize.js";

/** Monitors created per transaction. */
const CHUNK = 500;

/**
 * The data dir the server will start on: initialized (org, project, user), and `count` heartbeat
 * monitors created through the domain verb with the server's key (its secret.key, made here),
 * so each one's pingUrl holds the token the bench pings with.
 */
export async function seedHeartbeats(
  dataDir: string,
  count: number,
  timing: { period: string; grace: string },
) {
  const started = performance.now();
  const config = loadConfig({ env: { VIGIL_DATA_DIR: dataDir, VIGIL_LOG_LEVEL: "warn" } });
  const meta = await openMetaStore(config);
  try {
    const domain = createDomainDeps(config, meta, {});
    const secretBox = createSecretBox(loadSecretKey(config, meta.engine));
    const { projectId } = await initialize({
      ctx: systemCtx(domain),
      input: { email: "bench@example.com", password: "bench password 1", withApiKey: false },
    });
    // Heartbeats are never run: an engine that would say so.
    const engine: MonitorEngine = {
      check: () => Promise.reject(new Error("heartbeats are not run")),
      record: () => Promise.reject(new Error("not while seeding")),
      isRunning: () => false,
      idle: () => Promise.resolve(),
      abort: () => undefined,
    };
    const monitors: { id: string; token: string }[] = [];
    for (let from = 0; from < count; from += CHUNK) {
      await meta.transaction(async (tx) => {
        const ctx = {
          deps: {
            ...domain,
            meta: tx,
            monitors: { engine, allowPrivateTargets: false, secretBox },
          },
          actor: { kind: "system" as const },
        };
        for (let i = from; i < Math.min(count, from + CHUNK); i++) {
          const view = await createMonitor({
            ctx,
            projectId,
            input: { name: `job ${i}`, type: "heartbeat", ...timing, alertAfter: 1 },
          });
          const token = new URL(view.pingUrl ?? "").pathname.split("/")[2];
          if (!token) throw new Error("a heartbeat without its ping URL");
          monitors.push({ id: view.id, token });
        }
      });
    }
    return { monitors, seconds: Math.round((performance.now() - started) / 100) / 10 };
  } finally {
    await meta.close();
  }
}
