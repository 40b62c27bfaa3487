import { Agent } from "undici";
import { SCHEDULE_TICK_MS } from "../../src/composition/monitors.js";
import type { ScheduledMonitor } from "../../src/meta/repositories/monitors.js";
import type { CheckResult } from "../../src/monitors/check-result.js";
import type { MonitorDefinition } from "../../src/monitors/definition.js";
import type { MonitorEngine } from "../../src/monitors/engine.js";
import { cpuMicros } from "../harness/process-figures.js";
import { log } from "../harness/run.js";
import { median, round } from "../harness/stats.js";
import { bareRequest, openLoop } from "./baseline.js";

/** The three loops, each the one before it plus one layer of a check. */
const PARTS = ["bare", "runner", "engine"] as const;
type Part = (typeof PARTS)[number];

export interface PartsInput {
  url: string;
  /** Requests or checks a second, as in the window. */
  rate: number;
  seconds: number;
  rounds: number;
  /** The monitors, checked in turn: each once every `monitors.length` checks. */
  monitors: ScheduledMonitor[];
  /** The kind's runner on the guarded outbound agent, as the engine runs it. */
  run(definition: MonitorDefinition, signal: AbortSignal): Promise<CheckResult>;
  engine: Pick<MonitorEngine, "check">;
}

/**
 * Where a check's CPU goes (--parts-seconds, run after the window with the scheduler stopped):
 * the window's rate as three open loops, one after the other, `seconds` each, `rounds` times
 * (after one warm-up round), each waking on the scheduler's 100 ms ticks and sending what is due
 * then, as the scheduler starts checks (the baseline's loop wakes for each request, which costs
 * more than the request on a busy machine):
 * - bare: an undici request on an agent of its own, its JSON body read (the baseline's loop);
 * - runner: the monitor's kind runner (the request on the guarded agent, its assertions, the
 *   result), nothing stored;
 * - engine: `engine.check` (the monitor read, the runner, the record in a group commit).
 * The runner's median above bare is the runner's own cost; the engine's above the runner is
 * reading and recording the check.
 */
export async function measureParts(input: PartsInput) {
  const { url, rate, seconds, rounds, monitors } = input;
  if (!(Number.isInteger(rounds) && rounds >= 1))
    throw new Error("--parts-rounds must be 1 or more");
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const signal = new AbortController().signal;
  const monitorOf = (i: number) => monitors[i % monitors.length] as ScheduledMonitor;
  const send: Record<Part, (i: number) => Promise<boolean>> = {
    bare: (i) => bareRequest(agent, `${url}?monitor=${i % monitors.length}`),
    runner: async (i) =>
      (await input.run(monitorOf(i).definition as MonitorDefinition, signal)).passed,
    engine: async (i) =>
      (await input.engine.check(monitorOf(i).id, "scheduled"))?.result.passed === true,
  };
  const micros: Record<Part, number[]> = { bare: [], runner: [], engine: [] };
  const errors: Record<Part, number> = { bare: 0, runner: 0, engine: 0 };
  try {
    for (let r = 0; r <= rounds; r++)
      for (const part of PARTS) {
        const cpu = process.cpuUsage();
        const run = await openLoop(rate, seconds, (i) => send[part](i), SCHEDULE_TICK_MS);
        // Round 0 warms every loop up (the JIT) and is not counted.
        if (r === 0) continue;
        micros[part].push(round(cpuMicros(cpu) / run.requests, 1));
        errors[part] += run.errors;
      }
  } finally {
    await agent.close();
  }
  const medians = {
    bare: round(median(micros.bare), 1),
    runner: round(median(micros.runner), 1),
    engine: round(median(micros.engine), 1),
  };
  const parts = {
    rate,
    seconds,
    rounds,
    cpuMicros: micros,
    medians,
    errors,
    runnerAboveBare: round(medians.runner - medians.bare, 1),
    recordingAboveRunner: round(medians.engine - medians.runner, 1),
  };
  log(`  parts: ${JSON.stringify(parts)}`);
  return parts;
}
export type PartsFigures = Awaited<ReturnType<typeof measureParts>>;
