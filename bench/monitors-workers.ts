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
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { type DomainDeps, systemCtx } from "../src/context.js";
import { systemClock } from "../src/lib/clock.js";
import { newId } from "../src/lib/ids.js";
import { createLogger } from "../src/lib/logger.js";
import { nearestSlot, slotAtOrBefore } from "../src/lib/periodic-scheduler.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore } from "../src/meta/meta-store.js";
import { createMonitorEngine } from "../src/monitors/engine.js";
import { initialize } from "../src/setup/initialize.js";
import { createStatusPageEngine } from "../src/status-pages/engine.js";
import { defaultAuthDeps } from "../test/helpers/auth-deps.js";
import { startShimProcess } from "../test/helpers/clickhouse-shim-process.js";
import { findPostgresBin, startThrowawayPostgres } from "../test/helpers/postgres.js";
import { type ServeProcess, startServeProcess } from "../test/helpers/run-cli.js";
import { makeTempDir } from "../test/helpers/temp-dir.js";
import { createBenchMonitors, startTarget } from "./monitor-target.js";
import { printTable } from "./harness/table.js";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "20000" },
    workers: { type: "string", default: "2" },
    "warmup-seconds": { type: "string", default: "60" },
    seconds: { type: "string", default: "180" },
  },
});
const MONITORS = Number(args.monitors);
const WORKERS = Number(args.workers);
const WARMUP_SECONDS = Number(args["warmup-seconds"]);
const SECONDS = Number(args.seconds);
const PERIOD_MS = 60_000;

const log = (text: string) => process.stderr.write(`${text}\n`);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
    Number.NaN
  );
}

