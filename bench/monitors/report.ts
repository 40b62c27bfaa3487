import type { CpuSplit } from "../harness/cpu-split.js";
import { printResult } from "../harness/run.js";
import { fmt } from "../harness/stats.js";
import { printTable } from "../harness/table.js";
import type { MonitorsResult } from "./result.js";
import { DELAY_RESOLUTION_MS, TARGET_LAG_P99_MS } from "./settings.js";

/** The collector's pauses per check or request by kind, with their count ("minor 12.3 (40), …"). */
const gcPauses = (split: CpuSplit) =>
  Object.entries(split.gcPauses)
    .map(([kind, p]) => `${kind} ${p.micros} (${p.count})`)
    .join(", ") || "none";

export function report(r: MonitorsResult) {
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
        "  of which the event loop's thread / the other threads (µs)",
        `${v.cpuSplit.eventLoopMicros} / ${v.cpuSplit.otherThreadsMicros}`,
        `${b.cpuSplit.eventLoopMicros} / ${b.cpuSplit.otherThreadsMicros}`,
        "",
      ],
      [
        "  garbage collector's pauses of the event loop (µs, count)",
        gcPauses(v.cpuSplit),
        gcPauses(b.cpuSplit),
        "",
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
    ],
  );
  if (r.parts) {
    const m = r.parts.medians;
    printTable(
      [
        `where a check's CPU goes (µs, median of ${r.parts.rounds} rounds)`,
        "CPU",
        "above the one before",
      ],
      [
        ["bare undici request", `${m.bare}`, ""],
        [
          "the kind's runner (request, assertions, result)",
          `${m.runner}`,
          `${r.parts.runnerAboveBare}`,
        ],
        [
          "engine.check (monitor read, runner, record)",
          `${m.engine}`,
          `${r.parts.recordingAboveRunner}`,
        ],
      ],
    );
  }
  console.log(
    `Target: all ${fmt(r.monitors)} checked every minute and schedule lag p99 < ${TARGET_LAG_P99_MS} ms: ` +
      `${r.target_met ? "met" : "NOT met"} (coverage ${r.coverage_complete ? "complete" : "incomplete"}, lag p99 ${v.scheduleLagMs.p99} ms)`,
  );
  const c = r.cpuPerCheck;
  console.log(
    `Target (issue 37): CPU per check <= ${c.targetMicros} µs at 100 checks/s: ${c.met ? "met" : "NOT met"} ` +
      `(${c.micros} µs at ${c.checksPerSecond} checks/s; the bare undici loop ${c.bareRequestMicros} µs a request)`,
  );
  printResult(r);
}
