/**
 * npm run bench:webhooks — webhook deliveries per second to a local HTTPS receiver, and the
 * latency from publishing an event to the arrival of its attempt 1.
 *
 * 1. The receiver: a node:https keep-alive server (test/fixtures/tls: receiver.pem, signed by
 *    the test CA) in a child process, so it has its own event loop and core. It answers 200
 *    "ok" as soon as a body has arrived, verifies every Standard Webhooks signature, and keeps,
 *    per request, its arrival time (performance.timeOrigin + performance.now(), comparable
 *    across processes on one machine), the event's sequence number (in its data), the
 *    endpoint (from the path) and the attempt number. The parent reads counts and arrivals
 *    over IPC only between and at the end of phases, so recording costs the parent nothing.
 * 2. In this process, from the composition factories the service runs (src/composition/): a
 *    temporary data dir, the real SQLite metadata store (migrated), one org/project from
 *    initialize(), --endpoints (1) endpoints subscribed to monitor.down with sealed secrets (a
 *    random 32-byte server key), the webhook service from createWebhooks (its guarded
 *    agent trusting the test CA with private targets allowed, the deliverer with the
 *    configured concurrency, 64 unless --concurrency, and the publisher). Each event carries a monitor.down
 *    payload (~0.8 kB body) and fans out to every endpoint.
 * 3. Baseline, same run, same receiver, before Vigil starts: a bare undici loop with the same
 *    concurrency POSTing the same bodies with the same headers, each signed (JSON + HMAC) as
 *    it is sent — no queue, no store, no lease, no recording: requests/s and CPU per request;
 *    and the same 1,000-item burst drained from memory, for a latency floor.
 * 4. Vigil, after a warm-up (connections open, code hot):
 *    - drain: --events (20,000) events enqueued with the deliverer stopped, then started: the
 *      queue's drain rate on its own, and the enqueue cost on its own;
 *    - throughput (the issue's figure): --events events published as fast as one producer can
 *      (chunks of --chunk, each publish awaited, the event loop yielded between chunks) while
 *      the deliverer runs; deliveries/s = attempt-1 arrivals / (last arrival - first publish);
 *    - burst (the issue's latency figure): --burst (1,000) publish() calls fired back to back in
 *      one synchronous loop (as ingest fires error.created for a batch), each one's latency
 *      measured from its own publish() call to its attempt 1's arrival: p50/p95/p99/max; then
 *      the same burst again after the receiver closed its idle keep-alive connections (as one
 *      with a short keep-alive would between bursts), so its connections are opened anew;
 *    - steady: --steady-rate (1,000) events/s offered for --steady-seconds (10), open loop
 *      (each publish fired at its scheduled time, not awaited), latency p50/p99.
 *    Each phase reports CPU time per delivery (enqueue, claim or hand-over, sign, POST and
 *    recording together), RSS, event-loop delay and utilization, metadata-store queries and their
 *    time per delivery, and the receiver's CPU; each waits until the store holds nothing
 *    pending before the next begins. At the end the store and receiver are checked: every
 *    delivery succeeded with one attempt, no signature failed, no duplicate arrived.
 *
 * Only the factories webhook delivery needs are imported, not createDeps: that one opens the
 * chDB engine (~180 MB RSS), which webhook delivery does not use.
 *
 * Target (issue 19, raised from the first issue's 1,000/s): >= 3,000 deliveries/s, and p99 <
 * 250 ms from event to attempt 1 with 1,000 events queued. Target (issue 37): <= 150 µs of this
 * process's CPU per delivery in the throughput phase (`cpuPerDelivery` in the result, beside the
 * bare loop's CPU per request). The last line is one JSON object.
 * The parts: bench/webhooks/ (settings, receiver, measure, baseline, vigil, phases, result, report).
 */

import { log, withTempDir } from "./harness/run.js";
import { fmt } from "./harness/stats.js";
import { baseline } from "./webhooks/baseline.js";
import { bursts, drain, steady, throughput, warmUp } from "./webhooks/phases.js";
import { startReceiver } from "./webhooks/receiver.js";
import { report } from "./webhooks/report.js";
import { checkStoreAndReceiver, webhooksResult } from "./webhooks/result.js";
import {
  BURST,
  CHUNK,
  ENDPOINTS,
  EVENTS,
  SKIP_BASELINE,
  STEADY_RATE,
  STEADY_SECONDS,
} from "./webhooks/settings.js";
import { startVigil } from "./webhooks/vigil.js";

async function main() {
  if (!(EVENTS > 0 && ENDPOINTS > 0 && ENDPOINTS < 1024 && BURST > 0 && CHUNK > 0))
    throw new Error("--events, --burst and --chunk must be positive, --endpoints 1 to 1023");
  if (!(STEADY_RATE > 0 && STEADY_SECONDS > 0))
    throw new Error("--steady-rate and --steady-seconds must be positive");
  return withTempDir("webhooks", async (dataDir, cleanups) => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.stop());
    log(`Receiver: ${receiver.origin}/hook/<n> (HTTPS, child process)`);
    const vigil = await startVigil(dataDir, receiver, cleanups);
    const { concurrency, keys, ca, seq, queries } = vigil;
    let bare: Awaited<ReturnType<typeof baseline>> | undefined;
    if (!SKIP_BASELINE) {
      log(
        `Baseline: bare undici loop, ${fmt(EVENTS * ENDPOINTS)} POSTs, concurrency ${concurrency}`,
      );
      bare = await baseline(
        receiver,
        { origin: receiver.origin, keys, ca },
        concurrency,
        seq,
        queries,
      );
      log(`  ${bare.requestsPerSecond} requests/s, ${bare.cpuMicrosPerItem} µs CPU per request`);
    }
    const vigilFrom = await warmUp(vigil);
    const drained = await drain(vigil);
    const throughputFigures = await throughput(vigil);
    const burstFigures = await bursts(vigil);
    const steadyFigures = await steady(vigil);
    const checked = await checkStoreAndReceiver(vigil, vigilFrom);
    return webhooksResult(concurrency, {
      throughput: throughputFigures,
      drain: drained,
      phases: burstFigures,
      steady: steadyFigures,
      bare,
      checked,
    });
  });
}

report(await main());