/** CPU seconds of every PostgreSQL process (the bench's own server is the only one running). */
function postgresCpuSeconds(): number {
  const out = execFileSync("ps", ["-C", "postgres", "-o", "times="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((n) => Number.isFinite(n))
    .reduce((a, b) => a + b, 0);
}

/** CPU seconds (user + system) and RSS of a process, from /proc. */
function procStats(pid: number): { cpuSeconds: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return { cpuSeconds: ticks / 100, rssMiB: round(Number(rss) / 1024, 0) };
}

interface PhaseResult {
  workers: number;
  /** Until the first runs (or the slots missed between phases) were caught up. */
  warmupSeconds: number;
  checksPerSecond: number;
  lagMs: { p50: number; p99: number; max: number };
  coverageMinPercent: number;
  coverageMeanPercent: number;
  missedSlots: number;
  duplicateSlots: number;
  failedChecks: number;
  cpuSecondsPerWorker: number[];
  rssMiBPerWorker: number[];
  postgresCpuSeconds: number;
  targetCpuSeconds: number;
}

async function main() {
  const binDir = findPostgresBin();
  if (!binDir) throw new Error("PostgreSQL binaries not found: apt-get install postgresql");
  const dir = makeTempDir("vigil-bench-workers-");
  const postgres = await startThrowawayPostgres(binDir);
  const target = await startTarget();
  // Split roles share a telemetry store: the test ClickHouse endpoint (chDB behind HTTP).
  const shim = await startShimProcess(`${dir.path}/clickhouse`);
  const meta = createMetaStore(openMetaDatabase({ url: postgres.url, dataDir: dir.path }));
  const sql = new pg.Client({ connectionString: postgres.url });
  try {
    await meta.migrate();
    await sql.connect();
    const domain: DomainDeps = {
      meta,
      clock: systemClock,
      newId,
      sessionTtlHours: 1,
      ...defaultAuthDeps(),
      statusPages: createStatusPageEngine({ clock: systemClock }),
    };
    const setup = await initialize({
      ctx: systemCtx(domain),
      input: {
        email: "bench@example.com",
        password: "bench password 1",
        withApiKey: false,
      },
    });
    // The verb needs an engine only for `run now`; nothing runs here.
    const engine = createMonitorEngine({
      meta,
      clock: systemClock,
      newId,
      logger: createLogger("silent"),
      run: () => Promise.reject(new Error("not in the bench process")),
    });
    await createBenchMonitors(domain, engine, setup.projectId, `${target.origin}/`, MONITORS);

    const secretKey = randomBytes(32).toString("base64");
    const phase = async (workers: number): Promise<PhaseResult> => {
      log(`\n${workers} worker process(es): ${WARMUP_SECONDS} s warm-up, ${SECONDS} s measured`);
      const nodes: ServeProcess[] = [];
      for (let w = 0; w < workers; w++)
        nodes.push(
          await startServeProcess(
            ["--role", "worker"],
            {
              VIGIL_DATA_DIR: `${dir.path}/w${workers}-${w}`,
              VIGIL_META_URL: postgres.url,
              VIGIL_TELEMETRY_URL: shim.url,
              VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
              VIGIL_SECRET_KEY: secretKey,
              VIGIL_LOG_LEVEL: "warn",
            },
            { built: true },
          ),
        );
      // Warm-up: at least --warmup-seconds, then until no backlog is left (never-checked monitors
      // all run at once on first start; slots missed while no worker ran are caught up).
      const started = Date.now();
      await sleep(WARMUP_SECONDS * 1000);
      const recent = async () =>
        Number(
          (
            await sql.query<{ n: string }>(
              "select count(*) as n from monitor_results where started_at >= $1",
              [new Date(Date.now() - 20_000).toISOString()],
            )
          ).rows[0]?.n,
        );
      while ((await recent()) > 1.1 * (MONITORS / 3) && Date.now() - started < 15 * 60_000) {
        log(`  still catching up (${await recent()} checks in the last 20 s)`);
        await sleep(10_000);
      }
      const warmupSeconds = round((Date.now() - started) / 1000, 0);
      const from = Date.now();
      const cpuBefore = nodes.map((n) => procStats(n.pid).cpuSeconds);
      const postgresBefore = postgresCpuSeconds();
      const targetBefore = await target.stats();
      await sleep(SECONDS * 1000);
      const to = Date.now();
      const after = nodes.map((n) => procStats(n.pid));
      const postgresSeconds = postgresCpuSeconds() - postgresBefore;
      const targetSeconds = ((await target.stats()).cpuMicros - targetBefore.cpuMicros) / 1e6;
      for (const node of nodes) await node.stop();
      // Slots whose checks may start up to half a period late or early are fully inside.
      const windowFrom = from + PERIOD_MS / 2;
      const windowTo = to - PERIOD_MS / 2;
      const { rows } = await sql.query<{ monitor_id: string; started_at: string; passed: number }>(
        "select monitor_id, started_at, passed from monitor_results where trigger = 'scheduled' and started_at >= $1",
        // The measured window only: the warm-up's first runs (at once, for never-checked monitors)
        // stand for the nearest slot, which their start time need not be.
        [new Date(from).toISOString()],
      );
      const lags: number[] = [];
      const seen = new Map<string, number>();
      let failed = 0;
      let inWindow = 0;
      for (const row of rows) {
        const at = Date.parse(row.started_at);
        const slot = nearestSlot(row.monitor_id, PERIOD_MS, at);
        const key = `${row.monitor_id}@${slot}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        if (at >= from && at < to) {
          inWindow++;
          lags.push(Math.max(0, at - slot));
          if (!row.passed) failed++;
        }
      }
      const duplicateSlots = [...seen.values()].filter((n) => n > 1).length;
      // Two checks standing for one slot would be a fencing bug: show a few, with their times.
      for (const [key] of [...seen].filter(([, n]) => n > 1).slice(0, 3)) {
        const id = key.split("@")[0];
        const times = rows.filter((r) => r.monitor_id === id).map((r) => r.started_at);
        log(`  ${key}: ${times.join(", ")}`);
      }
      // Coverage per whole minute of the window: every monitor has exactly one slot in it.
      const ids = (await sql.query<{ id: string }>("select id from monitors")).rows.map(
        (r) => r.id,
      );
      const coverage: number[] = [];
      let missedSlots = 0;
      for (let minute = windowFrom; minute + PERIOD_MS <= windowTo; minute += PERIOD_MS) {
        let covered = 0;
        for (const id of ids) {
          // Its one slot in [minute, minute + period).
          const slot = slotAtOrBefore(id, PERIOD_MS, minute + PERIOD_MS - 1);
          if (seen.has(`${id}@${slot}`)) covered++;
          else missedSlots++;
        }
        coverage.push((100 * covered) / ids.length);
      }
      const sorted = Float64Array.from(lags).sort();
      const result: PhaseResult = {
        workers,
        warmupSeconds,
        checksPerSecond: round(inWindow / ((to - from) / 1000), 1),
        lagMs: {
          p50: round(percentile(sorted, 50), 0),
          p99: round(percentile(sorted, 99), 0),
          max: round(sorted.at(-1) ?? Number.NaN, 0),
        },
        coverageMinPercent: round(Math.min(...coverage), 3),
        coverageMeanPercent: round(coverage.reduce((a, b) => a + b, 0) / coverage.length, 3),
        missedSlots,
        duplicateSlots,
        failedChecks: failed,
        cpuSecondsPerWorker: after.map((a, i) => round(a.cpuSeconds - (cpuBefore[i] ?? 0), 1)),
        rssMiBPerWorker: after.map((a) => a.rssMiB),
        postgresCpuSeconds: round(postgresSeconds, 1),
        targetCpuSeconds: round(targetSeconds, 1),
      };
      log(JSON.stringify(result));
      return result;
    };

    const one = await phase(1);
    const shared = await phase(WORKERS);
    printTable(
      ["", "1 worker (baseline)", `${WORKERS} workers`],
      (
        [
          ["warm-up s (until caught up)", one.warmupSeconds, shared.warmupSeconds],
          ["checks/s", one.checksPerSecond, shared.checksPerSecond],
          ["lag p50 ms", one.lagMs.p50, shared.lagMs.p50],
          ["lag p99 ms", one.lagMs.p99, shared.lagMs.p99],
          ["lag max ms", one.lagMs.max, shared.lagMs.max],
          ["coverage min %", one.coverageMinPercent, shared.coverageMinPercent],
          ["coverage mean %", one.coverageMeanPercent, shared.coverageMeanPercent],
          ["missed slots", one.missedSlots, shared.missedSlots],
          ["duplicate slots", one.duplicateSlots, shared.duplicateSlots],
          ["failed checks", one.failedChecks, shared.failedChecks],
          [
            "CPU s per worker",
            one.cpuSecondsPerWorker.join(" / "),
            shared.cpuSecondsPerWorker.join(" / "),
          ],
          ["PostgreSQL CPU s", one.postgresCpuSeconds, shared.postgresCpuSeconds],
          ["target CPU s", one.targetCpuSeconds, shared.targetCpuSeconds],
          [
            "RSS MiB per worker",
            one.rssMiBPerWorker.join(" / "),
            shared.rssMiBPerWorker.join(" / "),
          ],
        ] as (string | number)[][]
      ).map((row) => row.map(String)),
    );
    console.log(
      JSON.stringify({
        bench: "monitors-workers",
        monitors: MONITORS,
        cores: cpus().length,
        loadavg: loadavg().map((l) => round(l)),
        baseline: one,
        shared,
      }),
    );
  } finally {
    await sql.end().catch(() => undefined);
    await meta.close();
    target.stop();
    await shim.stop();
    await postgres.stop();
    dir.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
