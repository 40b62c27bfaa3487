import { existsSync, statSync } from "node:fs";
import { machine } from "../harness/process-figures.js";
import { round } from "../harness/stats.js";
import type { baseline } from "./baseline.js";
import { firstArrivals } from "./measure.js";
import type { bursts, drain, steady, throughput } from "./phases.js";
import {
  BURST,
  CHUNK,
  ENDPOINTS,
  EVENTS,
  TARGET_BURST_P99_MS,
  TARGET_CPU_MICROS_PER_DELIVERY,
  TARGET_DELIVERIES_PER_SECOND,
} from "./settings.js";
import type { Vigil } from "./vigil.js";

/** After the phases: every delivery succeeded with one attempt, none failed its signature, none arrived twice. */
export async function checkStoreAndReceiver(v: Vigil, vigilFrom: number) {
  const { receiver, reader, metaPath, seq } = v;
  await v.deliverer.stop();
  const all = await receiver.collect(0);
  const checked = firstArrivals(all, vigilFrom, seq.next);
  const expected = (seq.next - vigilFrom) * ENDPOINTS;
  const received = await receiver.stats();
  const store = reader
    .prepare(
      `SELECT count(*) AS deliveries,
         sum(status = 'succeeded') AS succeeded,
         sum(status = 'pending') AS pending,
         sum(attempts > 1) AS retried
       FROM webhook_deliveries`,
    )
    .get() as { deliveries: number; succeeded: number; pending: number; retried: number };
  const attempts = (
    reader.prepare(`SELECT count(*) AS n FROM webhook_attempts`).get() as { n: number }
  ).n;
  const fileBytes = ["", "-wal", "-shm"]
    .map((suffix) => `${metaPath}${suffix}`)
    .filter((path) => existsSync(path))
    .reduce((sum, path) => sum + statSync(path).size, 0);
  const checks = {
    deliveriesExpected: expected,
    deliveriesStored: store.deliveries,
    succeeded: store.succeeded,
    pending: store.pending,
    retried: store.retried,
    attemptsStored: attempts,
    distinctArrivals: checked.first.size,
    duplicateArrivals: checked.duplicates,
    laterAttemptArrivals: checked.laterAttempts,
    badSignatures: received.badSignatures,
    unparsedRequests: received.unparsed,
    metaFileMiB: round(fileBytes / 2 ** 20, 1),
  };
  const checksPassed =
    store.deliveries === expected &&
    store.succeeded === expected &&
    attempts === expected &&
    checked.first.size === expected &&
    checked.duplicates === 0 &&
    checked.laterAttempts === 0 &&
    received.badSignatures === 0 &&
    received.unparsed === 0;
  return { checks, checksPassed };
}

export interface WebhooksFigures {
  throughput: Awaited<ReturnType<typeof throughput>>;
  drain: Awaited<ReturnType<typeof drain>>;
  phases: Awaited<ReturnType<typeof bursts>>;
  steady: Awaited<ReturnType<typeof steady>>;
  bare: Awaited<ReturnType<typeof baseline>> | undefined;
  checked: Awaited<ReturnType<typeof checkStoreAndReceiver>>;
}

/** The JSON result line's object. */
export function webhooksResult(concurrency: number, f: WebhooksFigures) {
  const { throughput, drain, steady, bare } = f;
  const { burst, coldBurst } = f.phases;
  const { checks, checksPassed } = f.checked;
  const targetMet =
    throughput.complete &&
    burst.complete &&
    burst.missing === 0 &&
    throughput.deliveriesPerSecond >= TARGET_DELIVERIES_PER_SECOND &&
    burst.latencyMs.p99 < TARGET_BURST_P99_MS;
  // Issue 37's figure: this process's CPU (every thread) per delivery while one producer
  // publishes and the deliverer delivers, beside the bare loop's CPU per signed request.
  const cpuPerDelivery = {
    micros: throughput.cpuMicrosPerItem,
    bareRequestMicros: bare?.cpuMicrosPerItem ?? null,
    targetMicros: TARGET_CPU_MICROS_PER_DELIVERY,
    met: throughput.complete && throughput.cpuMicrosPerItem <= TARGET_CPU_MICROS_PER_DELIVERY,
  };

  return {
    bench: "webhooks",
    cpuPerDelivery,
    events: EVENTS,
    endpoints: ENDPOINTS,
    concurrency,
    chunk: CHUNK,
    transport: "https keep-alive, receiver in a child process",
    machine: machine(),
    vigil: { throughput, drain, burst, coldBurst, steady },
    baseline: bare ?? null,
    ratios: bare
      ? {
          throughputToBare: round(throughput.deliveriesPerSecond / bare.requestsPerSecond, 3),
          drainToBare: round(drain.deliveriesPerSecond / bare.requestsPerSecond, 3),
          cpuPerDeliveryToBareRequest: round(
            throughput.cpuMicrosPerItem / bare.cpuMicrosPerItem,
            2,
          ),
          drainCpuPerDeliveryToBareRequest: round(
            drain.cpuMicrosPerItem / bare.cpuMicrosPerItem,
            2,
          ),
          burstP99ToBare: round(burst.latencyMs.p99 / bare.burst.latencyMs.p99, 2),
        }
      : null,
    checks,
    checks_passed: checksPassed,
    target: {
      deliveriesPerSecond: TARGET_DELIVERIES_PER_SECOND,
      burstEvents: BURST,
      burstP99Ms: TARGET_BURST_P99_MS,
      cpuMicrosPerDelivery: TARGET_CPU_MICROS_PER_DELIVERY,
    },
    target_met: targetMet,
  };
}

export type WebhooksResult = ReturnType<typeof webhooksResult>;
