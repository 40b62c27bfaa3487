import { printResult } from "../harness/run.js";
import { fmt, round } from "../harness/stats.js";
import { printTable } from "../harness/table.js";
import type { WindowFigures } from "./measure.js";
import type { WebhooksResult } from "./result.js";
import {
  BURST,
  type Spread,
  TARGET_BURST_P99_MS,
  TARGET_CPU_MICROS_PER_DELIVERY,
  TARGET_DELIVERIES_PER_SECOND,
} from "./settings.js";

const four = (x: Spread) => `${x.p50} / ${x.p95} / ${x.p99} / ${x.max}`;
const trio = (x: { p50: number; p99: number; max: number }) => `${x.p50} / ${x.p99} / ${x.max}`;
const ratio = (a: number, z: number | undefined) => (z ? `x${round(a / z, 2)}` : "");
/** One phase's CPU, store, event-loop, memory and receiver rows. */
const phase = (name: string, w: WindowFigures): string[][] => [
  [`${name}: CPU per delivery (µs)`, `${w.cpuMicrosPerItem}`],
  [`${name}: CPU, share of one core`, `${w.cpuShareOfOneCore}`],
  [
    `${name}: store queries / µs per delivery`,
    `${w.storeQueriesPerItem} / ${w.storeMicrosPerItem}`,
  ],
  [`${name}: event-loop delay p50 / p99 / max (ms)`, trio(w.eventLoopDelayMs)],
  [`${name}: event-loop utilization`, `${w.eventLoopUtilization}`],
  [`${name}: RSS start / end / max (MiB)`, `${w.rssMiB.start} / ${w.rssMiB.end} / ${w.rssMiB.max}`],
  [
    `${name}: receiver CPU per request (µs), share of a core`,
    `${w.receiver.cpuMicrosPerRequest}, ${w.receiver.cpuShareOfOneCore}`,
  ],
  [`${name}: new TLS connections at the receiver`, `${w.receiver.newConnections}`],
];

/** Vigil beside the bare loop: throughput, drain, CPU, latency. */
function printComparison(r: WebhooksResult) {
  const { throughput: t, drain: d, burst: b, steady: s } = r.vigil;
  const bare = r.baseline;
  printTable(
    ["figure", "Vigil (queue + store + deliverer)", "bare undici loop (baseline)", "ratio"],
    [
      [
        "throughput: deliveries or requests /s",
        `${t.deliveriesPerSecond}`,
        bare ? `${bare.requestsPerSecond}` : "skipped",
        ratio(t.deliveriesPerSecond, bare?.requestsPerSecond),
      ],
      [
        "drain of a full queue: deliveries /s",
        `${d.deliveriesPerSecond}`,
        bare ? `${bare.requestsPerSecond}` : "skipped",
        ratio(d.deliveriesPerSecond, bare?.requestsPerSecond),
      ],
      [
        "CPU per delivery / request (µs), throughput",
        `${t.cpuMicrosPerItem}`,
        bare ? `${bare.cpuMicrosPerItem}` : "skipped",
        ratio(t.cpuMicrosPerItem, bare?.cpuMicrosPerItem),
      ],
      [
        "CPU per delivery / request (µs), drain",
        `${d.cpuMicrosPerItem}`,
        bare ? `${bare.cpuMicrosPerItem}` : "skipped",
        ratio(d.cpuMicrosPerItem, bare?.cpuMicrosPerItem),
      ],
      [
        `burst of ${fmt(b.events)}: latency p50 / p95 / p99 / max (ms)`,
        four(b.latencyMs),
        bare ? four(bare.burst.latencyMs) : "skipped",
        ratio(b.latencyMs.p99, bare?.burst.latencyMs.p99),
      ],
      [`steady ${s.rate}/s: latency p50 / p95 / p99 / max (ms)`, four(s.latencyMs), "", ""],
      [
        "event-loop utilization, throughput",
        `${t.eventLoopUtilization}`,
        bare ? `${bare.eventLoopUtilization}` : "skipped",
        "",
      ],
      [
        "receiver CPU per request (µs)",
        `${t.receiver.cpuMicrosPerRequest}`,
        bare ? `${bare.receiver.cpuMicrosPerRequest}` : "skipped",
        "",
      ],
    ],
  );
}

