/**
 * npm run bench:monitor-history — does recording a check cost more as its monitor's results
 * pile up? BENCH_MONITORS (20) api monitors; their history grows step by step to 30 days of
 * one-minute results each (BENCH_HISTORY_STEPS, results per monitor), and at each step every
 * monitor records BENCH_RECORDS (100) more checks through the engine, one round of group commit
 * at a time (the record path of a check: the monitor's lock-and-read, the result, the state
 * machine). Prints the CPU per record at each history size; the last line is one JSON object.
 *
 * The tenant next door: another project reads its own monitor (the verb behind GET
 * /v1/monitors/:id) every 10 ms, alone for a second (its control), then beside a second pass of
 * the same rounds; its latency p50/p99 at each size. (Its reads are kept out of the CPU pass.)
 *
 * Before the fix, a SQLite row lock was a no-op update of the monitor's primary key, which
 * looked up every row referencing the monitor (its results among them) on every check.
 */

import { join } from "node:path";
import SQLite from "better-sqlite3";
import { createOutbound, monitorEngineFor } from "../src/composition/monitors.js";
import { loadConfig } from "../src/config/load-config.js";
import { createLogger } from "../src/lib/logger.js";
import { createMetrics } from "../src/lib/metrics.js";
import type { CheckResult } from "../src/monitors/check-result.js";
import { getMonitor } from "../src/monitors/monitors.js";
import { createProject } from "../src/projects/projects.js";
import { openBenchMeta } from "./harness/bench-meta.js";
import { cpuMicros } from "./harness/process-figures.js";
import { envNumber, log, printResult, sleep, withTempDir } from "./harness/run.js";
import { round, spread } from "./harness/stats.js";
import { printTable } from "./harness/table.js";
import { createBenchMonitors } from "./monitor-target.js";

const MONITORS = envNumber("BENCH_MONITORS", 20);
const RECORDS = envNumber("BENCH_RECORDS", 100);
const STEPS = (process.env.BENCH_HISTORY_STEPS ?? "0,1440,10080,43200").split(",").map(Number);
/** Results inserted per transaction while the history grows. */
const FILL_BATCH = 5000;
/** The neighbour reads this often, and alone for this long before each pass beside the rounds. */
const NEIGHBOUR_EVERY_MS = 10;
const NEIGHBOUR_CONTROL_MS = 1000;

/**
 * Calls `read` every NEIGHBOUR_EVERY_MS until `until` settles. Each latency counts from when the
 * read was due, not from when the event loop got to it: a loop held by someone else's work is
 * what the neighbour waits for.
 */
async function sampleLatency(read: () => Promise<unknown>, until: Promise<unknown>) {
  const taken: number[] = [];
  const pending: Promise<unknown>[] = [];
  let done = false;
  void until.then(() => {
    done = true;
  });
  let next = performance.now() + NEIGHBOUR_EVERY_MS;
  while (!done) {
    await sleep(Math.max(0, next - performance.now()));
    // Every read due by now goes out, each timed from its own slot.
    for (; next <= performance.now(); next += NEIGHBOUR_EVERY_MS) {
      const slot = next;
      pending.push(read().then(() => taken.push(performance.now() - slot)));
    }
  }
  await Promise.all(pending);
  return spread(taken);
}

/** A passed api check as the runner reports one: a step, its three assertions. */
function passedCheck(at: Date, url: string): CheckResult {
  const assertion = (type: string, operator: string, expected: string, actual: string) => ({
    type,
    operator,
    expected,
    actual,
    passed: true,
    message: `${actual} ${operator} ${expected}`,
  });
  return {
    passed: true,
    startedAt: at.toISOString(),
    durationMs: 11,
    traceId: "0af7651916cd43dd8448eb211c80319c",
    steps: [
      {
        name: "GET /api/health",
        status: "passed",
        method: "GET",
        url,
        statusCode: 200,
        durationMs: 11,
        transportError: null,
        assertions: [
          assertion("status_code", "equals", "200", "200"),
          assertion("response_time", "less_than", "3000", "11"),
          { ...assertion("json_path", "equals", "true", "true"), target: "$.ok" },
        ],
        extracted: {},
        responseBody: null,
        responseBodyTruncated: false,
      },
    ],
  } as CheckResult;
}

