/**
 * npm run bench:ingest — OTLP/HTTP protobuf ingestion throughput (BENCH_TRANSPORT=grpc: OTLP/gRPC).
 *
 * Starts `vigil serve` (the built service) as its own process, posts protobuf export requests of
 * ~1,000 spans from concurrent clients over loopback, and reports acknowledged spans per second
 * end to end, and the server's CPU per span (all its threads, the engine's included, from
 * /proc: a figure other load on the machine moves less than throughput), split by thread name
 * (the event loop, the engine's statements, its merges). Baseline, measured right after each
 * end-to-end run on the same data dir: the engine's raw insert of the same rows (the mapped
 * traces rows of the same payloads, inserted straight into the traces table through the chDB
 * executor, same batch size and concurrency, in the product's format, Native). BENCH_PAIRS
 * (default 3) such pairs run interleaved; the figures are their medians, against issue 37's
 * targets (≤ 20 µs of server CPU per span, ≥ 0.9 of the raw insert's rate). Then once the raw
 * insert as JSONCompactEachRow, the format before Native (BENCH_RAW_JSON=0 skips it).
 * BENCH_REQUESTS (default 400) per run; BENCH_DATA_DIR puts the data dir elsewhere than the OS
 * temp dir (e.g. /dev/shm: each part the engine writes costs file creations, whose kernel CPU
 * depends on the file system); BENCH_PROFILE_DIR=<dir> writes a CPU profile of the server. The
 * last line is one JSON object. BENCH_SERVER_NODE_FLAGS are Node flags for the server.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, credentials, Metadata } from "@grpc/grpc-js";
import { demoRequests } from "../src/demo/generator.js";
import { PriceTable } from "../src/ingest/derive/ai-prices.js";
import type { Row } from "../src/ingest/ingest-batch.js";
import { mapTraces } from "../src/ingest/map-traces.js";
import { decodeRequest, encodeRequest } from "../src/ingest/otlp/codec.js";
import type { TracesRequest } from "../src/ingest/otlp/otlp-messages.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { UnixTime } from "../src/telemetry/unix-time.js";
import { cpuMicros } from "./harness/process-figures.js";
import { printResult } from "./harness/run.js";
import {
  benchEnv,
  cpuSeconds,
  initDataDir,
  postTraces,
  startServer,
} from "./harness/serve-process.js";
import { median, round } from "./harness/stats.js";
import { threadCpu, threadCpuPerUnit } from "./harness/thread-cpu.js";

/**
 * Clients, each sending its next request when the last is acknowledged; the raw insert runs as
 * many. 32: with 8, the end-to-end rate is the write cadence's, not the server's. While requests
 * keep coming the batch writer starts a write at most every 250 ms (docs/ingestion.md, Write
 * cadence), so 8 clients of 1,000 spans make at most 8,000 spans a write, about 30,000 spans/s
 * however fast the server: measured 27–31k end to end at 8 clients, 42–43k at 32.
 */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const TRANSPORT = process.env.BENCH_TRANSPORT === "grpc" ? "grpc" : "http";
/** End-to-end runs, each followed by the raw insert (issue 37 asks for the median of 3). */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
/** BENCH_RAW_JSON=0 skips the JSONCompactEachRow baseline (the format before Native). */
const RAW_JSON = process.env.BENCH_RAW_JSON !== "0";
const DISTINCT = 50;

/** Runs `jobs` tasks, `CONCURRENCY` at a time; returns elapsed seconds. */
async function timed(jobs: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < jobs; i = next++) await task(i);
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}
type Payload = { body: Uint8Array; spans: number };

