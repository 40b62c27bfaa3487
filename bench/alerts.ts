/**
 * npm run bench:alerts — alert evaluation at scale (issue 15).
 *
 * 1. An in-process service on a temp data dir (chDB + SQLite), BENCH_ALERTS_SPANS spans (1M) of
 *    one project generated in the engine over the last hour (as bench:tql does), and
 *    BENCH_ALERTS_RULES alert rules (1,000) at a 1 min interval: five kinds of typical alert
 *    queries (error rate and max latency by service, an operation's p95, 5xx by route, span
 *    count), thresholds set so that some series fire.
 * 2. Scheduled: the periodic scheduler drives the service's alert engine for
 *    BENCH_ALERTS_MINUTES (2) at VIGIL_ALERTS_CONCURRENCY (the config default), while OTLP/HTTP
 *    exports of BENCH_ALERTS_BATCH (100) demo spans arrive at BENCH_ALERTS_INGEST_RATE (10/s).
 *    Reports the evaluation lag (slot → start; target p99 < 5 s), slot → recorded, evaluation
 *    time, and the engine share (time in the query / time of the whole evaluation).
 * 3. Burst beside bare: every rule evaluated at once through the engine (same concurrency),
 *    beside the same queries run bare (compiled SQL straight on the executor, no recording) and
 *    through the TQL service alone, with ingest still running, in the order bare, TQL, engine,
 *    bare: wall time and per-query p50/p99 of each (BENCH_ALERTS_BURST=0 skips).
 *
 * The last line is one JSON object. The parts: bench/alerts/.
 */
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { burstPhase } from "./alerts/burst.js";
import { generateSpans, insertRules } from "./alerts/dataset.js";
import { startIngest } from "./alerts/ingest-load.js";
import { report } from "./alerts/result.js";
import { scheduledPhase } from "./alerts/scheduled.js";
import { startInProcessService } from "./harness/in-process-service.js";
import { withTempDir } from "./harness/run.js";

async function main() {
  await withTempDir("alerts", async (dir, cleanups) => {
    const service = await startInProcessService(
      dir,
      {
        VIGIL_HOST: "127.0.0.1",
        VIGIL_PORT: "0",
        VIGIL_GRPC_ENABLED: "false",
        VIGIL_LOG_LEVEL: "warn",
        // The bench drives the engine with its own scheduler, to see each evaluation's lag.
        VIGIL_ALERTS_ENABLED: "false",
        VIGIL_INGEST_RATE_LIMIT_PER_MINUTE: "100000",
      },
      cleanups,
      "stdout",
    );
    const { deps } = service;
    const concurrency = deps.config.alerts.concurrency;
    const admin = await initialize({
      ctx: systemCtx(deps.domain),
      input: { email: "bench@example.com", password: "bench password 1" },
    });
    const { projectId } = admin;
    await generateSpans(deps, projectId);
    const ruleIds = await insertRules(deps, projectId);
    const ingest = startIngest(service.url, admin.apiKey ?? "");
    const scheduled = await scheduledPhase(deps, ruleIds, concurrency, ingest.ingestMs);
    const burst = await burstPhase(deps, projectId, ruleIds, concurrency, scheduled.lagS);
    await ingest.stop();
    report({ concurrency, scheduled, burst, ingestErrors: ingest.errors() });
  });
}

await main();
