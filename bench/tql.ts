/**
 * npm run bench:tql — what TQL costs on top of the engine.
 *
 * 1. Compile time: parse + analyze + print of every conformance-corpus query under 2 KB,
 *    many times each; reports p50/p99 per compile (target p99 < 1 ms).
 * 2. Query overhead: ten typical dashboard queries through the TQL service on a synthetic
 *    10M-span project (BENCH_TQL_SPANS to change), beside the same SQL written by hand against
 *    the raw tables with an explicit project filter and run directly on the engine, in the same
 *    run, interleaved (target: TQL median ≤ 1.05 × direct median). The dataset holds a second
 *    project with a tenth of the rows, so the project filter has work to do.
 *
 * The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { compileTql } from "../src/tql/compile.js";
import { createTqlService } from "../src/tql/tql-service.js";
import { CORPUS } from "../test/tql/corpus.js";
import { insertSyntheticSpans } from "./harness/synthetic-spans.js";

const SPANS = Number(process.env.BENCH_TQL_SPANS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_TQL_RUNS ?? 15);
const COMPILE_ITERATIONS = Number(process.env.BENCH_TQL_COMPILE_ITERATIONS ?? 200);
const PROJECT = "proj_bench";
const OTHER = "proj_bench_other";
const DATABASE = "vigil";

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

function benchCompile() {
  const queries = CORPUS.filter((entry) => !entry.skip && entry.tql.length < 2048).map(
    (e) => e.tql,
  );
  const timings: number[] = [];
  for (const query of queries) {
    for (let i = 0; i < 20; i++) compileOrNull(query);
    for (let i = 0; i < COMPILE_ITERATIONS; i++) {
      const started = performance.now();
      compileOrNull(query);
      timings.push(performance.now() - started);
    }
  }
  timings.sort((a, b) => a - b);
  return {
    queries: queries.length,
    compiles: timings.length,
    p50Ms: round(percentile(timings, 50), 4),
    p99Ms: round(percentile(timings, 99), 4),
    maxMs: round(timings.at(-1) ?? 0, 4),
  };
}

function compileOrNull(query: string) {
  try {
    return compileTql(query, { database: DATABASE, rowCap: 10_001 });
  } catch {
    return null;
  }
}

interface DashboardQuery {
  name: string;
  tql: string;
  /** The same query by hand on the raw table, with the project filter written out. */
  direct: string;
}

const RAW = `${DATABASE}.traces`;
const WHERE = `project_id = '${PROJECT}'`;

const QUERIES: DashboardQuery[] = [
  {
    name: "count last hour",
    tql: "SELECT count() FROM traces WHERE timestamp > now() - INTERVAL 1 HOUR",
    direct: `SELECT count() FROM ${RAW} WHERE ${WHERE} AND timestamp > now() - INTERVAL 1 HOUR`,
  },
  {
    name: "requests and errors by service",
    tql: "SELECT service_name, count() AS requests, countIf(status = 'error') AS errors FROM traces WHERE timestamp > now() - INTERVAL 6 HOUR GROUP BY service_name ORDER BY requests DESC",
    direct: `SELECT service_name, count() AS requests, countIf(status = 'error') AS errors FROM ${RAW} WHERE ${WHERE} AND timestamp > now() - INTERVAL 6 HOUR GROUP BY service_name ORDER BY requests DESC`,
  },
  {
    name: "p95 latency by operation",
    tql: "SELECT operation_name, round(quantile(0.95)(duration_ms), 2) AS p95 FROM traces WHERE timestamp > now() - INTERVAL 24 HOUR GROUP BY operation_name ORDER BY p95 DESC LIMIT 10",
    direct: `SELECT operation_name, round(quantile(0.95)(duration_ms), 2) AS p95 FROM ${RAW} WHERE ${WHERE} AND timestamp > now() - INTERVAL 24 HOUR GROUP BY operation_name ORDER BY p95 DESC LIMIT 10`,
  },
  {
    name: "throughput per minute",
    tql: "SELECT toStartOfMinute(timestamp) AS minute, count() AS spans FROM traces WHERE timestamp > now() - INTERVAL 3 HOUR GROUP BY minute ORDER BY minute",
    direct: `SELECT toStartOfMinute(timestamp) AS minute, count() AS spans FROM ${RAW} WHERE ${WHERE} AND timestamp > now() - INTERVAL 3 HOUR GROUP BY minute ORDER BY minute`,
  },
  {
    name: "error rate per service per hour",
    tql: "SELECT toStartOfHour(timestamp) AS hour, service_name, round(countIf(status = 'error') / count() * 100, 2) AS error_pct FROM traces GROUP BY hour, service_name ORDER BY hour, service_name",
    direct: `SELECT toStartOfHour(timestamp) AS hour, service_name, round(countIf(status = 'error') / count() * 100, 2) AS error_pct FROM ${RAW} WHERE ${WHERE} GROUP BY hour, service_name ORDER BY hour, service_name`,
  },
  {
    name: "slowest routes",
    tql: "SELECT http_method, http_route, count() AS n, avg(duration_ms) AS avg_ms, max(duration_ms) AS max_ms FROM traces WHERE http_route != '' GROUP BY http_method, http_route ORDER BY avg_ms DESC LIMIT 20",
    direct: `SELECT http_method, http_route, count() AS n, avg(duration_ms) AS avg_ms, max(duration_ms) AS max_ms FROM ${RAW} WHERE ${WHERE} AND http_route != '' GROUP BY http_method, http_route ORDER BY avg_ms DESC LIMIT 20`,
  },
  {
    name: "status classes",
    tql: "SELECT intDiv(http_status_code, 100) AS class, count() AS n FROM traces WHERE http_status_code > 0 GROUP BY class ORDER BY class",
    direct: `SELECT intDiv(http_status_code, 100) AS class, count() AS n FROM ${RAW} WHERE ${WHERE} AND http_status_code > 0 GROUP BY class ORDER BY class`,
  },
  {
    name: "latest errors",
    tql: "SELECT timestamp, service_name, operation_name, trace_id FROM traces WHERE status = 'error' ORDER BY timestamp DESC LIMIT 50",
    direct: `SELECT timestamp, service_name, operation_name, trace_id FROM ${RAW} WHERE ${WHERE} AND status = 'error' ORDER BY timestamp DESC LIMIT 50`,
  },
  {
    name: "attribute breakdown",
    tql: "SELECT attributes['region'] AS region, count() AS n, quantiles(0.5, 0.99)(duration_ms) AS q FROM traces WHERE timestamp > now() - INTERVAL 12 HOUR GROUP BY region ORDER BY n DESC",
    direct: `SELECT attributes['region'] AS region, count() AS n, quantiles(0.5, 0.99)(duration_ms) AS q FROM ${RAW} WHERE ${WHERE} AND timestamp > now() - INTERVAL 12 HOUR GROUP BY region ORDER BY n DESC`,
  },
  {
    name: "frontend vs backend, unique traces",
    tql: "SELECT source, uniq(trace_id) AS traces, count() AS spans FROM traces WHERE timestamp > now() - INTERVAL 24 HOUR GROUP BY source",
    direct: `SELECT source, uniq(trace_id) AS traces, count() AS spans FROM ${RAW} WHERE ${WHERE} AND timestamp > now() - INTERVAL 24 HOUR GROUP BY source`,
  },
];

