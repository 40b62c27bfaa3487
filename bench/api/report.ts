/** The report of runs 2-3 of `npm run bench:api`: each endpoint over HTTP, as a verb and as SQL. */
import type { ClosedLoopResult, OpenLoopResult } from "../harness/http-load.js";
import { printTable } from "../harness/table.js";

export type Mode = "http" | "verb" | "engine";

export interface ModeFigures {
  /** One request at a time: the service time, without queueing. */
  serial: ClosedLoopResult;
  open: OpenLoopResult;
  closed: ClosedLoopResult;
}

const ms = (n: number) => n.toFixed(2);
const pair = (a: number, b: number) => `${ms(a)} / ${ms(b)}`;

/** Open loop, serial service time and closed loop of each endpoint, in three tables. */
export function printEndpointTables(
  entries: readonly (readonly [string, string, Record<Mode, ModeFigures>])[],
  run: { rate: number; seconds: number; concurrency: number },
) {
  console.log(
    `\nOpen loop, ${run.rate} requests/s for ${run.seconds} s, latency in ms from the scheduled send time (HTTP: keep-alive, client in a worker thread)`,
  );
  printTable(
    [
      "endpoint",
      "HTTP p50 / p99",
      "verb p50 / p99",
      "engine SQL p50 / p99",
      "overhead p99 (HTTP - engine)",
      "HTTP achieved/s",
      "HTTP errors",
    ],
    entries.map(([, label, m]) => [
      label,
      pair(m.http.open.p50, m.http.open.p99),
      pair(m.verb.open.p50, m.verb.open.p99),
      pair(m.engine.open.p50, m.engine.open.p99),
      `${m.http.open.p99 >= m.engine.open.p99 ? "+" : ""}${ms(m.http.open.p99 - m.engine.open.p99)} ms (x${(m.http.open.p99 / m.engine.open.p99).toFixed(2)})`,
      `${m.http.open.achievedRate} (engine ${m.engine.open.achievedRate})`,
      `${m.http.open.errors}/${m.http.open.requests}`,
    ]),
  );
  console.log(
    "Service time, one request at a time (no queueing), ms; engine utilization = rate x engine mean",
  );
  printTable(
    [
      "endpoint",
      "HTTP mean / p99",
      "verb mean / p99",
      "engine SQL mean / p99",
      "HTTP / engine mean",
      `engine utilization at ${run.rate}/s`,
    ],
    entries.map(([, label, m]) => [
      label,
      pair(m.http.serial.mean, m.http.serial.p99),
      pair(m.verb.serial.mean, m.verb.serial.p99),
      pair(m.engine.serial.mean, m.engine.serial.p99),
      `x${(m.http.serial.mean / m.engine.serial.mean).toFixed(2)}`,
      ((run.rate * m.engine.serial.mean) / 1000).toFixed(2),
    ]),
  );
  console.log(`Sustained maximum, closed loop of ${run.concurrency} concurrent requests`);
  printTable(
    [
      "endpoint",
      "HTTP req/s (p99 ms)",
      "verb req/s (p99 ms)",
      "engine req/s (p99 ms)",
      "HTTP / engine",
    ],
    entries.map(([, label, m]) => [
      label,
      `${m.http.closed.requestsPerSecond} (${ms(m.http.closed.p99)})`,
      `${m.verb.closed.requestsPerSecond} (${ms(m.verb.closed.p99)})`,
      `${m.engine.closed.requestsPerSecond} (${ms(m.engine.closed.p99)})`,
      `x${(m.http.closed.requestsPerSecond / m.engine.closed.requestsPerSecond).toFixed(2)}`,
    ]),
  );
}
