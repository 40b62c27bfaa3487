import { sleep } from "./run.js";
import { percentileOf, round } from "./stats.js";

/** What the tenant next door asks, one after another: a TQL query over its own last hour. */
export const NEIGHBOUR_QUERY =
  "SELECT service_name, count() AS spans, quantile(0.95)(duration_ms) AS p95 FROM traces WHERE timestamp > now() - INTERVAL 1 HOUR GROUP BY service_name";
const PACE_MS = 700;

/**
 * The neighbour's TQL query every PACE_MS (below a key's 100 requests a minute) through `ask`
 * (its HTTP status), until `busy` settles and at least once: its p50/p99 in ms and failures.
 */
export async function neighbourAsks(ask: () => Promise<number>, busy: Promise<unknown>) {
  let done = false;
  const finished = busy.finally(() => {
    done = true;
  });
  const ms: number[] = [];
  let failed = 0;
  while (!done || ms.length + failed === 0) {
    const started = performance.now();
    if ((await ask()) === 200) ms.push(performance.now() - started);
    else failed++;
    await sleep(Math.max(0, started + PACE_MS - performance.now()));
  }
  await finished;
  return {
    queries: ms.length,
    failed,
    p50Ms: round(percentileOf(ms, 50)),
    p99Ms: round(percentileOf(ms, 99)),
    maxMs: round(Math.max(...ms)),
  };
}
