import {
  checkRunnerFor,
  createOutbound,
  monitorEngineFor,
  monitorSchedulerFor,
} from "../../src/composition/monitors.js";
import { loadConfig } from "../../src/config/load-config.js";
import { createLogger } from "../../src/lib/logger.js";
import { createMetrics } from "../../src/lib/metrics.js";
import { openBenchMeta } from "../harness/bench-meta.js";
import { type Cleanups, log, sleep } from "../harness/run.js";
import { fmt, spread } from "../harness/stats.js";
import { createBenchMonitors } from "../monitor-target.js";
import { args, MONITORS } from "./settings.js";
import { trackChecks } from "./tracked-engine.js";

/**
 * Vigil's side, from the composition factories the service runs (src/composition/): the
 * metadata store, one project, the check engine on the guarded outbound agent, --monitors
 * monitors created through the domain verb, and the scheduler (leased, as every worker runs it;
 * one worker holds every lease) on the engine with its checks tracked.
 */
export async function startVigil(dataDir: string, url: string, cleanups: Cleanups) {
  const config = loadConfig({
    env: {
      VIGIL_DATA_DIR: dataDir,
      VIGIL_LOG_LEVEL: "warn",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      ...(args.concurrency ? { VIGIL_MONITORS_CONCURRENCY: args.concurrency } : {}),
    },
  });
  const logger = createLogger("warn", process.stderr);
  const metrics = createMetrics();
  const { meta, domain, projectId } = await openBenchMeta(config, cleanups, { metrics });
  const outbound = createOutbound(config);
  cleanups.push(() => outbound.close());
  const engine = monitorEngineFor(config, {
    ...domain,
    meta,
    logger,
    metrics,
    outbound,
    onNotificationsQueued: () => undefined,
  });

  // The monitors through the domain verb, 500 per transaction.
  const createStarted = performance.now();
  await createBenchMonitors(domain, engine, projectId, url, MONITORS);
  const createSeconds = (performance.now() - createStarted) / 1000;
  log(`Created ${fmt(MONITORS)} monitors in ${createSeconds.toFixed(1)} s`);

  const { tracked, checks } = trackChecks(engine);
  const lease = {
    workerId: "bench",
    leases: meta.repos.workLeases,
    leaseMs: config.leaseSeconds * 1000,
  };
  const scheduler = monitorSchedulerFor(config, {
    engine: tracked,
    meta,
    clock: domain.clock,
    logger,
    metrics,
    lease,
  });
  if (!scheduler) throw new Error("the monitor scheduler is off (VIGIL_MONITORS_ENABLED)");
  cleanups.push(() => scheduler.stop());
  const skipped = async () => (await metrics.monitorChecksSkipped.get()).values[0]?.value ?? 0;

  const progress = (label: string, since: number) => {
    const s = scheduler.stats();
    const recent = checks.filter((c) => c.startedAt >= Date.now() - 10_000);
    const lag = spread(recent.map((c) => c.startedAt - c.slot));
    log(
      `  ${label} ${((Date.now() - since) / 1000).toFixed(0)} s: ${fmt(checks.length)} checks started, ` +
        `${(recent.length / 10).toFixed(1)}/s over 10 s, lag p99 ${lag.p99} ms, running ${s.running}, queued ${s.queued}, ` +
        `RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
    );
  };
  const wait = async (label: string, ms: number) => {
    const since = Date.now();
    const ticker = setInterval(() => progress(label, since), 10_000);
    await sleep(ms);
    clearInterval(ticker);
  };
  // The runner the engine runs (monitorEngineFor), for the parts' runner loop.
  const run = checkRunnerFor(config, { outbound, clock: domain.clock });
  return { config, meta, scheduler, checks, skipped, wait, createSeconds, engine, run };
}
export type Vigil = Awaited<ReturnType<typeof startVigil>>;
