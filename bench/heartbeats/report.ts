import { printResult } from "../harness/run.js";
import { fmt } from "../harness/stats.js";
import { printTable } from "../harness/table.js";
import type { Detection } from "./detection.js";
import { TARGET_LATENESS_MS } from "./settings.js";

type Spread = { p50: number; p99: number; max: number };

export interface HeartbeatsResult {
  monitors: number;
  period: string;
  grace: string;
  machine: { cpus: number; loadAverage1m: number };
  createSeconds: number;
  burst: {
    connections: number;
    pings: number;
    pingsPerSecond: number;
    latencyMs: Spread;
    serverCpuMicrosPerPing: number;
    statuses: Record<string, number>;
  };
  schedule: {
    pings: number;
    pingsPerSecond: number;
    latencyMs: Spread;
    serverCpuMicrosPerPing: number;
    serverCpuShareOfOneCore: number;
    statuses: Record<string, number>;
  };
  detection: Detection;
  target_met: boolean;
}

export function report(r: HeartbeatsResult) {
  const trio = (x: Spread) => `${x.p50} / ${x.p99} / ${x.max}`;
  const d = r.detection;
  console.log(
    `\nHeartbeats: ${fmt(r.monitors)} heartbeat monitors, period ${r.period}, grace ${r.grace}, ` +
      `${r.machine.cpus} CPUs (load ${r.machine.loadAverage1m}); created in ${r.createSeconds} s; ` +
      `${fmt(d.stopped)} stop pinging after the first period\n`,
  );
  printTable(
    ["figure", "burst (as fast as answered)", "on schedule (each at its period)"],
    [
      [
        "pings /s",
        `${r.burst.pingsPerSecond} (${r.burst.connections} connections)`,
        `${r.schedule.pingsPerSecond}`,
      ],
      ["ping latency p50 / p99 / max (ms)", trio(r.burst.latencyMs), trio(r.schedule.latencyMs)],
      [
        "server CPU per ping (µs)",
        `${r.burst.serverCpuMicrosPerPing}`,
        `${r.schedule.serverCpuMicrosPerPing}`,
      ],
      ["answers", JSON.stringify(r.burst.statuses), JSON.stringify(r.schedule.statuses)],
    ],
  );
  printTable(
    ["detection figure", "value"],
    [
      ["stopped heartbeats detected", `${fmt(d.detected)} of ${fmt(d.stopped)}`],
      ["outages open (incident, health outage)", `${fmt(d.outagesOpen)}`],
      ["lateness after the deadline, recorded, p50 / p99 / max (ms)", trio(d.recordedLatenessMs)],
      [
        "lateness seen in the store (polled 250 ms), p50 / p99 / max (ms)",
        trio(d.observedLatenessMs),
      ],
      ["missed records of stopped heartbeats", `${fmt(d.missedRecords)}`],
      ["false alarms (missed records of pinging heartbeats)", `${fmt(d.falseAlarms)}`],
      ["server CPU on schedule, share of one core", `${r.schedule.serverCpuShareOfOneCore}`],
    ],
  );
  console.log(
    `Target: every stopped heartbeat's outage recorded within grace + ${TARGET_LATENESS_MS / 1000} s ` +
      `of its deadline, no false alarm: ${r.target_met ? "met" : "NOT met"} ` +
      `(max lateness ${d.recordedLatenessMs.max} ms recorded, ${d.observedLatenessMs.max} ms seen)`,
  );
  printResult(r);
}