/** Vigil's own figures, phase by phase, and the checks of the store and the receiver. */
function printVigil(r: WebhooksResult) {
  const { throughput: t, drain: d, burst: b, coldBurst: c, steady: s } = r.vigil;
  printTable(
    ["Vigil figure", "value"],
    [
      [
        "throughput: publish time / last arrival / all recorded (s)",
        `${t.publishSeconds} / ${t.secondsToLastArrival} / ${t.secondsToAllRecorded}`,
      ],
      ...phase("throughput", t),
      [
        "drain: enqueue events/s, CPU µs, store queries / µs per event",
        `${d.enqueue.eventsPerSecond}, ${d.enqueue.cpuMicrosPerEvent}, ` +
          `${d.enqueue.storeQueriesPerEvent} / ${d.enqueue.storeMicrosPerEvent}`,
      ],
      [
        "drain: last arrival / all recorded (s)",
        `${d.secondsToLastArrival} / ${d.secondsToAllRecorded}`,
      ],
      ...phase("drain", d),
      [
        "burst: all enqueued / first arrival / last arrival / all recorded (ms)",
        `${b.enqueuedMs} / ${b.firstArrivalMs} / ${b.lastArrivalMs} / ${b.allRecordedMs}`,
      ],
      ...phase("burst", b),
      [
        "cold burst: all enqueued / first arrival / last arrival / all recorded (ms)",
        `${c.enqueuedMs} / ${c.firstArrivalMs} / ${c.lastArrivalMs} / ${c.allRecordedMs}`,
      ],
      ...phase("cold burst", c),
      ["steady: offered events/s, publish errors", `${s.offeredRate}, ${s.publishErrors}`],
      ...phase("steady", s),
      [
        "store: deliveries / succeeded / attempts / retried",
        `${fmt(r.checks.deliveriesStored)} / ${fmt(r.checks.succeeded)} / ${fmt(r.checks.attemptsStored)} / ${r.checks.retried}`,
      ],
      [
        "receiver: distinct / duplicate / attempt>1 / bad signatures",
        `${fmt(r.checks.distinctArrivals)} / ${r.checks.duplicateArrivals} / ${r.checks.laterAttemptArrivals} / ${r.checks.badSignatures}`,
      ],
      ["meta.sqlite + WAL (MiB)", `${r.checks.metaFileMiB}`],
      ["checks", r.checks_passed ? "passed" : "FAILED"],
    ],
  );
}

/** The tables on stdout, then the JSON result line. */
export function report(r: WebhooksResult) {
  const { throughput: t, burst: b } = r.vigil;
  console.log(
    `\nWebhooks: ${fmt(r.events)} events x ${r.endpoints} endpoint(s), concurrency ${r.concurrency}, ` +
      `${r.transport}, ${r.machine.cpus} CPUs\n`,
  );
  printComparison(r);
  printVigil(r);
  console.log(
    `Target: >= ${fmt(TARGET_DELIVERIES_PER_SECOND)} deliveries/s and burst-of-${fmt(BURST)} p99 < ${TARGET_BURST_P99_MS} ms: ` +
      `${r.target_met ? "met" : "NOT met"} (${t.deliveriesPerSecond} deliveries/s, p99 ${b.latencyMs.p99} ms)`,
  );
  const cpu = r.cpuPerDelivery;
  console.log(
    `Target (issue 37): <= ${TARGET_CPU_MICROS_PER_DELIVERY} µs CPU per delivery, throughput phase: ` +
      `${cpu.met ? "met" : "NOT met"} (${cpu.micros} µs; bare signed request ${cpu.bareRequestMicros ?? "skipped"} µs)`,
  );
  printResult(r);
}