/** The server process on the data dir, REQUESTS exports at CONCURRENCY: seconds and CPU. */
async function endToEnd(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  apiKey: string,
  payloads: Payload[],
) {
  const server = await startServer(dataDir, env, [
    ...(process.env.BENCH_PROFILE_DIR
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : []),
    ...(process.env.BENCH_SERVER_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
  ]);
  const grpc = new Client(server.grpcUrl.replace("http://", ""), credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set("x-api-key", apiKey);
  const exportGrpc = (body: Uint8Array) =>
    new Promise<void>((resolve, reject) =>
      grpc.makeUnaryRequest(
        "/opentelemetry.proto.collector.trace.v1.TraceService/Export",
        (bytes: Uint8Array) => Buffer.from(bytes),
        (bytes: Buffer) => bytes,
        body,
        metadata,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  const post = async (i: number) => {
    const payload = payloads[i % payloads.length] as { body: Uint8Array };
    if (TRANSPORT === "grpc") return exportGrpc(payload.body);
    const status = await postTraces(server.url, apiKey, payload.body);
    if (status !== 200) throw new Error(`ingest answered ${status}`);
  };
  await timed(20, post); // warm-up
  const insertsBefore = await engineInserts(server.url);
  const cpuBefore = cpuSeconds(server.pid);
  const loopBefore = cpuSeconds(server.pid, server.pid);
  const threadsBefore = threadCpu(server.pid);
  const endToEndSeconds = await timed(REQUESTS, post);
  const serverCpuSeconds = cpuSeconds(server.pid) - cpuBefore;
  const loopCpuSeconds = cpuSeconds(server.pid, server.pid) - loopBefore;
  const threadsAfter = threadCpu(server.pid);
  const inserts = (await engineInserts(server.url)) - insertsBefore;
  grpc.close();
  await server.stop();

  return {
    endToEndSeconds,
    serverCpuSeconds,
    loopCpuSeconds,
    threadsBefore,
    threadsAfter,
    inserts,
  };
}

/** Insert statements the server has sent its telemetry engine (its /metrics). */
async function engineInserts(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let n = 0;
  for (const line of text.split("\n"))
    if (
      line.startsWith("vigil_store_query_duration_seconds_count{") &&
      line.includes('store="telemetry"') &&
      line.includes('operation="insert"')
    )
      n += Number(line.slice(line.lastIndexOf(" ") + 1));
  return n;
}

/**
 * The baseline in the same data dir (the engine is embedded: one data dir per process): the same
 * rows inserted straight into the engine's traces table (its views included) at the same batch
 * size and concurrency, in the product's format (Native) or the earlier JSONCompactEachRow.
 * Spans per second, and this process's CPU per span (the engine runs in it).
 */
async function rawInsert(
  telemetryPath: string,
  rows: Row[][],
  totalSpans: number,
  insertFormat: "Native" | "JSONCompactEachRow",
) {
  const executor = createChdbExecutor({ path: telemetryPath, database: "vigil", insertFormat });
  const insert = (i: number) =>
    executor.insert("traces", rows[i % rows.length] as Row[]).then(() => undefined);
  await timed(10, insert);
  const cpuBefore = process.cpuUsage();
  const seconds = await timed(REQUESTS, insert);
  const cpu = cpuMicros(cpuBefore);
  await executor.close();
  return { spansPerSecond: Math.round(totalSpans / seconds), cpuMicrosPerSpan: cpu / totalSpans };
}

/** The traces rows of the payloads, mapped as ingestion maps them. */
function rowsOf(payloads: Payload[], projectId: string): Row[][] {
  const prices = new PriceTable();
  return payloads.map(
    (p) =>
      mapTraces(
        decodeRequest("traces", "protobuf", Buffer.from(p.body)) as TracesRequest,
        {
          projectId,
          limits: { maxValueLength: 8192, maxAttributes: 128 },
          received: UnixTime.fromMillis(Date.now()),
        },
        prices,
      ).batch.traces,
  );
}

async function storedSpans(telemetryPath: string) {
  const executor = createChdbExecutor({ path: telemetryPath, database: "vigil" });
  const [row] = await executor.query<{ n: number }>("SELECT count() AS n FROM vigil.traces");
  await executor.close();
  return Number(row?.n ?? 0);
}

type EndToEnd = Awaited<ReturnType<typeof endToEnd>>;
type Raw = Awaited<ReturnType<typeof rawInsert>>;

/** One end-to-end run and the raw insert beside it. */
function pairFigures(totalSpans: number, e2e: EndToEnd, raw: Raw) {
  const endToEnd = Math.round(totalSpans / e2e.endToEndSeconds);
  return {
    endToEndSpansPerSecond: endToEnd,
    serverCpuMicrosPerSpan: round((e2e.serverCpuSeconds * 1e6) / totalSpans, 1),
    eventLoopCpuMicrosPerSpan: round((e2e.loopCpuSeconds * 1e6) / totalSpans, 1),
    serverCpuMicrosPerSpanByThread: threadCpuPerUnit(
      e2e.threadsBefore,
      e2e.threadsAfter,
      totalSpans,
    ),
    engineInsertsPer1000Spans: round((e2e.inserts * 1000) / totalSpans, 2),
    rawInsertSpansPerSecond: raw.spansPerSecond,
    rawInsertCpuMicrosPerSpan: round(raw.cpuMicrosPerSpan, 1),
    ratioToRaw: round(endToEnd / raw.spansPerSecond, 3),
  };
}
type Pair = ReturnType<typeof pairFigures>;

/** The pair whose ratio is the median: its figures stand for the run. */
function medianPair(pairs: Pair[]): Pair {
  const byRatio = [...pairs].sort((a, b) => a.ratioToRaw - b.ratioToRaw);
  return byRatio[Math.floor((byRatio.length - 1) / 2)] as Pair;
}

/** The JSON result line's object. */
function ingestFigures(
  totalSpans: number,
  pairs: Pair[],
  rawJson: Raw | undefined,
  stored: { stored: number; expected: number },
) {
  const at = medianPair(pairs);
  return {
    bench: "ingest",
    transport: TRANSPORT,
    requests: REQUESTS,
    spansPerRequest: Math.round(totalSpans / REQUESTS),
    concurrency: CONCURRENCY,
    spans: totalSpans,
    pairs: pairs.length,
    // Issue 37's figures: the median of the pairs (server CPU per span, the ratio to raw).
    serverCpuMicrosPerSpan: median(pairs.map((p) => p.serverCpuMicrosPerSpan)),
    ratioToRaw: median(pairs.map((p) => p.ratioToRaw)),
    endToEndSpansPerSecond: at.endToEndSpansPerSecond,
    rawInsertSpansPerSecond: at.rawInsertSpansPerSecond,
    eventLoopCpuMicrosPerSpan: median(pairs.map((p) => p.eventLoopCpuMicrosPerSpan)),
    rawInsertCpuMicrosPerSpan: median(pairs.map((p) => p.rawInsertCpuMicrosPerSpan)),
    engineInsertsPer1000Spans: median(pairs.map((p) => p.engineInsertsPer1000Spans)),
    serverCpuMicrosPerSpanByThread: at.serverCpuMicrosPerSpanByThread,
    rawJsonInsertSpansPerSecond: rawJson?.spansPerSecond,
    each: pairs.map(({ serverCpuMicrosPerSpanByThread: _, ...figures }) => figures),
    storedSpans: stored.stored,
    expectedStoredSpans: stored.expected,
    targets: { serverCpuMicrosPerSpan: 20, ratioToRaw: 0.9 },
  };
}

/** The summary lines, then the JSON result line. */
function report(figures: ReturnType<typeof ingestFigures>) {
  const line = (label: string, value: string) => console.log(`  ${label.padEnd(54)}${value}`);
  const rate = (n: number | undefined) => `${(n ?? 0).toLocaleString("en")} spans/s`;
  console.log(
    `OTLP/${TRANSPORT} protobuf ingestion, ${REQUESTS} requests x ~${figures.spansPerRequest} spans, ${CONCURRENCY} concurrent clients, ${figures.pairs} interleaved pair(s), medians`,
  );
  for (const [i, p] of figures.each.entries())
    line(
      `pair ${i + 1}: end to end / raw Native insert`,
      `${rate(p.endToEndSpansPerSecond)} / ${rate(p.rawInsertSpansPerSecond)} = ${p.ratioToRaw}, ${p.serverCpuMicrosPerSpan} µs/span`,
    );
  line(
    "server CPU per span (all threads, engine included):",
    `${figures.serverCpuMicrosPerSpan} µs (target <= ${figures.targets.serverCpuMicrosPerSpan})`,
  );
  line("of which the event loop (the main thread):", `${figures.eventLoopCpuMicrosPerSpan} µs`);
  for (const [name, micros] of Object.entries(figures.serverCpuMicrosPerSpanByThread))
    line(`  thread ${name}:`, `${micros} µs`);
  line("engine insert statements per 1,000 spans:", `${figures.engineInsertsPer1000Spans}`);
  line("raw insert's CPU per span (same rows, Native):", `${figures.rawInsertCpuMicrosPerSpan} µs`);
  line(
    "ratio to the raw Native insert of the same rows:",
    `${figures.ratioToRaw} (target >= ${figures.targets.ratioToRaw})`,
  );
  if (figures.rawJsonInsertSpansPerSecond !== undefined)
    line(
      "raw insert as JSONCompactEachRow (before Native):",
      rate(figures.rawJsonInsertSpansPerSecond),
    );
  line("stored / acknowledged:", `${figures.storedSpans} / ${figures.expectedStoredSpans}`);
  printResult(figures);
}

async function main() {
  const dataDir = mkdtempSync(join(process.env.BENCH_DATA_DIR ?? tmpdir(), "vigil-bench-"));
  const env = benchEnv();
  try {
    const { apiKey, projectId } = initDataDir(dataDir, env);

    // Distinct payloads of ~1,000 spans each, encoded once, posted round-robin.
    const payloads: { body: Uint8Array; spans: number }[] = [];
    for (const request of demoRequests({
      spans: DISTINCT * 1000,
      batchSpans: 1000,
      windowMs: 3600_000,
      nowMs: Date.now(),
    })) {
      if (request.signal === "traces")
        payloads.push({ body: encodeRequest("traces", request.body), spans: request.items });
    }
    const spansOf = (i: number) => (payloads[i % payloads.length] as { spans: number }).spans;
    let totalSpans = 0;
    for (let i = 0; i < REQUESTS; i++) totalSpans += spansOf(i);
    const rows = rowsOf(payloads, projectId);
    const telemetryPath = join(dataDir, "telemetry");

    // End to end, then the raw insert, PAIRS times: each pair in the same minute of the machine.
    const pairs: Pair[] = [];
    let acknowledged = 0;
    for (let pair = 0; pair < PAIRS; pair++) {
      const e2e = await endToEnd(dataDir, env, apiKey, payloads);
      acknowledged += totalSpans + payloads.slice(0, 20).reduce((n, p) => n + p.spans, 0);
      const raw = await rawInsert(telemetryPath, rows, totalSpans, "Native");
      acknowledged += totalSpans + rows.slice(0, 10).reduce((n, r) => n + r.length, 0);
      pairs.push(pairFigures(totalSpans, e2e, raw));
      process.stderr.write(`pair ${pair + 1}: ${JSON.stringify(pairs.at(-1))}\n`);
    }
    const rawJson = RAW_JSON
      ? await rawInsert(telemetryPath, rows, totalSpans, "JSONCompactEachRow")
      : undefined;
    const stored = { stored: await storedSpans(telemetryPath), expected: acknowledged };
    if (rawJson)
      stored.expected += totalSpans + rows.slice(0, 10).reduce((n, r) => n + r.length, 0);
    report(ingestFigures(totalSpans, pairs, rawJson, stored));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
