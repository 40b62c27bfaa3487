import { monitorEventLoopDelay } from "node:perf_hooks";
import { Agent, request } from "undici";
import { type CpuSplit, startCpuSplit } from "../harness/cpu-split.js";
import { cpuMicros, delayFigures } from "../harness/process-figures.js";
import { round, spread } from "../harness/stats.js";
import { BASELINE_WARMUP_SECONDS, DELAY_RESOLUTION_MS } from "./settings.js";

// ---------------------------------------------------------------------------------------------
// The baseline: the same request rate from a bare undici loop.

export interface BaselineResult {
  rate: number;
  warmupSeconds: number;
  seconds: number;
  requests: number;
  errors: number;
  achievedRate: number;
  cpuMicrosPerRequest: number;
  /** The CPU per request by thread, and the collector's pauses. */
  cpuSplit: CpuSplit;
  latencyMs: { p50: number; p99: number; max: number };
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  eventLoopUtilization: number;
}

/**
 * Sends `rate` requests per second for `seconds`, each at its scheduled time (open loop);
 * `send` gets each request's number. With `tickMs`, the loop wakes only on multiples of it and
 * sends every request due by then, as the monitor scheduler does (SCHEDULE_TICK_MS); without,
 * it wakes for each request.
 */
export function openLoop(
  rate: number,
  seconds: number,
  send: (i: number) => Promise<boolean>,
  tickMs = 0,
) {
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const taken: number[] = [];
  let errors = 0;
  let done = 0;
  let next = 0;
  const start = performance.now() + 5;
  return new Promise<{ requests: number; errors: number; taken: number[]; elapsedMs: number }>(
    (resolve) => {
      const fire = (i: number) => {
        const sent = performance.now();
        send(i).then(
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
          fire(next++);
        }
        if (next >= total) return;
        const due = start + next * interval;
        const wake = tickMs > 0 ? Math.ceil(due / tickMs) * tickMs : due;
        setTimeout(tick, Math.max(0, wake - performance.now()));
      };
      setTimeout(tick, 5);
    },
  );
}

/** The bare loop's request: a GET on its own agent, its JSON body read; true when it says ok. */
export async function bareRequest(agent: Agent, url: string): Promise<boolean> {
  const res = await request(url, { dispatcher: agent });
  const body = (await res.body.json()) as { ok?: unknown };
  return res.statusCode === 200 && body.ok === true;
}

export async function baseline(
  url: string,
  rate: number,
  seconds: number,
): Promise<BaselineResult> {
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const send = () => bareRequest(agent, url);
  try {
    // Warmed up like Vigil's side (its window comes after a warm-up too).
    if (BASELINE_WARMUP_SECONDS > 0) await openLoop(rate, BASELINE_WARMUP_SECONDS, send);
    const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
    const elu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    const stopSplit = startCpuSplit();
    delay.enable();
    const run = await openLoop(rate, seconds, send);
    delay.disable();
    const cpuUsed = cpuMicros(cpu);
    const cpuSplit = stopSplit()(run.requests);
    return {
      rate: round(rate, 1),
      warmupSeconds: BASELINE_WARMUP_SECONDS,
      seconds,
      requests: run.requests,
      errors: run.errors,
      achievedRate: round(run.requests / (run.elapsedMs / 1000), 1),
      cpuMicrosPerRequest: round(cpuUsed / run.requests, 1),
      cpuSplit,
      latencyMs: spread(run.taken),
      eventLoopDelayMs: delayFigures(delay, DELAY_RESOLUTION_MS),
      eventLoopUtilization: round(performance.eventLoopUtilization(elu).utilization, 3),
    };
  } finally {
    await agent.close();
  }
}
