import { loadavg } from "node:os";
import type { EventLoopUtilization } from "node:perf_hooks";
import type {
  BodyBytes,
  ClosedLoopResult,
  HttpClient,
  OpenLoopResult,
} from "../harness/http-load.js";
import { log } from "../harness/run.js";
import { round } from "../harness/stats.js";
import {
  CLOSED_SECONDS,
  CONCURRENCY,
  LOW_RATE,
  LOW_SECONDS,
  RATE,
  SECONDS,
  WARMUP_SECONDS,
} from "./settings.js";

export interface TargetFigures {
  label: string;
  bytes: BodyBytes;
  serial: ClosedLoopResult;
  open: OpenLoopResult;
  /** The same at LOW_RATE, below saturation (absent when LOW_RATE is 0). */
  lowRateOpen: OpenLoopResult | undefined;
  closed: ClosedLoopResult;
  statuses: Record<string, number>;
  /** Share of the time the server's thread (main) was busy during the open loop. */
  serverLoopUtilization: number;
  /** Payloads the status page cache built during this target's runs. */
  payloadBuilds: number;
  /** The machine's 1-minute load average before and after (this benchmark's threads count too). */
  loadAverage1m: { before: number; after: number };
}

export interface LoadTarget {
  label: string;
  path: string;
  /** The baseline server's port; undefined for the service's own. */
  port: number | undefined;
}

/** Each target in turn: warm-up and serial service time, the open loops, then the closed loop. */
export async function measureTargets(
  http: HttpClient,
  targets: Record<string, LoadTarget>,
  counter: { builds: number },
) {
  const figures: Record<string, TargetFigures> = {};
  for (const [name, t] of Object.entries(targets)) {
    const target = { port: t.port };
    const statuses: Record<string, number> = {};
    const count = (from: Record<string, number>) => {
      for (const [k, v] of Object.entries(from)) statuses[k] = (statuses[k] ?? 0) + v;
    };
    counter.builds = 0;
    const loadAtStart = loadavg()[0] ?? 0;
    log(`${t.label}: warm-up and serial service time`);
    count((await http.closed([t.path], 1, WARMUP_SECONDS, target)).statuses);
    const serial = await http.closed([t.path], 1, WARMUP_SECONDS, target);
    count(serial.statuses);
    let low: OpenLoopResult | undefined;
    if (LOW_RATE > 0) {
      log(`${t.label}: open loop ${LOW_RATE}/s for ${LOW_SECONDS} s`);
      const answer = await http.open([t.path], LOW_RATE, LOW_SECONDS, undefined, target);
      count(answer.statuses);
      low = answer.result;
    }
    log(`${t.label}: open loop ${RATE}/s for ${SECONDS} s`);
    const elu0: EventLoopUtilization = performance.eventLoopUtilization();
    const open = await http.open([t.path], RATE, SECONDS, undefined, target);
    const elu = performance.eventLoopUtilization(elu0);
    count(open.statuses);
    log(`${t.label}: closed loop, ${CONCURRENCY} connections for ${CLOSED_SECONDS} s`);
    const closed = await http.closed([t.path], CONCURRENCY, CLOSED_SECONDS, target);
    count(closed.statuses);
    figures[name] = {
      label: t.label,
      bytes: open.bytes,
      serial: serial.result,
      open: open.result,
      lowRateOpen: low,
      closed: closed.result,
      statuses,
      serverLoopUtilization: round(elu.utilization, 3),
      payloadBuilds: counter.builds,
      loadAverage1m: { before: round(loadAtStart), after: round(loadavg()[0] ?? 0) },
    };
    log(`  ${JSON.stringify(figures[name])}`);
  }
  return figures;
}
