/**
 * npm run bench:api — latency and throughput of the read API over loopback HTTP.
 *
 * 1. Loads ~1,000,000 spans of the demo dataset (BENCH_API_SPANS to change), with their logs,
 *    through the real OTLP endpoint of an in-process service on 127.0.0.1:0, plus a second
 *    project with a tenth of the data so the project filter has work to do.
 * 2. Measures `GET /v1/logs?limit=50` and `GET /v1/traces/:traceId` (cycling through a few
 *    hundred real trace ids of mixed sizes) over keep-alive HTTP from a worker thread, so the
 *    client does not share the service's event loop (load generators: bench/harness/http-load.ts):
 *    - open loop: a constant arrival rate (BENCH_API_RATE, 200/s) for BENCH_API_SECONDS (20)
 *      after a warm-up; latency is measured from each request's scheduled send time, so a
 *      stalled service shows up as latency instead of as fewer requests (no coordinated
 *      omission); non-200 answers are errors;
 *    - closed loop: the sustained maximum with BENCH_API_CONCURRENCY (8) connections.
 * 3. Baseline, in the same run and process, on the same running service: the same queries at
 *    the same open-loop rate without HTTP — "engine": the exact SQL the verb runs, through the
 *    service's `deps.telemetry` executor; "verb": the domain verb (listLogs / getTrace) itself.
 *
 * 4. Mixed (issue 14): while 4 long TQL queries run (2 per project, each stopped by the time
 *    limit, BENCH_API_MIXED_TQL_SECONDS, 10), OTLP trace exports from the second project at
 *    BENCH_API_MIXED_INGEST_RATE (20/s, 100 spans each) and distinct trace reads at
 *    BENCH_API_MIXED_READ_RATE (50/s), open loop, for BENCH_API_MIXED_SECONDS (20; no TQL query
 *    starts after that); reports how soon ingestion is acknowledged and read latency, beside
 *    the same ingestion and reads with no TQL query running (the baseline).
 *    BENCH_API_MIXED_TQL_QUERIES changes the 4; BENCH_API_MIXED_ONLY=1 skips runs 2-3 and 5;
 *    VIGIL_TELEMETRY_SESSIONS=1 shows the engine as a single lane (bench/api/mixed.ts);
 *    VIGIL_TELEMETRY_MAX_PENDING_READS and VIGIL_TELEMETRY_MAX_READ_WAIT_MS set the read API's
 *    bounds (ADR 0018) for every run.
 * 5. Distinct (issues 19, 37), before run 4: BENCH_API_DISTINCT_RATE (250) requests/s for
 *    BENCH_API_DISTINCT_SECONDS (20), half `GET /v1/logs`, half `GET /v1/traces/:traceId`, every
 *    request a different query (trace id; log window, filter and page), while OTLP ingestion
 *    runs at BENCH_API_DISTINCT_INGEST_SPANS (10,000) spans/s, and the second project reads its
 *    logs at BENCH_API_DISTINCT_QUIET_RATE (5)/s (bench/api/distinct.ts); beside it,
 *    the engine time of one trace lookup: the statements getTrace runs, one after the other,
 *    for each of the trace ids of run 2, three times: the last two passes are the figure (the
 *    engine's query condition cache helps them), each trace's first lookup is reported beside
 *    it. Before it, its baselines: the second project's reads alone (the control of the tenant
 *    next door), and other queries drawn the same way, the read verbs straight on the engine
 *    executor with no HTTP, authentication or read admission, beside the same ingestion.
 *    BENCH_API_DISTINCT_ONLY=1 skips runs 2-4.
 *
 * Targets: p99 < 50 ms at 200 requests/s (issue 5); ingest acknowledged p99 < 1 s while the 4
 * long TQL queries run (issue 14); p99 < 50 ms for logs and traces at 200 distinct requests/s
 * with ingestion at 10,000 spans/s, and a trace lookup under 5 ms of engine time on 1,000,000
 * spans (issue 19); read capacity (issue 37): at least 250 distinct reads answered a second with
 * p99 < 200 ms for those answered, beside 10,000 spans/s, reported with the same figure straight
 * on the engine (`readCapacity`). The last line is one JSON object.
 * The parts: bench/api/ (settings, dataset, trace mix, captured SQL, endpoints, phases, data,
 * distinct, distinct-report, mixed, report, api-result).
 */
import { loadavg } from "node:os";
import { report } from "./api/api-result.js";
import { captureSql } from "./api/captured-sql.js";
import { loadDataset } from "./api/dataset.js";
import { measureEndpoints, readEndpoints } from "./api/endpoints.js";
import { MIXED_TQL_SECONDS } from "./api/mixed.js";
import { distinctPhase, mixedPhase, traceLookupEngineTime } from "./api/phases.js";
import { pickTraces } from "./api/trace-mix.js";
import { startClient } from "./harness/http-load.js";
import { startInProcessService } from "./harness/in-process-service.js";
import { withTempDir } from "./harness/run.js";

async function main() {
  await withTempDir("api", async (dataDir, cleanups) => {
    const service = await startInProcessService(
      dataDir,
      {
        VIGIL_HOST: "127.0.0.1",
        VIGIL_PORT: "0",
        VIGIL_GRPC_ENABLED: "false",
        VIGIL_LOG_LEVEL: "warn",
        VIGIL_RATE_LIMIT_PER_MINUTE: "1000000",
        VIGIL_INGEST_RATE_LIMIT_PER_MINUTE: "10000000",
        // Every client is on loopback: an overloaded service must show as latency, not resets.
        VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: "8192",
        VIGIL_TQL_MAX_EXECUTION_SECONDS: String(MIXED_TQL_SECONDS),
        ...Object.fromEntries(
          [
            "VIGIL_TELEMETRY_SESSIONS",
            "VIGIL_TELEMETRY_MAX_PENDING_READS",
            "VIGIL_TELEMETRY_MAX_READ_WAIT_MS",
          ].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
        ),
      },
      cleanups,
    );
    const dataset = await loadDataset(service);
    const traces = await pickTraces(service, dataset);
    const sql = await captureSql(dataset, traces.traceIds);
    const { hostname, port } = new URL(service.url);
    const headers = { "x-api-key": dataset.apiKey };
    const client = startClient({ host: hostname, port: Number(port), headers });
    cleanups.push(() => client.stop());
    const endpoints = readEndpoints(dataset, traces, sql);
    const loadBefore = loadavg()[0] ?? 0;
    const figures = await measureEndpoints(client, endpoints);
    const traceLookupEngine = await traceLookupEngineTime(dataset, sql);
    const distinct = await distinctPhase(service, dataset);
    const mixed = await mixedPhase(service, dataset, client, traces);
    report({ dataset, traces, endpoints, figures, loadBefore, traceLookupEngine, distinct, mixed });
  });
}

await main();
