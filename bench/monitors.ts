import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import SQLite from "better-sqlite3";
import { Agent, request } from "undici";
import { loadConfig } from "../src/config/load-config.js";
import type { DomainDeps } from "../src/context.js";
import { systemClock } from "../src/lib/clock.js";
import { createOutboundAgent } from "../src/lib/http/outbound-agent.js";
import { newId } from "../src/lib/ids.js";
import { createLogger } from "../src/lib/logger.js";
import { createMetrics } from "../src/lib/metrics.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore } from "../src/meta/meta-store.js";
import { createMonitorEngine, type MonitorEngine } from "../src/monitors/engine.js";
import { listScheduleEntries } from "../src/monitors/monitors.js";
import { createCheckRunner } from "../src/monitors/runner.js";
import { createMonitorScheduler, nextSlot } from "../src/monitors/scheduler.js";
import { initialize } from "../src/setup/initialize.js";
import { createStatusPageEngine } from "../src/status-pages/engine.js";
import { defaultAuthDeps } from "../test/helpers/auth-deps.js";
import { createBenchMonitors, startTarget } from "./monitor-target.js";
import { printTable } from "./harness/table.js";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "10000" },
    "warmup-seconds": { type: "string", default: "60" },
    seconds: { type: "string", default: "180" },
    "baseline-seconds": { type: "string", default: "60" },
    concurrency: { type: "string" },
  },
});
const MONITORS = Number(args.monitors);
const WARMUP_SECONDS = Number(args["warmup-seconds"]);
const SECONDS = Number(args.seconds);
const BASELINE_SECONDS = Number(args["baseline-seconds"]);
const PERIOD_MS = 60_000;
const TARGET_LAG_P99_MS = 2000;
/** Reference figure, not measured: Uptime Kuma's maintainers' practical limit. */
const UPTIME_KUMA_PRACTICAL_LIMIT = 500;
/** How long after the window checks of its last slots may still start before they count as missed. */
const GRACE_MS = 30_000;
/** Sampling interval of the event-loop delay histograms. */
const DELAY_RESOLUTION_MS = 10;

const log = (text: string) => process.stderr.write(`${text}\n`);
const fmt = (n: number) => n.toLocaleString("en");
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

function spread(values: readonly number[]) {
  const sorted = Float64Array.from(values).sort();
  return {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

const cpuMicros = (since?: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

// ---------------------------------------------------------------------------------------------
// The baseline: the same request rate from a bare undici loop.

interface BaselineResult {
  rate: number;
  seconds: number;
  requests: number;
  errors: number;
  achievedRate: number;
  cpuMicrosPerRequest: number;
  latencyMs: { p50: number; p99: number; max: number };
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  eventLoopUtilization: number;
}

/** Sends `rate` requests per second for `seconds`, each at its scheduled time (open loop). */
function openLoop(rate: number, seconds: number, send: () => Promise<boolean>) {
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const taken: number[] = [];
  let errors = 0;
  let done = 0;
  let next = 0;
  const start = performance.now() + 5;
  return new Promise<{ requests: number; errors: number; taken: number[]; elapsedMs: number }>(
    (resolve) => {
      const fire = () => {
        const sent = performance.now();
        send().then(
          (ok) => finish(sent, ok),
          () => finish(sent, false),
        );
      };
      const finish = (sent: number, ok: boolean) => {
        const now = performance.now();
        taken.push(now - sent);
        if (!ok) errors++;
        if (++done === total) resolve({ requests: total, errors, taken, elapsedMs: now - start });
      };
      const tick = () => {
        const now = performance.now();
        while (next < total && start + next * interval <= now) {
          next++;
          fire();
        }
        if (next < total)
          setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
      };
      setTimeout(tick, 5);
    },
  );
}

async function baseline(url: string, rate: number, seconds: number): Promise<BaselineResult> {
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const send = async () => {
    const res = await request(url, { dispatcher: agent });
    const body = (await res.body.json()) as { ok?: unknown };
    return res.statusCode === 200 && body.ok === true;
  };
  try {
    await openLoop(rate, Math.min(5, seconds), send);
    const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
    const elu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    delay.enable();
    const run = await openLoop(rate, seconds, send);
    delay.disable();
    const cpuUsed = cpuMicros(cpu);
    return {
      rate: round(rate, 1),
      seconds,
      requests: run.requests,
      errors: run.errors,
      achievedRate: round(run.requests / (run.elapsedMs / 1000), 1),
      cpuMicrosPerRequest: round(cpuUsed / run.requests, 1),
      latencyMs: spread(run.taken),
      eventLoopDelayMs: delayFigures(delay),
      eventLoopUtilization: round(performance.eventLoopUtilization(elu).utilization, 3),
    };
  } finally {
    await agent.close();
  }
}

/** The histogram holds whole timer intervals: the delay is what exceeds the sampling interval. */
function delayFigures(delay: ReturnType<typeof monitorEventLoopDelay>) {
  const ms = (ns: number) => round(Math.max(0, ns / 1e6 - DELAY_RESOLUTION_MS));
  return { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) };
}

// ---------------------------------------------------------------------------------------------
// The benchmark proper.

/** One scheduled check as the scheduler started it. */
interface Started {
  id: string;
  slot: number;
  startedAt: number;
  endedAt?: number;
  outcome?: "passed" | "failed" | "gone" | "error";
  requestMs?: number;
  reason?: string;
}

async function main() {
  if (!(MONITORS > 0 && SECONDS > 0 && WARMUP_SECONDS >= 0 && BASELINE_SECONDS > 0))
    throw new Error("--monitors, --seconds and --baseline-seconds must be positive");
  const dataDir = mkdtempSync(join(tmpdir(), "vigil-bench-monitors-"));
  const cleanups: (() => Promise<void> | void)[] = [
    () => rmSync(dataDir, { recursive: true, force: true }),
  ];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        log(`cleanup: ${(error as Error).message}`);
      }
    }
  };
  try {
    return await run(dataDir, cleanups);
  } finally {
    await cleanup();
  }
}

