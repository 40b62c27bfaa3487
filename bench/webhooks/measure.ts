import { monitorEventLoopDelay } from "node:perf_hooks";
import { SingleBar } from "cli-progress";
import { cpuMicros, delayFigures } from "../harness/process-figures.js";
import { sleep } from "../harness/run.js";
import { fmt, round } from "../harness/stats.js";
import type { Arrivals, Receiver } from "./receiver.js";
import { DELAY_RESOLUTION_MS, ENDPOINTS, now, type Spread, spread } from "./settings.js";

// Measuring one phase: CPU, event loop, RSS, store queries and the receiver's CPU.

export interface QueryCounter {
  queries: number;
  seconds: number;
}

export function startWindow(receiver: Receiver, queries: QueryCounter) {
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  const rss: number[] = [process.memoryUsage().rss];
  const rssTimer = setInterval(() => rss.push(process.memoryUsage().rss), 250);
  const receiverBefore = receiver.stats();
  const queriesBefore = { ...queries };
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const started = now();
  delay.enable();
  return async (work: number) => {
    delay.disable();
    const cpuUsed = cpuMicros(cpu);
    const ended = now();
    const utilization = performance.eventLoopUtilization(elu).utilization;
    clearInterval(rssTimer);
    rss.push(process.memoryUsage().rss);
    const [before, after] = [await receiverBefore, await receiver.stats()];
    const mib = (bytes: number) => round(bytes / 2 ** 20, 1);
    const seconds = (ended - started) / 1000;
    return {
      cpuMicrosPerItem: round(cpuUsed / Math.max(1, work), 1),
      cpuShareOfOneCore: round(cpuUsed / 1e6 / seconds, 3),
      eventLoopDelayMs: delayFigures(delay, DELAY_RESOLUTION_MS),
      eventLoopUtilization: round(utilization, 3),
      rssMiB: { start: mib(rss[0] ?? 0), end: mib(rss.at(-1) ?? 0), max: mib(Math.max(...rss)) },
      storeQueriesPerItem: round((queries.queries - queriesBefore.queries) / Math.max(1, work), 2),
      storeMicrosPerItem: round(
        ((queries.seconds - queriesBefore.seconds) * 1e6) / Math.max(1, work),
        1,
      ),
      receiver: {
        cpuMicrosPerRequest: round(
          (after.cpuMicros - before.cpuMicros) / Math.max(1, after.requests - before.requests),
          1,
        ),
        cpuShareOfOneCore: round((after.cpuMicros - before.cpuMicros) / 1e6 / seconds, 3),
        newConnections: after.connections - before.connections,
      },
    };
  };
}
export type WindowFigures = Awaited<ReturnType<ReturnType<typeof startWindow>>>;

/** Polls the receiver while `done` is pending, showing distinct attempt-1 arrivals. */
export function progressBar(receiver: Receiver, label: string, base: number, total: number) {
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {value}/{total} | {rate}/s`,
    stream: process.stderr,
    hideCursor: true,
  });
  const started = Date.now();
  bar.start(total, 0, { rate: 0 });
  let stopped = false;
  const tick = async () => {
    while (!stopped) {
      const { firsts } = await receiver.stats();
      const value = Math.min(total, firsts - base);
      bar.update(value, {
        rate: fmt(Math.round(value / Math.max(0.001, (Date.now() - started) / 1000))),
      });
      await sleep(250);
    }
  };
  const ticking = tick();
  return async () => {
    stopped = true;
    await ticking;
    bar.stop();
  };
}

/** First arrival of attempt 1 per (seq, endpoint) in `arrivals`, for seqs in [from, to). */
export function firstArrivals(arrivals: Arrivals, from: number, to: number) {
  const first = new Map<number, number>();
  let duplicates = 0;
  let laterAttempts = 0;
  for (let i = 0; i < arrivals.seq.length; i++) {
    const seq = arrivals.seq[i] ?? -1;
    if (seq < from || seq >= to) continue;
    if (arrivals.attempt[i] !== 1) {
      laterAttempts++;
      continue;
    }
    const key = seq * 1024 + (arrivals.endpoint[i] ?? 0);
    if (first.has(key)) duplicates++;
    else first.set(key, arrivals.at[i] ?? Number.NaN);
  }
  return { first, duplicates, laterAttempts };
}

/** Latency of each delivery: its attempt 1's arrival minus its event's publish() call. */
export function latencies(
  arrivals: Arrivals,
  from: number,
  calledAt: readonly number[],
): { ms: Spread; missing: number; duplicates: number; laterAttempts: number; firstAt: number } {
  const { first, duplicates, laterAttempts } = firstArrivals(
    arrivals,
    from,
    from + calledAt.length,
  );
  const values: number[] = [];
  let missing = 0;
  let firstAt = Number.POSITIVE_INFINITY;
  for (let i = 0; i < calledAt.length; i++)
    for (let ep = 0; ep < ENDPOINTS; ep++) {
      const at = first.get((from + i) * 1024 + ep);
      if (at === undefined) missing++;
      else {
        values.push(at - (calledAt[i] ?? Number.NaN));
        firstAt = Math.min(firstAt, at);
      }
    }
  return { ms: spread(values), missing, duplicates, laterAttempts, firstAt };
}
