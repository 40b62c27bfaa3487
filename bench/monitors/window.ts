import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import SQLite from "better-sqlite3";
import { nextSlot } from "../../src/monitors/scheduler.js";
import { startCpuSplit } from "../harness/cpu-split.js";
import { cpuMicros } from "../harness/process-figures.js";
import { log, sleep } from "../harness/run.js";
import { fmt, spread } from "../harness/stats.js";
import type { startTarget } from "../monitor-target.js";
import { startWindowProfile } from "./profile.js";
import {
  args,
  DELAY_RESOLUTION_MS,
  GRACE_MS,
  PERIOD_MS,
  SECONDS,
  WARMUP_SECONDS,
} from "./settings.js";
import type { Started } from "./tracked-engine.js";
import type { Vigil } from "./vigil.js";

type Target = Awaited<ReturnType<typeof startTarget>>;

/**
 * The scheduler started, a warm-up, then the measured window: CPU, event loop, RSS, and every
 * slot of the window checked (with a grace for the last slots' checks to start).
 */
export async function measureWindow(v: Vigil, target: Target) {
  const { config, scheduler, checks, skipped, wait, meta } = v;
  await scheduler.start();
  log(
    `Scheduler started: ${fmt(scheduler.stats().scheduled)} monitors, concurrency ${config.monitors.concurrency}; ` +
      `warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s measured`,
  );
  await wait("warm-up", WARMUP_SECONDS * 1000);

  // The measured window.
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  const rssSamples: number[] = [];
  const sampleRss = () => rssSamples.push(process.memoryUsage().rss);
  sampleRss();
  const rssTimer = setInterval(sampleRss, 500);
  const skippedBefore = await skipped();
  const targetBefore = await target.stats();
  const firstIndex = checks.length;
  const stopProfile = await startWindowProfile(args.profile);
  const t0 = Date.now();
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const stopSplit = startCpuSplit();
  delay.enable();
  await wait("measured", SECONDS * 1000);
  delay.disable();
  const cpuUsed = cpuMicros(cpu);
  const splitPer = stopSplit();
  const utilization = performance.eventLoopUtilization(elu).utilization;
  const t1 = Date.now();
  await stopProfile?.();
  clearInterval(rssTimer);
  sampleRss();
  const startedInWindow = checks.slice(firstIndex).filter((c) => c.startedAt < t1).length;
  const cpuSplit = splitPer(startedInWindow);

  // Every slot of the window, per monitor: each monitor has one slot per period.
  const monitorIds = (await meta.repos.monitors.listActive()).map((m) => m.id);
  let expected = 0;
  for (const id of monitorIds)
    for (let s = nextSlot(id, PERIOD_MS, t0 - 1); s < t1; s += PERIOD_MS) expected++;
  const inWindow = () => checks.filter((c) => c.slot >= t0 && c.slot < t1);
  const recorded = (c: Started) => c.outcome === "passed" || c.outcome === "failed";
  const graceStarted = Date.now();
  while (inWindow().length < expected && Date.now() - graceStarted < GRACE_MS) await sleep(100);
  const graceMs = Date.now() - graceStarted;
  await scheduler.stop();
  const targetAfter = await target.stats();
  const skippedInWindow = (await skipped()) - skippedBefore;

  const window = inWindow();
  const fullMinutes = Math.floor(SECONDS / 60);
  const coverage = Array.from({ length: fullMinutes }, (_, k) => {
    const from = t0 + k * PERIOD_MS;
    const checked = window.filter(
      (c) => recorded(c) && c.slot >= from && c.slot < from + PERIOD_MS,
    );
    return new Set(checked.map((c) => c.id)).size;
  });
  const lag = spread(window.map((c) => c.startedAt - c.slot));
  const checkMs = spread(
    window.filter((c) => c.endedAt).map((c) => (c.endedAt ?? 0) - c.startedAt),
  );
  const requestMs = spread(
    window.filter((c) => c.requestMs !== undefined).map((c) => c.requestMs ?? 0),
  );
  const outcomes: Record<string, number> = {};
  const reasons: Record<string, number> = {};
  for (const c of window) {
    const outcome = c.outcome ?? "unfinished";
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    if (c.reason) reasons[c.reason] = (reasons[c.reason] ?? 0) + 1;
  }
  const failed = window.length - (outcomes.passed ?? 0);

  return {
    delay,
    rssSamples,
    skippedInWindow,
    targetBefore,
    targetAfter,
    t0,
    t1,
    cpuUsed,
    cpuSplit,
    utilization,
    startedInWindow,
    expected,
    window,
    coverage,
    lag,
    checkMs,
    requestMs,
    outcomes,
    reasons,
    failed,
    graceMs,
    recorded,
  };
}
export type WindowFigures = Awaited<ReturnType<typeof measureWindow>>;

/** What the store holds after the window: result rows and the database files' size. */
export function readStore(dataDir: string, t0: number, t1: number) {
  const metaPath = join(dataDir, "meta.sqlite");
  const reader = new SQLite(metaPath, { readonly: true });
  const stored = reader
    .prepare(
      `SELECT count(*) AS rows, coalesce(avg(length(detail)), 0) AS detailBytes,
         sum(passed) AS passed FROM monitor_results`,
    )
    .get() as { rows: number; detailBytes: number; passed: number };
  const storedInWindow = (
    reader
      .prepare(`SELECT count(*) AS n FROM monitor_results WHERE started_at >= ? AND started_at < ?`)
      .get(new Date(t0).toISOString(), new Date(t1).toISOString()) as { n: number }
  ).n;
  reader.close();
  const fileBytes = ["", "-wal", "-shm"]
    .map((suffix) => `${metaPath}${suffix}`)
    .filter((path) => existsSync(path))
    .reduce((sum, path) => sum + statSync(path).size, 0);

  return { stored, storedInWindow, fileBytes };
}
