import { readdirSync, readFileSync } from "node:fs";

// Where a process's CPU goes, by thread name (/proc/<pid>/task/*/comm): the embedded engine
// names its threads (QueryPipelineEx, MergeMutate, BgSchPool…), so a bench can tell the event
// loop, the engine's statements and its background merges apart without a profiler.

/**
 * CPU seconds so far of each thread of `pid`, by thread id, with its name; the main thread is
 * named "event loop", and numbered siblings (a pool's threads) share one name.
 */
export function threadCpuById(pid: number): Map<string, { name: string; seconds: number }> {
  const byId = new Map<string, { name: string; seconds: number }>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byId;
  }
  for (const task of tasks) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim();
      const fields =
        readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
      const name = task === String(pid) ? "event loop" : comm.replace(/[\d_-]+$/, "") || comm;
      byId.set(task, { name, seconds });
    } catch {
      // The thread ended between the listing and the read: its CPU is gone with it.
    }
  }
  return byId;
}

/** CPU seconds per thread name of `pid` so far; the main thread is "event loop". */
export function threadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const { name, seconds } of threadCpuById(pid).values())
    byName.set(name, (byName.get(name) ?? 0) + seconds);
  return byName;
}

/**
 * µs per unit of work for each thread name between two `threadCpu` snapshots, largest first;
 * names below `minMicros` are summed as "other". A thread that ended meanwhile is not counted.
 */
export function threadCpuPerUnit(
  before: Map<string, number>,
  after: Map<string, number>,
  units: number,
  minMicros = 0.5,
): Record<string, number> {
  const per: [string, number][] = [];
  let other = 0;
  for (const [name, seconds] of after) {
    const micros = ((seconds - (before.get(name) ?? 0)) * 1e6) / units;
    if (micros >= minMicros) per.push([name, Math.round(micros * 10) / 10]);
    else other += micros;
  }
  per.sort((a, b) => b[1] - a[1]);
  if (other > 0) per.push(["other", Math.round(other * 10) / 10]);
  return Object.fromEntries(per);
}
