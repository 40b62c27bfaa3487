import { cpus, loadavg } from "node:os";
import { printResult } from "../harness/run.js";
import { round } from "../harness/stats.js";
import { printTable } from "../harness/table.js";
import { MONITORS, type PhaseResult, WORKERS } from "./settings.js";

/** The table, one worker beside WORKERS, then the JSON result line. */
export function report(one: PhaseResult, shared: PhaseResult) {
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
        ["RSS MiB per worker", one.rssMiBPerWorker.join(" / "), shared.rssMiBPerWorker.join(" / ")],
      ] as (string | number)[][]
    ).map((row) => row.map(String)),
  );
  printResult({
    bench: "monitors-workers",
    monitors: MONITORS,
    cores: cpus().length,
    loadavg: loadavg().map((l) => round(l)),
    baseline: one,
    shared,
  });
}
