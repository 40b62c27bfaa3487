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
 * The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startService } from "../src/cli/serve.js";
import { loadConfig } from "../src/config/load-config.js";
import { systemClock } from "../src/lib/clock.js";
import { createLogger } from "../src/lib/logger.js";
import { createPeriodicScheduler } from "../src/lib/periodic-scheduler.js";
import { newAlertRuleRecord } from "../src/meta/repositories/alert-rules.js";
import { initialize } from "../src/setup/initialize.js";
import { compileTql } from "../src/tql/compile.js";
import { GUARD_SETTINGS, PROJECT_PARAM } from "../src/tql/printer.js";
import { printTable } from "./harness/table.js";

const SPANS = Number(process.env.BENCH_ALERTS_SPANS ?? 1_000_000);
const RULES = Number(process.env.BENCH_ALERTS_RULES ?? 1000);
const MINUTES = Number(process.env.BENCH_ALERTS_MINUTES ?? 2);
const INGEST_RATE = Number(process.env.BENCH_ALERTS_INGEST_RATE ?? 10);
const BATCH = Number(process.env.BENCH_ALERTS_BATCH ?? 100);
const TARGET_LAG_P99_S = 5;
/** BENCH_ALERTS_BURST=0 skips the burst beside bare. */
const BURST = process.env.BENCH_ALERTS_BURST !== "0";

