/**
 * npm run bench:heartbeats — --monitors (10,000) heartbeat monitors (period --period 1m, grace
 * --grace 10s) pinged over keep-alive HTTP by this process, the service (`vigil serve` from the
 * sources, SQLite, the deadline watcher running) in another whose CPU is read from /proc:
 * 1. the monitors are created through the domain verb in the data dir, the server starts, and
 *    every heartbeat's wait starts then (as a resume sets it: a period and the grace from now);
 * 2. on schedule: heartbeat i pinged at i/N of the period, every period; after the first period
 *    --stop (100) of them stop, and the pings go on until every stopped one's deadline (last ping
 *    + period + grace) has passed, plus 10 s. The server's CPU per ping over that window;
 * 3. from the store: each stopped heartbeat's first missed ping against its deadline (lateness:
 *    recorded by the watcher, and as seen appearing in the store), its outage, and missed pings
 *    of heartbeats that kept pinging (false alarms);
 * 4. burst: the pinging heartbeats pinged as fast as the server answers, --connections (16) at a
 *    time for --burst-seconds (10): the most pings per second and the CPU per ping then.
 * Target (issue 36): every outage detected within grace + 5 s, none falsely. Last line: JSON.
 */
import { cpus, loadavg } from "node:os";
import { log, withTempDir } from "./harness/run.js";
import { round } from "./harness/stats.js";
import { readDetection, startWaits, watchDetection } from "./heartbeats/detection.js";
import { burst, createPinger, pingOnSchedule } from "./heartbeats/pinger.js";
import { report } from "./heartbeats/report.js";
import { seedHeartbeats } from "./heartbeats/seed.js";
import { startHeartbeatServer } from "./heartbeats/server.js";
import {
  BURST_SECONDS,
  CONNECTIONS,
  GRACE,
  GRACE_MS,
  MONITORS,
  PERIOD,
  PERIOD_MS,
  SETTLE_MS,
  STOPPED,
  TARGET_LATENESS_MS,
} from "./heartbeats/settings.js";

async function main() {
  if (!(MONITORS > 0 && STOPPED >= 0 && STOPPED < MONITORS && PERIOD_MS > 0 && GRACE_MS >= 0))
    throw new Error("--monitors, --stop, --period and --grace must make sense");
  return withTempDir("heartbeats", async (dataDir, cleanups) => {
    // 1. The monitors, the server, the waits.
    const seeded = await seedHeartbeats(dataDir, MONITORS, { period: PERIOD, grace: GRACE });
    log(`Created ${MONITORS} heartbeats in ${seeded.seconds} s`);
    const server = await startHeartbeatServer(dataDir);
    cleanups.push(() => server.stop());
    const pinger = createPinger(server.url);
    cleanups.push(() => pinger.close());
    const tokens = seeded.monitors.map((m) => m.token);
    startWaits(dataDir, PERIOD_MS, GRACE_MS);

    // 2. On schedule; the stopped ones are spread over the list (every N/S-th).
    const stride = Math.floor(MONITORS / Math.max(1, STOPPED));
    const stopped = new Set(Array.from({ length: STOPPED }, (_, k) => k * stride));
    const stoppedIds = [...stopped].map((i) => seeded.monitors[i]?.id ?? "");
    const runMs = 2 * PERIOD_MS + GRACE_MS + SETTLE_MS;
    log(`On schedule for ${runMs / 1000} s; ${STOPPED} stop after ${PERIOD_MS / 1000} s`);
    let cpu = server.cpuSeconds();
    const started = Date.now();
    const [schedule, observed] = await Promise.all([
      pingOnSchedule(pinger, {
        tokens,
        periodMs: PERIOD_MS,
        ms: runMs,
        stopped,
        stopAtMs: started + PERIOD_MS,
      }),
      watchDetection(dataDir, stoppedIds, started + runMs),
    ]);
    const scheduleCpu = server.cpuSeconds() - cpu;
    const elapsed = (Date.now() - started) / 1000;
    log(`Scheduled pings: ${schedule.pings} (${schedule.pingsPerSecond}/s)`);

    // 3. What the server recorded.
    const periods = { stoppedIds, periodMs: PERIOD_MS, graceMs: GRACE_MS };
    const detection = readDetection(dataDir, periods, observed);

    // 4. As fast as it goes, over the heartbeats still pinging.
    const alive = tokens.filter((_, i) => !stopped.has(i));
    cpu = server.cpuSeconds();
    const most = await burst(pinger, alive, CONNECTIONS, BURST_SECONDS);
    const burstCpu = server.cpuSeconds() - cpu;
    log(`Burst: ${most.pings} pings in ${most.seconds} s (${most.pingsPerSecond}/s)`);

    const micros = (seconds: number, pings: number) =>
      round((seconds * 1e6) / Math.max(1, pings), 0);
    report({
      monitors: MONITORS,
      period: PERIOD,
      grace: GRACE,
      machine: { cpus: cpus().length, loadAverage1m: round(loadavg()[0] ?? 0) },
      createSeconds: seeded.seconds,
      burst: {
        connections: CONNECTIONS,
        pings: most.pings,
        pingsPerSecond: most.pingsPerSecond,
        latencyMs: most.latencyMs,
        serverCpuMicrosPerPing: micros(burstCpu, most.pings),
        statuses: most.statuses,
      },
      schedule: {
        pings: schedule.pings,
        pingsPerSecond: schedule.pingsPerSecond,
        latencyMs: schedule.latencyMs,
        serverCpuMicrosPerPing: micros(scheduleCpu, schedule.pings),
        serverCpuShareOfOneCore: round(scheduleCpu / elapsed),
        statuses: schedule.statuses,
      },
      detection,
      target_met:
        detection.detected === detection.stopped &&
        detection.falseAlarms === 0 &&
        detection.recordedLatenessMs.max <= TARGET_LATENESS_MS &&
        detection.observedLatenessMs.max <= TARGET_LATENESS_MS,
    });
  });
}

await main();
