/**
 * npm run bench:api — latency and throughput of the read API over loopback HTTP.
 *
 * 1. Loads ~1,000,000 spans of the demo dataset (BENCH_API_SPANS to change), with their logs,
 *    through the real OTLP endpoint of an in-process service on 127.0.0.1:0, plus a second
 *    project with a tenth of the data so the project filter has work to do.
 * 2. Measures `GET /v1/logs?limit=50` and `GET /v1/traces/:traceId` (cycling through a few
 *    hundred real trace ids of mixed sizes) over keep-alive HTTP from a worker thread, so the
 *    client does not share the service's event loop (load generators: bench/http-load.ts):
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
 *    VIGIL_TELEMETRY_SESSIONS=1 shows the engine as a single lane (bench/api-mixed.ts);
 *    VIGIL_TELEMETRY_MAX_PENDING_READS and VIGIL_TELEMETRY_MAX_READ_WAIT_MS set the read API's
 *    bounds (ADR 0018) for every run.
 * 5. Distinct (issue 19), before run 4: BENCH_API_DISTINCT_RATE (200) requests/s for
 *    BENCH_API_DISTINCT_SECONDS (20), half `GET /v1/logs`, half `GET /v1/traces/:traceId`, every
 *    request a different query (trace id; log window, filter and page), while OTLP ingestion
 *    runs at BENCH_API_DISTINCT_INGEST_SPANS (10,000) spans/s, and the second project reads its
 *    logs at BENCH_API_DISTINCT_QUIET_RATE (5)/s (bench/api-distinct.ts); beside it,
 *    the engine time of one trace lookup: the statements getTrace runs, one after the other,
 *    for each of the trace ids of run 2, three times: the last two passes are the figure (the
 *    engine's query condition cache helps them), each trace's first lookup is reported beside
 *    it. BENCH_API_DISTINCT_ONLY=1 skips runs 2-4.
 *
 * Targets: p99 < 50 ms at 200 requests/s (issue 5); ingest acknowledged p99 < 1 s while the 4
 * long TQL queries run (issue 14); p99 < 50 ms for logs and traces at 200 distinct requests/s
 * with ingestion at 10,000 spans/s, and a trace lookup under 5 ms of engine time on 1,000,000
 * spans (issue 19). The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningService } from "../src/cli/serve.js";
import { type Captured, load, recordingExecutor, settle } from "./api-data.js";
import { distinctTargetMet, reportDistinct, runDistinct } from "./api-distinct.js";
import {
  MIXED_TQL_QUERIES,
  MIXED_TQL_SECONDS,
  type MixedSetup,
  reportMixed,
  runMixed,
} from "./api-mixed.js";
import { type Mode, type ModeFigures, printEndpointTables } from "./api-report.js";
import {
  type ClosedLoopResult,
  closedLoop,
  type HttpClient,
  latencies,
  type OpenLoopResult,
  openLoop,
  round,
  type Send,
  startClient,
} from "./harness/http-load.js";

const SPANS = Number(process.env.BENCH_API_SPANS ?? 1_000_000);
const RATE = Number(process.env.BENCH_API_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_API_WARMUP_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_API_CONCURRENCY ?? 8);
const CLOSED_SECONDS = Number(process.env.BENCH_API_CLOSED_SECONDS ?? 5);
const SERIAL_SECONDS = Number(process.env.BENCH_API_SERIAL_SECONDS ?? 3);
const TRACES = Number(process.env.BENCH_API_TRACES ?? 300);
const TARGET_P99_MS = 50;
const MIXED_ONLY = process.env.BENCH_API_MIXED_ONLY === "1";
const DISTINCT_ONLY = process.env.BENCH_API_DISTINCT_ONLY === "1";
const DISTINCT_RATE = Number(process.env.BENCH_API_DISTINCT_RATE ?? 200);
const DISTINCT_SECONDS = Number(process.env.BENCH_API_DISTINCT_SECONDS ?? 20);
const DISTINCT_INGEST_SPANS = Number(process.env.BENCH_API_DISTINCT_INGEST_SPANS ?? 10_000);
const DISTINCT_LEAD_SECONDS = Number(process.env.BENCH_API_DISTINCT_LEAD_SECONDS ?? 5);
const DISTINCT_QUIET_RATE = Number(process.env.BENCH_API_DISTINCT_QUIET_RATE ?? 5);
const TARGET_TRACE_ENGINE_MS = 5;
const LOGS_PATH = "/v1/logs?limit=50";

// ---------------------------------------------------------------------------------------------
// The benchmark proper (main thread).

const log = (text: string) => process.stderr.write(`${text}\n`);
const fmt = (n: number) => n.toLocaleString("en");

async function main() {
  const { loadConfig } = await import("../src/config/load-config.js");
  const { startService } = await import("../src/cli/serve.js");
  const { createLogger } = await import("../src/lib/logger.js");
  const { initialize } = await import("../src/setup/initialize.js");
  const { createProject } = await import("../src/projects/projects.js");
  const { createApiKey } = await import("../src/auth/api-keys.js");
  const { listLogs, ListLogsQuery } = await import("../src/read/logs.js");
  const { getTrace } = await import("../src/read/traces.js");
  const { createTraceLoader } = await import("../src/read/trace-lookup.js");

  const dataDir = mkdtempSync(join(tmpdir(), "vigil-bench-api-"));
  let service: RunningService | undefined;
  let client: HttpClient | undefined;
  try {
    const config = loadConfig({
      env: {
        VIGIL_DATA_DIR: dataDir,
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
    });
    service = await startService(config, createLogger("warn", process.stderr));
    const { deps } = service;
    const setup = await initialize(deps.domain, {
      email: "bench@example.com",
      password: "bench password 1",
    });
    const apiKey = setup.apiKey ?? "";
    const projectId = setup.projectId;
    const system = { deps: deps.domain, actor: { kind: "system" as const } };
    const other = await createProject({
      ctx: system,
      input: { name: "other", orgId: setup.orgId },
    });
    const otherKey = await createApiKey({
      ctx: system,
      projectId: other.id,
      input: { name: "bench other", role: "full" },
    });

    // 1. The dataset, through the real OTLP endpoint.
    log(`Loading ${fmt(SPANS)} spans (+ ${fmt(Math.round(SPANS / 10))} in a second project)`);
    const loadStarted = performance.now();
    const loaded = await load(service.url, apiKey, SPANS, 42, "project");
    const second = await load(service.url, otherKey.key, Math.round(SPANS / 10), 7, "other");
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const counts = await deps.telemetry.query<{ project_id: string; spans: string }>(
      `SELECT project_id, count() AS spans FROM vigil.traces GROUP BY project_id`,
    );
    const logCounts = await deps.telemetry.query<{ project_id: string; logs: string }>(
      `SELECT project_id, count() AS logs FROM vigil.logs GROUP BY project_id`,
    );
    const storedSpans = Number(counts.find((c) => c.project_id === projectId)?.spans ?? 0);
    const storedLogs = Number(logCounts.find((c) => c.project_id === projectId)?.logs ?? 0);
    const otherSpans = Number(counts.find((c) => c.project_id === other.id)?.spans ?? 0);
    if (storedSpans !== loaded.items.traces)
      throw new Error(`stored ${storedSpans} spans of ${loaded.items.traces} acknowledged`);
    log(
      `Loaded in ${loadSeconds.toFixed(1)} s: ${fmt(storedSpans)} spans and ${fmt(storedLogs)} logs, ` +
        `plus ${fmt(otherSpans)} spans in the second project; waiting for merges to settle`,
    );
    const parts = await settle(deps.telemetry);
    log(`  active parts: ${JSON.stringify(parts)}`);

    // Trace ids: a few hundred, spread over every trace size present, in mixed order.
    const bySize = await deps.telemetry.query<{ spans: string; ids: string[] }>(
      `SELECT spans, groupArray(${TRACES})(trace_id) AS ids FROM (
         SELECT trace_id, count() AS spans FROM vigil.traces WHERE project_id = {p:String}
         GROUP BY trace_id ORDER BY cityHash64(trace_id))
       GROUP BY spans ORDER BY spans`,
      { params: { p: projectId } },
    );
    const traceIds: string[] = [];
    const traceSizes: number[] = [];
    for (let pass = 0; traceIds.length < TRACES; pass++) {
      let added = false;
      for (const group of bySize) {
        const id = group.ids[pass];
        if (id === undefined || traceIds.length >= TRACES) continue;
        traceIds.push(id);
        traceSizes.push(Number(group.spans));
        added = true;
      }
      if (!added) break;
    }
    const sizes = [...traceSizes].sort((a, b) => a - b);
    const traceMix = {
      traces: traceIds.length,
      minSpans: sizes[0] ?? 0,
      medianSpans: sizes[Math.floor(sizes.length / 2)] ?? 0,
      maxSpans: sizes.at(-1) ?? 0,
      distinctSizes: bySize.length,
    };
    log(`Trace ids: ${JSON.stringify(traceMix)}`);
    const tracePaths = traceIds.map((id) => `/v1/traces/${id}`);

    // Sanity: both endpoints answer with what the data holds.
    const headers = { "x-api-key": apiKey };
    const logsPage = (await (await fetch(`${service.url}${LOGS_PATH}`, { headers })).json()) as {
      data: unknown[];
      pagination: { total: number };
    };
    if (logsPage.data.length !== 50 || logsPage.pagination.total !== storedLogs)
      throw new Error(`GET ${LOGS_PATH} answered an unexpected page`);
    const traceCheck = (await (
      await fetch(`${service.url}${tracePaths[0] ?? ""}`, { headers })
    ).json()) as { spanCount: number };
    if (traceCheck.spanCount !== traceSizes[0])
      throw new Error(`GET ${tracePaths[0]} answered ${traceCheck.spanCount} spans`);

    // The exact SQL each verb runs, captured once, for the engine-only baseline.
    const logsQuery = ListLogsQuery.parse({ limit: "50" });
    const captured: Captured[] = [];
    const recording = recordingExecutor(deps.telemetry, captured);
    // Trace lookups go through their own loader: record its statements too (one per lookup here).
    const recordingRead = {
      ...deps.read,
      telemetry: recording,
      traces: createTraceLoader(recording),
    };
    const recordingCtx = { ...system, deps: { ...deps.domain, read: recordingRead } };
    await listLogs({ ctx: recordingCtx, projectId, ...logsQuery });
    const logsSql = captured.splice(0);
    const traceSql: Captured[][] = [];
    for (const id of traceIds) {
      await getTrace({ ctx: recordingCtx, projectId, traceId: id });
      traceSql.push(captured.splice(0));
    }
    const runCaptured = async (queries: Captured[] | undefined) => {
      for (const q of queries ?? []) await deps.telemetry[q.method](q.sql, q.options);
      return true;
    };

    const { hostname, port } = new URL(service.url);
    client = startClient({ host: hostname, port: Number(port), headers: { "x-api-key": apiKey } });

    interface Runner {
      open(seconds: number): Promise<OpenLoopResult>;
      closed(concurrency: number, seconds: number): Promise<ClosedLoopResult>;
    }
    interface EndpointFigures {
      modes: Record<Mode, ModeFigures>;
      httpStatuses: Record<string, number>;
    }
    const http = client;
    const httpRunner = (paths: string[], statuses: Record<string, number>): Runner => {
      const count = (from: Record<string, number>) => {
        for (const [k, v] of Object.entries(from)) statuses[k] = (statuses[k] ?? 0) + v;
      };
      return {
        open: async (seconds) => {
          const answer = await http.open(paths, RATE, seconds);
          count(answer.statuses);
          return answer.result;
        },
        closed: async (concurrency, seconds) => {
          const answer = await http.closed(paths, concurrency, seconds);
          count(answer.statuses);
          return answer.result;
        },
      };
    };
    const directRunner = (send: Send): Runner => ({
      open: (seconds) => openLoop(RATE, seconds, send),
      closed: (concurrency, seconds) => closedLoop(concurrency, seconds, send),
    });
    const endpoints = {
      logs: {
        label: `GET ${LOGS_PATH}`,
        paths: [LOGS_PATH],
        verb: () => listLogs({ ctx: system, projectId, ...logsQuery }).then(() => true),
        engine: () => runCaptured(logsSql),
      },
      trace: {
        label: "GET /v1/traces/:traceId",
        paths: tracePaths,
        verb: (i: number) =>
          getTrace({ ctx: system, projectId, traceId: traceIds[i % traceIds.length] ?? "" }).then(
            () => true,
          ),
        engine: (i: number) => runCaptured(traceSql[i % traceSql.length]),
      },
    };
    const figures: Record<string, EndpointFigures> = {};
    const loadBefore = loadavg()[0] ?? 0;
    for (const [name, endpoint] of MIXED_ONLY || DISTINCT_ONLY ? [] : Object.entries(endpoints)) {
      const httpStatuses: Record<string, number> = {};
      const runners: Record<Mode, Runner> = {
        engine: directRunner(endpoint.engine),
        verb: directRunner(endpoint.verb),
        http: httpRunner(endpoint.paths, httpStatuses),
      };
      const modes: Partial<Record<Mode, ModeFigures>> = {};
      for (const mode of ["engine", "verb", "http"] as const) {
        const runner = runners[mode];
        log(`${endpoint.label} [${mode}]: warm-up and serial service time`);
        await runner.closed(1, WARMUP_SECONDS);
        const serial = await runner.closed(1, SERIAL_SECONDS);
        log(`${endpoint.label} [${mode}]: open loop ${RATE}/s for ${SECONDS} s`);
        const open = await runner.open(SECONDS);
        log(`${endpoint.label} [${mode}]: closed loop, ${CONCURRENCY} concurrent`);
        const closed = await runner.closed(CONCURRENCY, CLOSED_SECONDS);
        modes[mode] = { serial, open, closed };
        log(`  ${JSON.stringify(modes[mode])}`);
      }
      const { http: h, verb, engine } = modes;
      if (!h || !verb || !engine) throw new Error("a run is missing");
      figures[name] = { modes: { http: h, verb, engine }, httpStatuses };
    }

    // The engine time of one trace lookup: its statements one after the other, three passes.
    // The first pass is each trace's first lookup, as a distinct read is; in the next two the
    // engine's query condition cache skips the granules that held nothing the first time.
    const firstMs: number[] = [];
    const lookupMs: number[] = [];
    for (let pass = 0; pass < 3; pass++) {
      for (const statements of traceSql) {
        const started = performance.now();
        await runCaptured(statements);
        (pass === 0 ? firstMs : lookupMs).push(performance.now() - started);
      }
    }
    // Beside it, the floor of any statement on this machine now: `SELECT 1`, as many times.
    const floorMs: number[] = [];
    for (let i = 0; i < lookupMs.length; i++) {
      const started = performance.now();
      await deps.telemetry.query("SELECT 1");
      floorMs.push(performance.now() - started);
    }
    const traceLookupEngine = {
      statements: round(traceSql.reduce((n, s) => n + s.length, 0) / traceSql.length, 2),
      ...latencies(Float64Array.from(lookupMs)),
      firstLookup: latencies(Float64Array.from(firstMs)),
      selectOne: latencies(Float64Array.from(floorMs)),
    };
    log(`Trace lookup, engine time: ${JSON.stringify(traceLookupEngine)}`);

    // 5. Distinct: every read a different query, while ingestion runs.
    log(
      `Distinct: ${DISTINCT_RATE} different reads/s for ${DISTINCT_SECONDS} s, ingest ${fmt(DISTINCT_INGEST_SPANS)} spans/s`,
    );
    /** The read API's refusals so far (vigil_telemetry_reads_refused_total), by reason. */
    const refusals = async () =>
      Object.fromEntries(
        (await deps.metrics.telemetryReadsRefused.get()).values.map((v) => [
          String(v.labels.reason),
          v.value,
        ]),
      ) as Record<string, number>;
    const refusedBefore = await refusals();
    const distinct = MIXED_ONLY
      ? undefined
      : await runDistinct({
          host: hostname,
          port: Number(port),
          readKey: apiKey,
          ingestKey: apiKey,
          telemetry: deps.telemetry,
          projectId,
          rate: DISTINCT_RATE,
          seconds: DISTINCT_SECONDS,
          ingestSpansPerSecond: DISTINCT_INGEST_SPANS,
          ingestLeadSeconds: DISTINCT_LEAD_SECONDS,
          quiet: { key: otherKey.key, projectId: other.id, rate: DISTINCT_QUIET_RATE },
        });
    log(`  ${JSON.stringify(distinct)}`);
    const distinctRefused = Object.fromEntries(
      Object.entries(await refusals()).map(([reason, n]) => [
        reason,
        n - (refusedBefore[reason] ?? 0),
      ]),
    );
    log(
      `  refused by reason (pending: the count bound; wait: the wait bound): ${JSON.stringify(distinctRefused)}`,
    );

    // 4. Mixed: ingestion and reads while long TQL queries hold engine sessions, beside the
    // same ingestion and reads with no TQL query running (the baseline).
    const mixedSetup: MixedSetup = {
      url: service.url,
      keys: [apiKey, otherKey.key],
      readClient: http,
      // OTLP partial success: an answer naming rejected items is an error.
      ingestClient: startClient({
        host: hostname,
        port: Number(port),
        headers: { "x-api-key": otherKey.key, "content-type": "application/x-protobuf" },
        badIfIncludes: "rejected",
      }),
      readPaths: tracePaths,
      sessions: config.telemetry.sessions,
    };
    const mixedBaseline = DISTINCT_ONLY ? undefined : await runMixed(mixedSetup, 0);
    const mixed = DISTINCT_ONLY ? undefined : await runMixed(mixedSetup, MIXED_TQL_QUERIES);
    await mixedSetup.ingestClient.stop();

    // Report.
    const ms = (n: number) => n.toFixed(2);
    const entries = Object.entries(figures).map(
      ([name, f]) => [name, endpoints[name as keyof typeof endpoints].label, f.modes] as const,
    );
    const summary: Record<string, unknown> = {};
    // No endpoint run (BENCH_API_DISTINCT_ONLY / BENCH_API_MIXED_ONLY): nothing was met.
    let met: boolean | null = entries.length > 0 ? true : null;
    for (const [name, , m] of entries) {
      const targetMet =
        m.http.open.p99 < TARGET_P99_MS &&
        m.http.open.errors === 0 &&
        m.http.open.achievedRate >= RATE * 0.95;
      met &&= targetMet;
      summary[name] = {
        ...figures[name],
        ratios: {
          openHttpToEngineP50: round(m.http.open.p50 / m.engine.open.p50, 3),
          openHttpToEngineP99: round(m.http.open.p99 / m.engine.open.p99, 3),
          openHttpToVerbP99: round(m.http.open.p99 / m.verb.open.p99, 3),
          serialHttpToEngineMean: round(m.http.serial.mean / m.engine.serial.mean, 3),
          closedHttpToEngineThroughput: round(
            m.http.closed.requestsPerSecond / m.engine.closed.requestsPerSecond,
            3,
          ),
        },
        /** Share of the engine's one lane the queries need at the target rate (>= 1: unbounded queue). */
        engineUtilizationAtRate: round((RATE * m.engine.serial.mean) / 1000, 3),
        targetMet,
      };
    }

    console.log(
      `Read API over loopback HTTP: ${fmt(storedSpans)} spans, ${fmt(storedLogs)} logs (+ ${fmt(otherSpans)} spans in another project), ` +
        `loaded through OTLP in ${loadSeconds.toFixed(1)} s; traces: ${traceMix.traces} ids, ${traceMix.minSpans}-${traceMix.maxSpans} spans (median ${traceMix.medianSpans})`,
    );
    if (met !== null) {
      printEndpointTables(entries, { rate: RATE, seconds: SECONDS, concurrency: CONCURRENCY });
      console.log(
        `HTTP statuses: ${entries.map(([name]) => `${name} ${JSON.stringify(figures[name]?.httpStatuses)}`).join(", ")}`,
      );
      console.log(
        `Target p99 < ${TARGET_P99_MS} ms at ${RATE} requests/s over HTTP: ${met ? "met" : "NOT met"} ` +
          `(${entries.map(([name, , m]) => `${name} p99 ${ms(m.http.open.p99)} ms at ${m.http.open.achievedRate}/s`).join(", ")})`,
      );
    }
    if (mixed && mixedBaseline) reportMixed(mixed, mixedBaseline);
    const distinctMet = distinct !== undefined && distinctTargetMet(distinct, TARGET_P99_MS);
    if (distinct)
      reportDistinct(distinct, traceLookupEngine, TARGET_P99_MS, TARGET_TRACE_ENGINE_MS);
    console.log(
      JSON.stringify({
        bench: "api",
        mixed,
        mixedBaseline,
        spans: storedSpans,
        logs: storedLogs,
        otherProjectSpans: otherSpans,
        load: {
          seconds: round(loadSeconds, 1),
          spansPerSecond: Math.round((loaded.items.traces + second.items.traces) / loadSeconds),
          parts,
        },
        rate: RATE,
        seconds: SECONDS,
        concurrency: CONCURRENCY,
        warmupSeconds: WARMUP_SECONDS,
        loadAverage1m: { before: round(loadBefore), after: round(loadavg()[0] ?? 0) },
        serialSeconds: SERIAL_SECONDS,
        closedSeconds: CLOSED_SECONDS,
        traceMix,
        endpoints: summary,
        target: { p99Ms: TARGET_P99_MS, rate: RATE },
        targetMet: met,
        distinct,
        distinctRefused,
        traceLookupEngineMs: traceLookupEngine,
        distinctTarget: {
          p99Ms: TARGET_P99_MS,
          rate: DISTINCT_RATE,
          ingestSpansPerSecond: DISTINCT_INGEST_SPANS,
          traceLookupEngineMs: TARGET_TRACE_ENGINE_MS,
        },
        distinctTargetMet: distinctMet && traceLookupEngine.mean < TARGET_TRACE_ENGINE_MS,
      }),
    );
  } finally {
    await client?.stop();
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