async function run(dataDir: string, cleanups: (() => Promise<void> | void)[]) {
  const target = await startTarget();
  cleanups.push(() => target.stop());
  const url = `${target.origin}/api/health`;
  log(`Target: ${url} (child process)`);

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

  // As openMetaStore and createDeps do (src/deps.ts).
  const database = openMetaDatabase({
    url: config.meta.url,
    dataDir: config.dataDir,
    onQuery: (seconds, failed) =>
      metrics.observeStore({ store: "meta", operation: "query", failed }, seconds),
  });
  const meta = createMetaStore(database);
  cleanups.push(() => meta.close());
  await meta.migrate();
  const domain: DomainDeps = {
    meta,
    clock: systemClock,
    newId,
    sessionTtlHours: config.auth.sessionTtlHours,
    ...defaultAuthDeps(),
    statusPages: createStatusPageEngine({ clock: systemClock }),
  };
  const outbound = createOutboundAgent({
    allowPrivateNetworks: config.monitors.allowPrivateTargets,
  });
  cleanups.push(() => outbound.close());
  const engine = createMonitorEngine({
    meta,
    clock: domain.clock,
    newId: domain.newId,
    logger,
    metrics,
    onNotificationsQueued: () => undefined,
    run: createCheckRunner({ dispatcher: outbound, clock: domain.clock, ...config.monitors }),
  });

  // One org and project, then the monitors through the domain verb, 500 per transaction.
  const setup = await initialize(domain, {
    email: "bench@example.com",
    password: "bench password 1",
    withApiKey: false,
  });
  const createStarted = performance.now();
  await createBenchMonitors(domain, engine, setup.projectId, url, MONITORS);
  const createSeconds = (performance.now() - createStarted) / 1000;
  log(`Created ${fmt(MONITORS)} monitors in ${createSeconds.toFixed(1)} s`);

  // Baseline: the same request rate, bare.
  const rate = MONITORS / (PERIOD_MS / 1000);
  log(`Baseline: bare undici loop, ${rate.toFixed(1)} requests/s for ${BASELINE_SECONDS} s`);
  const targetBeforeBaseline = await target.stats();
  const bare = await baseline(url, rate, BASELINE_SECONDS);
  const targetAfterBaseline = await target.stats();
  log(`  ${JSON.stringify(bare)}`);

  // The scheduler, as createDeps builds it, with the engine's check wrapped to note start times.
  const checks: Started[] = [];
  const tracked: MonitorEngine = {
    check(monitorId, trigger, fence) {
      const startedAt = Date.now();
      const entry: Started = {
        id: monitorId,
        slot: fence?.slot ?? nextSlot(monitorId, PERIOD_MS, startedAt - PERIOD_MS),
        startedAt,
      };
      checks.push(entry);
      const running = engine.check(monitorId, trigger, fence);
      running.then(
        (recorded) => {
          entry.endedAt = Date.now();
          if (!recorded) {
            entry.outcome = "gone";
            return;
          }
          entry.outcome = recorded.result.passed ? "passed" : "failed";
          entry.requestMs = recorded.result.durationMs;
          if (!recorded.result.passed) {
            const step = recorded.result.steps.find((s) => s.status === "failed");
            entry.reason =
              step?.transportError?.code ??
              step?.assertions.find((a) => !a.passed)?.message ??
              "failed";
          }
        },
        (error: unknown) => {
          entry.endedAt = Date.now();
          entry.outcome = "error";
          entry.reason = (error as Error).message;
        },
      );
      return running;
    },
    isRunning: (monitorId) => engine.isRunning(monitorId),
    idle: () => engine.idle(),
    abort: () => engine.abort(),
  };
  const scheduler = createMonitorScheduler({
    engine: tracked,
    clock: domain.clock,
    concurrency: config.monitors.concurrency,
    logger,
    metrics,
    listActive: () => listScheduleEntries(meta),
    // Leased, as every worker runs (one worker holds every lease).
    lease: {
      workerId: "bench",
      leases: meta.repos.workLeases,
      leaseMs: config.leaseSeconds * 1000,
    },
  });
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
  const t0 = Date.now();
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  delay.enable();
  await wait("measured", SECONDS * 1000);
  delay.disable();
  const cpuUsed = cpuMicros(cpu);
  const utilization = performance.eventLoopUtilization(elu).utilization;
  const t1 = Date.now();
  clearInterval(rssTimer);
  sampleRss();
  const startedInWindow = checks.slice(firstIndex).filter((c) => c.startedAt < t1).length;

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

  // What the store holds.
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

  const checksPerSecond = startedInWindow / SECONDS;
  const cpuPerCheck = cpuUsed / Math.max(1, startedInWindow);
  // Checked = started and recorded (passed or failed); failures are reported on their own.
  const coverageComplete =
    window.filter(recorded).length === expected && coverage.every((n) => n === MONITORS);
  const targetMet = coverageComplete && lag.p99 < TARGET_LAG_P99_MS;
  const delayMs = delayFigures(delay);
  const rssMax = Math.max(...rssSamples);
  const mib = (bytes: number) => round(bytes / 2 ** 20, 1);
  const targetCpuPerRequest = {
    vigil: round(
      (targetAfter.cpuMicros - targetBefore.cpuMicros) /
        Math.max(1, targetAfter.requests - targetBefore.requests),
      1,
    ),
    baseline: round(
      (targetAfterBaseline.cpuMicros - targetBeforeBaseline.cpuMicros) /
        Math.max(1, targetAfterBaseline.requests - targetBeforeBaseline.requests),
      1,
    ),
  };

  return {
    bench: "monitors",
    monitors: MONITORS,
    frequency: "1m",
    concurrency: config.monitors.concurrency,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    machine: { cpus: cpus().length, loadAverage1m: round(loadavg()[0] ?? 0) },
    createSeconds: round(createSeconds, 1),
    vigil: {
      checksStarted: startedInWindow,
      checksPerSecond: round(checksPerSecond, 1),
      expectedChecksPerSecond: round(rate, 1),
      slotsInWindow: expected,
      slotsChecked: window.length,
      coveragePerMinute: coverage,
      graceMs,
      scheduleLagMs: lag,
      skippedSlots: skippedInWindow,
      failedChecks: failed,
      outcomes,
      failureReasons: reasons,
      checkMs,
      requestMs,
      eventLoopDelayMs: delayMs,
      eventLoopUtilization: round(utilization, 3),
      rssMiB: {
        start: mib(rssSamples[0] ?? 0),
        end: mib(rssSamples.at(-1) ?? 0),
        max: mib(rssMax),
      },
      cpuMicrosPerCheck: round(cpuPerCheck, 1),
      cpuShareOfOneCore: round(cpuUsed / (SECONDS * 1e6), 3),
      targetRequests: targetAfter.requests - targetBefore.requests,
    },
    store: {
      monitorResults: stored.rows,
      monitorResultsInWindow: storedInWindow,
      avgDetailBytes: Math.round(stored.detailBytes),
      metaFileMiB: mib(fileBytes),
      projectedRowsPerDay: Math.round(MONITORS * 1440),
    },
    baseline: bare,
    targetCpuMicrosPerRequest: targetCpuPerRequest,
    ratios: {
      cpuPerCheckToBareRequest: round(cpuPerCheck / bare.cpuMicrosPerRequest, 2),
      requestP50ToBare: round(requestMs.p50 / bare.latencyMs.p50, 2),
      requestP99ToBare: round(requestMs.p99 / bare.latencyMs.p99, 2),
    },
    reference: {
      uptimeKumaPracticalMonitors: UPTIME_KUMA_PRACTICAL_LIMIT,
      measured: false,
      monitorsToReference: round(MONITORS / UPTIME_KUMA_PRACTICAL_LIMIT, 1),
    },
    target: { everyMonitorEveryMinute: true, lagP99Ms: TARGET_LAG_P99_MS },
    coverage_complete: coverageComplete,
    target_met: targetMet,
  };
}

