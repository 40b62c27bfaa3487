import { readdirSync, readFileSync } from "node:fs";

// Where a process's CPU goes, by thread name (/proc/<pid>/task/*/comm): the embedded engine
// names its threads (QueryPipelineEx, MergeMutate, BgSchPool…), so a bench can tell the event
// loop, the engine's statements and its background merges apart without a profiler.

/** A process's threads by id: each one's name and CPU seconds so far. */
export type ThreadCpu = Map<string, { name: string; seconds: number }>;

/**
 * CPU seconds so far of each thread of `pid`, by thread id (so a thread that ends between two
 * snapshots takes none of the others' time with it); the main thread is named "event loop", and
 * numbered siblings (a pool's threads) share one name.
 */
export function threadCpu(pid: number): ThreadCpu {
  const byId: ThreadCpu = new Map();
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

/**
 * µs per unit of work for each thread name between two `threadCpu` snapshots, largest first;
 * names below `minMicros` are summed as "other". A thread that ended meanwhile is not counted;
 * one that began meanwhile counts whole.
 */
export function threadCpuPerUnit(
  before: ThreadCpu,
  after: ThreadCpu,
  units: number,
  minMicros = 0.5,
): Record<string, number> {
  const byName = new Map<string, number>();
  for (const [id, { name, seconds }] of after)
    byName.set(name, (byName.get(name) ?? 0) + seconds - (before.get(id)?.seconds ?? 0));
  const per: [string, number][] = [];
  let other = 0;
  for (const [name, seconds] of byName) {
    const micros = (seconds * 1e6) / units;
    if (micros >= minMicros) per.push([name, Math.round(micros * 10) / 10]);
    else other += micros;
  }
  per.sort((a, b) => b[1] - a[1]);
  if (other > 0) per.push(["other", Math.round(other * 10) / 10]);
  return Object.fromEntries(per);
}