async function main() {
  return withTempDir("monitor-history", async (dataDir, cleanups) => {
    const config = loadConfig({
      env: { VIGIL_DATA_DIR: dataDir, VIGIL_LOG_LEVEL: "warn", VIGIL_MONITORS_ENABLED: "false" },
    });
    const metrics = createMetrics();
    const { meta, domain, projectId } = await openBenchMeta(config, cleanups, { metrics });
    const outbound = createOutbound(config);
    cleanups.push(() => outbound.close());
    const logger = createLogger("warn", process.stderr);
    const engine = monitorEngineFor(config, { ...domain, meta, logger, metrics, outbound });
    // Never run (the engine only records here): the URL is a placeholder.
    const url = "http://127.0.0.1:9/api/health";
    await createBenchMonitors(domain, engine, projectId, url, MONITORS);
    // The tenant next door: a project of its own with one monitor, in the same org.
    const system = { deps: domain, actor: { kind: "system" as const } };
    const orgId = (await meta.repos.projects.findById(projectId))?.orgId ?? "";
    const neighbour = await createProject({ ctx: system, input: { name: "next door", orgId } });
    await createBenchMonitors(domain, engine, neighbour.id, url, 1);
    const [neighbourMonitor] = await meta.repos.monitors.listByProject(neighbour.id);
    const readNeighbour = () =>
      getMonitor({ ctx: system, projectId: neighbour.id, monitorId: neighbourMonitor?.id ?? "" });
    const ids = (await meta.repos.monitors.listByProject(projectId)).map((m) => m.id);

    // History runs back from a day before now, one result a minute per monitor.
    const start = Date.now() - 86_400_000;
    let held = 0;
    const grow = async (to: number) => {
      for (let from = held; from < to; from += FILL_BATCH)
        await meta.transaction(async (tx) => {
          for (let k = from; k < Math.min(to, from + FILL_BATCH); k++) {
            const at = new Date(start - (k + 1) * 60_000);
            for (const monitorId of ids)
              await tx.repos.monitorResults.insert({
                id: domain.newId("run"),
                monitorId,
                startedAt: at.toISOString(),
                durationMs: 11,
                passed: true,
                trigger: "scheduled",
                detail: { traceId: null, steps: passedCheck(at, url).steps },
              });
          }
        });
      held = Math.max(held, to);
      // The added rows folded into the database now, so that no checkpoint of them (on the
      // checkpointer's thread, counted in this process's CPU) lands in the measured records.
      const db = new SQLite(join(dataDir, "meta.sqlite"));
      db.pragma("wal_checkpoint(TRUNCATE)");
      db.close();
    };

    const points = [];
    for (const results of STEPS) {
      const filled = performance.now();
      await grow(results);
      log(
        `History: ${results} results per monitor (${((performance.now() - filled) / 1000).toFixed(1)} s to add)`,
      );
      const recordRound = async () =>
        Promise.all(
          ids.map((monitorId) =>
            engine.record({
              monitorId,
              result: passedCheck(new Date(), url),
              trigger: "scheduled",
            }),
          ),
        );
      await recordRound(); // warm
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const rounds = async () => {
        for (let r = 0; r < RECORDS; r++) await recordRound();
      };
      await rounds();
      const used = cpuMicros(cpu);
      const wallMs = round(performance.now() - t0, 0);
      const records = RECORDS * ids.length;
      const alone = await sampleLatency(readNeighbour, sleep(NEIGHBOUR_CONTROL_MS));
      const beside = await sampleLatency(readNeighbour, rounds());
      points.push({
        resultsPerMonitor: results,
        records,
        cpuMicrosPerRecord: round(used / records, 1),
        wallMs,
        neighbourReadMs: { alone, beside },
      });
    }
    const first = points[0]?.cpuMicrosPerRecord ?? 0;
    const last = points.at(-1)?.cpuMicrosPerRecord ?? 0;
    return {
      bench: "monitor-history",
      monitors: MONITORS,
      recordsPerStep: RECORDS * MONITORS,
      points,
      lastToFirst: round(last / Math.max(1, first), 2),
    };
  });
}

const result = await main();
printTable(
  [
    "results per monitor",
    "CPU per record (µs)",
    "records",
    "next door's read p50 / p99 (ms): alone",
    "beside the records",
  ],
  result.points.map((p) => [
    `${p.resultsPerMonitor}`,
    `${p.cpuMicrosPerRecord}`,
    `${p.records}`,
    `${p.neighbourReadMs.alone.p50} / ${p.neighbourReadMs.alone.p99}`,
    `${p.neighbourReadMs.beside.p50} / ${p.neighbourReadMs.beside.p99}`,
  ]),
);
printResult(result);