async function benchQueries(executor: TelemetryExecutor) {
  const tql = createTqlService({
    executor,
    limits: { maxExecutionSeconds: 120, maxMemoryBytes: 8 * 1024 ** 3, maxRowsToRead: 1e12 },
  });
  const directSettings = { output_format_json_quote_64bit_integers: 1, readonly: 1 };
  const results = [];
  for (const query of QUERIES) {
    // Same answer first: the hand-written SQL is the oracle.
    const viaTql = await tql.query(PROJECT, query.tql);
    const direct = await executor.queryCompact(query.direct, { settings: directSettings });
    if (viaTql.rowCount !== direct.rows.length)
      throw new Error(
        `${query.name}: TQL returned ${viaTql.rowCount} rows, direct ${direct.rows.length}`,
      );
    const tqlTimes: number[] = [];
    const directTimes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Interleaved, alternating which goes first, so caches and load favour neither.
      const order = run % 2 === 0 ? ["tql", "direct"] : ["direct", "tql"];
      for (const which of order) {
        const started = performance.now();
        if (which === "tql") await tql.query(PROJECT, query.tql);
        else await executor.queryCompact(query.direct, { settings: directSettings });
        (which === "tql" ? tqlTimes : directTimes).push(performance.now() - started);
      }
    }
    tqlTimes.sort((a, b) => a - b);
    directTimes.sort((a, b) => a - b);
    const tqlMedian = percentile(tqlTimes, 50);
    const directMedian = percentile(directTimes, 50);
    results.push({
      name: query.name,
      rows: viaTql.rowCount,
      tqlMedianMs: round(tqlMedian, 2),
      directMedianMs: round(directMedian, 2),
      tqlP95Ms: round(percentile(tqlTimes, 95), 2),
      directP95Ms: round(percentile(directTimes, 95), 2),
      overheadPct: round((tqlMedian / directMedian - 1) * 100, 1),
    });
    console.log(
      `${query.name.padEnd(36)} TQL ${tqlMedian.toFixed(1).padStart(7)} ms   direct ${directMedian.toFixed(1).padStart(7)} ms   ${((tqlMedian / directMedian - 1) * 100).toFixed(1).padStart(6)} %`,
    );
  }
  const totalTql = results.reduce((sum, r) => sum + r.tqlMedianMs, 0);
  const totalDirect = results.reduce((sum, r) => sum + r.directMedianMs, 0);
  return { results, totalOverheadPct: round((totalTql / totalDirect - 1) * 100, 1) };
}

async function main() {
  const compile = benchCompile();
  console.log(
    `compile: ${compile.compiles} compiles of ${compile.queries} corpus queries: p50 ${compile.p50Ms} ms, p99 ${compile.p99Ms} ms (target p99 < 1 ms)`,
  );
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-tql-"));
  const executor = createChdbExecutor({ path: dir, database: DATABASE });
  try {
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    const started = performance.now();
    await insertSyntheticSpans(executor, PROJECT, SPANS);
    await insertSyntheticSpans(executor, OTHER, Math.round(SPANS / 10));
    await executor.command(`OPTIMIZE TABLE ${RAW} FINAL`);
    console.log(
      `dataset: ${SPANS.toLocaleString("en-US")} spans (+${Math.round(SPANS / 10).toLocaleString("en-US")} in another project) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const queries = await benchQueries(executor);
    console.log(`total of medians: TQL overhead ${queries.totalOverheadPct} % (target ≤ 5 %)`);
    console.log(JSON.stringify({ spans: SPANS, runs: RUNS, compile, ...queries }));
  } finally {
    await executor.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
