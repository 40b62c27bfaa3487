/**
 * npm run bench:monitors:workers — N monitors at 1m shared by worker processes through leases.
 *
 * 1. A throwaway PostgreSQL (Debian's binaries, as the tests start it) as the metadata store, the
 *    test ClickHouse endpoint as the telemetry store (split roles need shared stores; monitors
 *    write no telemetry),
 *    one org/project, then --monitors N (20,000) api monitors at 1m created by the domain verb
 *    against the local target of bench:monitors (a keep-alive JSON API in a child process).
 * 2. Baseline, same run: ONE worker process (`vigil serve --role worker`, built bin) runs every
 *    monitor: a warm-up of at least --warmup-seconds (60) and until the backlog is caught up
 *    (never-checked monitors all run at once on first start), then --seconds (180) measured,
 *    and it stops (SIGTERM: its leases are handed back at once).
 * 3. The same with --workers W (2) worker processes sharing the monitors.
 *
 * Every figure comes from what the workers recorded in PostgreSQL (monitor_results), so nothing
 * in this process is on the measured path: schedule lag = a check's start minus its slot;
 * coverage per minute = distinct monitors whose slot in that minute was checked ÷ N; duplicate
 * slots = (monitor, slot) pairs recorded twice (must be 0); missed = slots in the window with no
 * check. Each worker's CPU time and RSS come from /proc.
 *
 * Target (issue 18): lag p99 and coverage with two workers reported beside one. The last line is
 * one JSON object.
 * The parts: bench/monitors-workers/ (settings, phase, slots, report).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { loadConfig } from "../src/config/load-config.js";
import { createLogger } from "../src/lib/logger.js";
import { createMonitorEngine } from "../src/monitors/engine.js";
import { startShimProcess } from "../test/helpers/clickhouse-shim-process.js";
import { findPostgresBin, startThrowawayPostgres } from "../test/helpers/postgres.js";
import { openBenchMeta } from "./harness/bench-meta.js";
import { type Cleanups, withTempDir } from "./harness/run.js";
import { createBenchMonitors, startTarget } from "./monitor-target.js";
import { phase } from "./monitors-workers/phase.js";
import { report } from "./monitors-workers/report.js";
import { MONITORS, WORKERS } from "./monitors-workers/settings.js";

/** PostgreSQL, the target, the telemetry endpoint and the monitors, for the worker processes. */
async function setUp(dir: string, cleanups: Cleanups) {
  const binDir = findPostgresBin();
  if (!binDir) throw new Error("PostgreSQL binaries not found: apt-get install postgresql");
  const postgres = await startThrowawayPostgres(binDir);
  cleanups.push(() => postgres.stop());
  const target = await startTarget();
  cleanups.push(() => target.stop());
  // Split roles share a telemetry store: the test ClickHouse endpoint (chDB behind HTTP).
  const shim = await startShimProcess(`${dir}/clickhouse`);
  cleanups.push(() => shim.stop());
  const config = loadConfig({ env: { VIGIL_DATA_DIR: dir, VIGIL_META_URL: postgres.url } });
  const { meta, domain, projectId } = await openBenchMeta(config, cleanups);
  const sql = new pg.Client({ connectionString: postgres.url });
  cleanups.push(() => sql.end().catch(() => undefined));
  await sql.connect();
  // The verb needs an engine only for `run now`; nothing runs here.
  const engine = createMonitorEngine({
    meta,
    clock: domain.clock,
    newId: domain.newId,
    logger: createLogger("silent"),
    run: () => Promise.reject(new Error("not in the bench process")),
  });
  await createBenchMonitors(domain, engine, projectId, `${target.origin}/`, MONITORS);
  const secretKey = randomBytes(32).toString("base64");
  return { dir, postgresUrl: postgres.url, telemetryUrl: shim.url, secretKey, sql, target };
}

async function main() {
  await withTempDir("workers", async (dir, cleanups) => {
    const setup = await setUp(dir, cleanups);
    const one = await phase(setup, 1);
    const shared = await phase(setup, WORKERS);
    report(one, shared);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