const log = (text: string) => process.stderr.write(`${text}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[
    Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))
  ] as number;
}
const stats = (values: readonly number[]) => ({
  n: values.length,
  p50: round(percentile(values, 50), 2),
  p99: round(percentile(values, 99), 2),
  max: round(Math.max(...values), 2),
});

const SERVICES = [
  "gateway",
  "orders",
  "users",
  "payments",
  "assistant",
  "web",
  "inventory",
  "search",
];
const OPERATIONS = [
  "GET /api/orders",
  "POST /api/checkout",
  "SELECT orders",
  "GET /api/users/{id}",
];

/** Five kinds of alert query; `i` varies thresholds and filters so the 1,000 rules differ. */
function ruleQuery(i: number): { query: string; threshold: number } {
  switch (i % 5) {
    case 0:
      return {
        query: `SELECT service_name AS service, countIf(status = 'error') / count() AS value FROM traces WHERE timestamp > now() - INTERVAL 5 MINUTE GROUP BY service`,
        threshold: 0.015 + (i % 10) / 1000,
      };
    case 1:
      return {
        query: `SELECT quantile(0.95)(duration_ms) AS value FROM traces WHERE timestamp > now() - INTERVAL 5 MINUTE AND operation_name = '${OPERATIONS[i % OPERATIONS.length]}'`,
        threshold: 300 + (i % 200),
      };
    case 2:
      return {
        query: `SELECT http_route AS route, countIf(http_status_code >= 500) AS value FROM traces WHERE timestamp > now() - INTERVAL 15 MINUTE AND http_route != '' GROUP BY route`,
        threshold: 50 + (i % 100),
      };
    case 3:
      return {
        query: `SELECT service_name AS service, max(duration_ms) AS value FROM traces WHERE timestamp > now() - INTERVAL 1 HOUR AND service_name = '${SERVICES[i % SERVICES.length]}' GROUP BY service`,
        threshold: 4000 + (i % 1000),
      };
    default:
      return {
        query: `SELECT count() AS value FROM traces WHERE timestamp > now() - INTERVAL 1 MINUTE`,
        threshold: 1000 + i,
      };
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-alerts-"));
  const config = loadConfig({
    env: {
      VIGIL_DATA_DIR: dir,
      VIGIL_HOST: "127.0.0.1",
      VIGIL_PORT: "0",
      VIGIL_GRPC_ENABLED: "false",
      VIGIL_LOG_LEVEL: "warn",
      // The bench drives the engine with its own scheduler, to see each evaluation's lag.
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_INGEST_RATE_LIMIT_PER_MINUTE: "100000",
    },
  });
  const concurrency = config.alerts.concurrency;
  const service = await startService(config, createLogger("warn"));
  const { deps } = service;
  try {
    const admin = await initialize(deps.domain, {
      email: "bench@example.com",
      password: "bench password 1",
    });
    const projectId = admin.projectId;
    const key = admin.apiKey ?? "";
    const telemetry = deps.telemetry;

    let started = performance.now();
    for (let offset = 0; offset < SPANS; offset += 500_000) {
      const count = Math.min(500_000, SPANS - offset);
      await telemetry.command(
        `INSERT INTO ${telemetry.database}.traces (project_id, timestamp, end_timestamp, trace_id, span_id, parent_span_id,
          operation_name, span_kind, service_name, duration_ns, duration_ms, status, http_method, http_route,
          http_status_code, source)
        SELECT {project:String}, now64(9) - toIntervalMillisecond(rand(1) % 3600000) AS ts, ts + toIntervalMillisecond(d),
          lower(hex(cityHash64(intDiv(n, 8)))) || lower(hex(cityHash64(intDiv(n, 8) + 1))), lower(hex(cityHash64(n, 7))),
          if(n % 8 = 0, '', lower(hex(cityHash64(n - 1, 7)))),
          ['GET /api/orders', 'POST /api/checkout', 'SELECT orders', 'GET /api/users/{id}'][n % 4 + 1],
          if(n % 8 = 0, 'server', 'internal'),
          ['gateway', 'orders', 'users', 'payments', 'assistant', 'web', 'inventory', 'search'][n % 8 + 1],
          toUInt64(d * 1000000), toFloat64(d), if(rand(2) % 50 = 0, 'error', 'ok'),
          if(n % 8 = 0, 'GET', ''), if(n % 8 = 0, ['/api/orders', '/api/checkout', '/api/users/{id}'][n % 3 + 1], ''),
          if(n % 8 = 0, [200, 200, 200, 201, 404, 500][rand(3) % 6 + 1], 0), 'backend'
        FROM (SELECT number + {offset:UInt64} AS n, 1 + (rand(4) % 400) + if(rand(5) % 100 = 0, rand(6) % 5000, 0) AS d
              FROM numbers({count:UInt64}))`,
        { params: { project: projectId, offset, count } },
      );
    }
    log(
      `dataset: ${SPANS.toLocaleString("en")} spans in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const at = new Date().toISOString();
    const ruleIds: string[] = [];
    for (let i = 0; i < RULES; i++) {
      const { query, threshold } = ruleQuery(i);
      const id = `alr_bench${String(i).padStart(5, "0")}`;
      ruleIds.push(id);
      await deps.meta.repos.alertRules.insert(
        newAlertRuleRecord({
          id,
          projectId,
          name: `bench rule ${i}`,
          description: "",
          severity: "medium",
          definition: {
            preset: null,
            condition: { op: ">", threshold },
            interval: "1m",
            forSeconds: 60,
            noData: "ok",
            renotifyMinutes: 0,
            openIncident: false,
            messageTemplate: "{{value}} > {{threshold}}",
          },
          query,
          channelIds: [],
          at,
        }),
      );
    }

    // Ingest running throughout: demo OTLP exports, open loop, each timed until acknowledged.
    const { demoRequests } = await import("../src/demo/generator.js");
    const { encodeRequest } = await import("../src/ingest/otlp/codec.js");
    const bodies: Uint8Array[] = [];
    for (const request of demoRequests({
      spans: 20 * BATCH,
      batchSpans: BATCH,
      windowMs: 60_000,
      nowMs: Date.now(),
      seed: 7,
    }))
      if (request.signal === "traces") bodies.push(encodeRequest("traces", request.body));
    let ingesting = true;
    const ingestMs: number[] = [];
    let ingestErrors = 0;
    const inflight = new Set<Promise<void>>();
    const ingestLoop = (async () => {
      let n = 0;
      const t0 = performance.now();
      while (ingesting) {
        const due = t0 + (n * 1000) / INGEST_RATE;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const body = bodies[n % bodies.length] as Uint8Array;
        n++;
        const sent = (async () => {
          const response = await fetch(`${service.url}/v1/traces`, {
            method: "POST",
            headers: { "x-api-key": key, "content-type": "application/x-protobuf" },
            body,
          });
          await response.arrayBuffer();
          if (response.status === 200) ingestMs.push(performance.now() - due);
          else ingestErrors++;
        })().catch(() => {
          ingestErrors++;
        });
        inflight.add(sent);
        void sent.finally(() => inflight.delete(sent));
      }
    })();

    // 2. Scheduled.
    const lagS: number[] = [];
    const recordedLagS: number[] = [];
    const evalMs: number[] = [];
    const queryMs: number[] = [];
    let errors = 0;
    let fired = 0;
    let lastLag = 0;
    const scheduler = createPeriodicScheduler({
      what: "alert rule",
      runner: {
        async run(id) {
          const lag = lastLag;
          const t = performance.now();
          const result = await deps.alerts.engine.evaluate(id);
          const ms = performance.now() - t;
          lagS.push(lag);
          recordedLagS.push(lag + ms / 1000);
          evalMs.push(ms);
          if (result) {
            queryMs.push(result.durationMs);
            if (result.plan.lastError) errors++;
            fired += result.plan.changes.filter((c) => c.kind === "fired").length;
          }
          return result;
        },
        isRunning: (id) => deps.alerts.engine.isRunning(id),
        idle: () => deps.alerts.engine.idle(),
      },
      listActive: async () => ruleIds.map((id) => ({ id, periodMs: 60_000 })),
      clock: systemClock,
      concurrency,
      logger: deps.logger,
      // Called just before run() for the same job: the lag of the evaluation about to start.
      onLag: (seconds) => {
        lastLag = seconds;
      },
    });
    log(
      `scheduled: ${RULES} rules at 1 min, concurrency ${concurrency}, for ${MINUTES} min, ingest ${INGEST_RATE}/s × ${BATCH} spans`,
    );
    const ingestBefore = ingestMs.length;
    started = performance.now();
    await scheduler.start();
    await new Promise((resolve) => setTimeout(resolve, MINUTES * 60_000));
    await scheduler.stop();
    const scheduledSeconds = (performance.now() - started) / 1000;
    const scheduledIngest = ingestMs.slice(ingestBefore);
    const engineShare = queryMs.reduce((a, b) => a + b, 0) / evalMs.reduce((a, b) => a + b, 0);

    // 3. Burst through the engine, then the same queries bare, both at the same concurrency.
    async function pool<T>(items: readonly T[], run: (item: T, index: number) => Promise<void>) {
      let next = 0;
      const t = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < items.length) {
            const index = next++;
            await run(items[index] as T, index);
          }
        }),
      );
      return (performance.now() - t) / 1000;
    }
    const settings = {
      ...GUARD_SETTINGS,
      max_execution_time: config.tql.maxExecutionSeconds,
      readonly: 1,
      os_thread_priority: 19,
      output_format_json_quote_64bit_integers: 1,
    };
    const burstMs: number[] = [];
    const bareMs: number[] = [];
    const burst = () =>
      pool(ruleIds, async (id) => {
        const t = performance.now();
        await deps.alerts.engine.evaluate(id);
        burstMs.push(performance.now() - t);
      });
    const bare = () =>
      pool(ruleIds, async (_id, index) => {
        const { query } = ruleQuery(index);
        const { sql, params } = compileTql(query, { database: telemetry.database, rowCap: 10_001 });
        const t = performance.now();
        await telemetry.queryCompact(sql, {
          params: { ...params, [PROJECT_PARAM]: projectId },
          settings,
          adHoc: true,
        });
        bareMs.push(performance.now() - t);
      });
    // A warm-up slice, then bare, the TQL service alone, the engine, and bare again.
    log(
      `scheduled done: lag p99 ${round(percentile(lagS, 99), 2)} s over ${lagS.length} evaluations; burst beside bare`,
    );
    await pool(ruleIds.slice(0, Math.min(50, RULES)), async (_id, index) => {
      const { query } = ruleQuery(index);
      const { sql, params } = compileTql(query, { database: telemetry.database, rowCap: 10_001 });
      await telemetry.queryCompact(sql, {
        params: { ...params, [PROJECT_PARAM]: projectId },
        settings,
        adHoc: true,
      });
    });
    // The rule's query through the TQL service alone (no recording): where the engine's time goes.
    const tqlMs: number[] = [];
    const tqlOnly = () =>
      pool(ruleIds, async (_id, index) => {
        const t = performance.now();
        await deps.tql.queryForAlert(projectId, ruleQuery(index).query);
        tqlMs.push(performance.now() - t);
      });
    const bareFirst = BURST ? await bare() : Number.NaN;
    const tqlWall = BURST ? await tqlOnly() : Number.NaN;
    const burstWall = BURST ? await burst() : Number.NaN;
    const bareWall = BURST ? await bare() : Number.NaN;
    ingesting = false;
    await ingestLoop;
    await Promise.allSettled([...inflight]);

    const lag = stats(lagS);
    const result = {
      spans: SPANS,
      rules: RULES,
      minutes: MINUTES,
      concurrency,
      ingestRate: INGEST_RATE,
      batchSpans: BATCH,
      scheduled: {
        evaluations: evalMs.length,
        perSecond: round(evalMs.length / scheduledSeconds, 1),
        errors,
        fired,
        lagSeconds: lag,
        recordedLagSeconds: stats(recordedLagS),
        evaluationMs: stats(evalMs),
        queryMs: stats(queryMs),
        engineSharePct: round(engineShare * 100, 1),
        ingestAckMs: stats(scheduledIngest),
        ingestErrors,
      },
      burst: { wallSeconds: round(burstWall, 2), evaluationMs: stats(burstMs) },
      tqlOnly: { wallSeconds: round(tqlWall, 2), queryMs: stats(tqlMs) },
      bare: {
        wallSeconds: round(bareWall, 2),
        firstWallSeconds: round(bareFirst, 2),
        queryMs: stats(bareMs),
      },
      burstOverBarePct: round((burstWall / bareWall - 1) * 100, 1),
      targetLagP99Seconds: TARGET_LAG_P99_S,
      meetsTarget: lag.p99 < TARGET_LAG_P99_S,
    };
    printTable(
      ["measure", "n", "p50", "p99", "max"],
      [
        ["lag, slot → start (s)", ...Object.values(lag).map(String)],
        [
          "lag, slot → recorded (s)",
          ...Object.values(result.scheduled.recordedLagSeconds).map(String),
        ],
        ["evaluation (ms)", ...Object.values(result.scheduled.evaluationMs).map(String)],
        ["of which query (ms)", ...Object.values(result.scheduled.queryMs).map(String)],
        ["ingest ack (ms)", ...Object.values(result.scheduled.ingestAckMs).map(String)],
        ["burst evaluation (ms)", ...Object.values(result.burst.evaluationMs).map(String)],
        ["TQL service only (ms)", ...Object.values(result.tqlOnly.queryMs).map(String)],
        ["bare query (ms)", ...Object.values(result.bare.queryMs).map(String)],
      ],
    );
    console.log(
      `scheduled: ${result.scheduled.evaluations} evaluations (${result.scheduled.perSecond}/s), engine share ${result.scheduled.engineSharePct} %, ${errors} errors, ${fired} fires; lag p99 ${lag.p99} s (target < ${TARGET_LAG_P99_S} s)`,
    );
    console.log(
      `burst of ${RULES}: bare ${result.bare.firstWallSeconds} s, TQL service only ${result.tqlOnly.wallSeconds} s, engine ${result.burst.wallSeconds} s, bare again ${result.bare.wallSeconds} s (engine ${result.burstOverBarePct} % over bare)`,
    );
    console.log(JSON.stringify(result));
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