function report(r: Awaited<ReturnType<typeof run>>) {
  const v = r.vigil;
  const b = r.baseline;
  const trio = (x: { p50: number; p99: number; max: number }) => `${x.p50} / ${x.p99} / ${x.max}`;
  console.log(
    `\nMonitors: ${fmt(r.monitors)} api monitors every ${r.frequency}, concurrency ${r.concurrency}, ` +
      `${r.machine.cpus} CPUs; warm-up ${r.warmupSeconds} s, measured ${r.seconds} s ` +
      `(created in ${r.createSeconds} s)\n`,
  );
  printTable(
    ["figure", "Vigil (scheduler + runner + recording)", "bare undici loop (baseline)", "ratio"],
    [
      [
        "requests or checks /s",
        `${v.checksPerSecond} (needed ${v.expectedChecksPerSecond})`,
        `${b.achievedRate} (asked ${b.rate})`,
        "",
      ],
      [
        "CPU per check / request (µs)",
        `${v.cpuMicrosPerCheck}`,
        `${b.cpuMicrosPerRequest}`,
        `x${r.ratios.cpuPerCheckToBareRequest}`,
      ],
      [
        "request time p50 / p99 / max (ms)",
        trio(v.requestMs),
        trio(b.latencyMs),
        `p50 x${r.ratios.requestP50ToBare}, p99 x${r.ratios.requestP99ToBare}`,
      ],
      [
        `event-loop delay beyond ${DELAY_RESOLUTION_MS} ms, p50 / p99 / max (ms)`,
        trio(v.eventLoopDelayMs),
        trio(b.eventLoopDelayMs),
        "",
      ],
      ["event-loop utilization", `${v.eventLoopUtilization}`, `${b.eventLoopUtilization}`, ""],
      ["errors / failed checks", `${v.failedChecks}`, `${b.errors}`, ""],
    ],
  );
  printTable(
    ["Vigil figure", "value"],
    [
      ["schedule lag p50 / p99 / max (ms)", trio(v.scheduleLagMs)],
      ["check time, start to recorded, p50 / p99 / max (ms)", trio(v.checkMs)],
      [
        "coverage per full minute (distinct monitors)",
        `${v.coveragePerMinute.map(fmt).join(", ") || "n/a"} of ${fmt(r.monitors)}`,
      ],
      ["slots in window checked", `${fmt(v.slotsChecked)} of ${fmt(v.slotsInWindow)}`],
      ["skipped slots", `${v.skippedSlots}`],
      ["outcomes", JSON.stringify(v.outcomes)],
      ["RSS start / end / max (MiB)", `${v.rssMiB.start} / ${v.rssMiB.end} / ${v.rssMiB.max}`],
      ["CPU, share of one core", `${v.cpuShareOfOneCore}`],
      [
        "monitor_results rows (in window)",
        `${fmt(r.store.monitorResults)} (${fmt(r.store.monitorResultsInWindow)})`,
      ],
      ["result detail bytes (avg)", `${r.store.avgDetailBytes}`],
      ["meta.sqlite + WAL (MiB)", `${r.store.metaFileMiB}`],
      [
        "target CPU per request, Vigil / bare (µs)",
        `${r.targetCpuMicrosPerRequest.vigil} / ${r.targetCpuMicrosPerRequest.baseline}`,
      ],
      [
        "reference, not measured: Uptime Kuma practical limit",
        `≈${r.reference.uptimeKumaPracticalMonitors} monitors; ${fmt(r.monitors)} is x${r.reference.monitorsToReference}`,
      ],
    ],
  );
  console.log(
    `Target: all ${fmt(r.monitors)} checked every minute and schedule lag p99 < ${TARGET_LAG_P99_MS} ms: ` +
      `${r.target_met ? "met" : "NOT met"} (coverage ${r.coverage_complete ? "complete" : "incomplete"}, lag p99 ${v.scheduleLagMs.p99} ms)`,
  );
  console.log(JSON.stringify(r));
}

report(await main());
