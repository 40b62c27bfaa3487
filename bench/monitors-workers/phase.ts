import type pg from "pg";
import { type ServeProcess, startServeProcess } from "../../test/helpers/run-cli.js";
import { log, sleep } from "../harness/run.js";
import { round } from "../harness/stats.js";
import type { startTarget } from "../monitor-target.js";
import {
  MONITORS,
  type PhaseResult,
  postgresCpuSeconds,
  procStats,
  SECONDS,
  WARMUP_SECONDS,
} from "./settings.js";
import { slotFigures } from "./slots.js";

export interface PhaseSetup {
  dir: string;
  postgresUrl: string;
  telemetryUrl: string;
  secretKey: string;
  sql: pg.Client;
  target: Awaited<ReturnType<typeof startTarget>>;
}

/** `workers` worker processes sharing the monitors: a warm-up until caught up, then the window. */
export async function phase(s: PhaseSetup, workers: number): Promise<PhaseResult> {
  const { sql, target } = s;
  log(`\n${workers} worker process(es): ${WARMUP_SECONDS} s warm-up, ${SECONDS} s measured`);
  const nodes: ServeProcess[] = [];
  for (let w = 0; w < workers; w++)
    nodes.push(
      await startServeProcess(
        ["--role", "worker"],
        {
          VIGIL_DATA_DIR: `${s.dir}/w${workers}-${w}`,
          VIGIL_META_URL: s.postgresUrl,
          VIGIL_TELEMETRY_URL: s.telemetryUrl,
          VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
          VIGIL_SECRET_KEY: s.secretKey,
          VIGIL_LOG_LEVEL: "warn",
        },
        { built: true },
      ),
    );
  const warmupSeconds = await warmUp(sql);
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
  const result: PhaseResult = {
    workers,
    warmupSeconds,
    ...(await slotFigures(sql, from, to)),
    cpuSecondsPerWorker: after.map((a, i) => round(a.cpuSeconds - (cpuBefore[i] ?? 0), 1)),
    rssMiBPerWorker: after.map((a) => a.rssMiB),
    postgresCpuSeconds: round(postgresSeconds, 1),
    targetCpuSeconds: round(targetSeconds, 1),
  };
  log(JSON.stringify(result));
  return result;
}

/**
 * Warm-up: at least --warmup-seconds, then until no backlog is left (never-checked monitors all
 * run at once on first start; slots missed while no worker ran are caught up). Its seconds.
 */
async function warmUp(sql: pg.Client): Promise<number> {
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
  return warmupSeconds;
}
