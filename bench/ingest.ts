/**
 * npm run bench:ingest — OTLP/HTTP protobuf ingestion throughput (BENCH_TRANSPORT=grpc: OTLP/gRPC).
 *
 * Starts `vigil serve` (the built service) as its own process, posts protobuf export requests of
 * ~1,000 spans from concurrent clients over loopback, and reports acknowledged spans per second
 * end to end, and the server's CPU per span (all its threads, the engine's included, from
 * /proc: a figure other load on the machine moves less than throughput). Baselines, measured in
 * the same run on the same machine: the engine's raw insert rate for the same rows (the mapped
 * traces rows of the same payloads, inserted straight into the traces table through the chDB
 * executor, same batch size and concurrency) in the product's format (Native) and in the earlier
 * JSONCompactEachRow. BENCH_PROFILE_DIR=<dir> writes a CPU profile of the server. The last line
 * is one JSON object.
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
import { printResult } from "./harness/run.js";
import {
  benchEnv,
  cpuSeconds,
  initDataDir,
  postTraces,
  startServer,
} from "./harness/serve-process.js";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const TRANSPORT = process.env.BENCH_TRANSPORT === "grpc" ? "grpc" : "http";
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
  const server = await startServer(
    dataDir,
    env,
    process.env.BENCH_PROFILE_DIR
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [],
  );
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
  const cpuBefore = cpuSeconds(server.pid);
  const loopBefore = cpuSeconds(server.pid, server.pid);
  const endToEndSeconds = await timed(REQUESTS, post);
  const serverCpuSeconds = cpuSeconds(server.pid) - cpuBefore;
  const loopCpuSeconds = cpuSeconds(server.pid, server.pid) - loopBefore;
  grpc.close();
  await server.stop();

  return { endToEndSeconds, serverCpuSeconds, loopCpuSeconds };
}

/**
 * Baselines in the same data dir (the engine is embedded: one data dir per process): the same
 * rows inserted straight into the engine, in the product's format and in the earlier one.
 */
async function rawInserts(
  dataDir: string,
  projectId: string,
  payloads: Payload[],
  totalSpans: number,
) {
  const prices = new PriceTable();
  const rows: Row[][] = payloads.map(
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
  const telemetryPath = join(dataDir, "telemetry");
  const stored = await (async () => {
    const executor = createChdbExecutor({ path: telemetryPath, database: "vigil" });
    const [row] = await executor.query<{ n: number }>("SELECT count() AS n FROM vigil.traces");
    await executor.close();
    return Number(row?.n ?? 0);
  })();
  const rawRate = async (insertFormat: "Native" | "JSONCompactEachRow") => {
    const executor = createChdbExecutor({ path: telemetryPath, database: "vigil", insertFormat });
    const insert = (i: number) =>
      executor.insert("traces", rows[i % rows.length] as Row[]).then(() => undefined);
    await timed(10, insert);
    const seconds = await timed(REQUESTS, insert);
    await executor.close();
    return Math.round(totalSpans / seconds);
  };
  const raw = await rawRate("Native");
  const rawJson = await rawRate("JSONCompactEachRow");

  return { stored, raw, rawJson };
}

/** The summary lines, then the JSON result line. */
function report(figures: ReturnType<typeof ingestFigures>) {
  const raw = figures.rawInsertSpansPerSecond;
  const rawJson = figures.rawJsonInsertSpansPerSecond;
  const endToEnd = figures.endToEndSpansPerSecond;
  const expectedStored = figures.expectedStoredSpans;
  console.log(
    `OTLP/${TRANSPORT} protobuf ingestion, ${REQUESTS} requests x ~${figures.spansPerRequest} spans, ${CONCURRENCY} concurrent clients`,
  );
  console.log(
    `  end to end (${TRANSPORT} + decode + map + derive + write): ${endToEnd.toLocaleString("en")} spans/s`,
  );
  console.log(
    `  server CPU per span (all threads, engine included):  ${figures.serverCpuMicrosPerSpan} µs`,
  );
  console.log(
    `  of which the event loop (the main thread):           ${figures.eventLoopCpuMicrosPerSpan} µs`,
  );
  console.log(
    `  baseline, raw engine insert of the same rows, Native: ${raw.toLocaleString("en")} spans/s`,
  );
  console.log(
    `  baseline, the same as JSONCompactEachRow (before):    ${rawJson.toLocaleString("en")} spans/s`,
  );
  console.log(`  ratio: ${figures.ratioToRaw} (target >= 0.7); target >= 50,000 spans/s`);
  console.log(`  stored ${figures.storedSpans} of ${expectedStored} acknowledged spans`);
  printResult(figures);
}

/** The JSON result line's object. */
function ingestFigures(
  totalSpans: number,
  payloads: Payload[],
  e2e: Awaited<ReturnType<typeof endToEnd>>,
  baselines: Awaited<ReturnType<typeof rawInserts>>,
) {
  const { endToEndSeconds, serverCpuSeconds, loopCpuSeconds } = e2e;
  const { stored, raw, rawJson } = baselines;
  const endToEnd = Math.round(totalSpans / endToEndSeconds);
  const expectedStored = totalSpans + payloads.slice(0, 20).reduce((n, p) => n + p.spans, 0);
  const figures = {
    bench: "ingest",
    transport: TRANSPORT,
    requests: REQUESTS,
    spansPerRequest: Math.round(totalSpans / REQUESTS),
    concurrency: CONCURRENCY,
    spans: totalSpans,
    endToEndSpansPerSecond: endToEnd,
    serverCpuMicrosPerSpan: Math.round((serverCpuSeconds * 1e6) / totalSpans),
    eventLoopCpuMicrosPerSpan: Math.round((loopCpuSeconds * 1e6) / totalSpans),
    rawInsertSpansPerSecond: raw,
    ratioToRaw: Math.round((endToEnd / raw) * 1000) / 1000,
    rawJsonInsertSpansPerSecond: rawJson,
    storedSpans: stored,
    expectedStoredSpans: expectedStored,
    targets: { spansPerSecond: 50_000, ratioToRaw: 0.7 },
  };
  return figures;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "vigil-bench-"));
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

    const e2e = await endToEnd(dataDir, env, apiKey, payloads);
    const baselines = await rawInserts(dataDir, projectId, payloads, totalSpans);
    report(ingestFigures(totalSpans, payloads, e2e, baselines));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
