/**
 * npm run bench:clickhouse-insert — insert formats of the ClickHouse HTTP adapter.
 *
 * Inserts realistic trace rows (the demo generator's spans, mapped by the OTLP mapper, ~1,000 per
 * batch as the batch writer sends them) through the ClickHouse adapter in each insert format it
 * can send, plain and gzip, and reports rows per second, bytes sent per row and the adapter's
 * encoding time per row. The server is the chDB-backed shim in a process of its own
 * (test/helpers/clickhouse-shim-main.ts), or a real server when VIGIL_TEST_CLICKHOUSE_URL
 * (+ VIGIL_TEST_CLICKHOUSE_USER/PASSWORD) is set. Baseline, in the same run: the chDB adapter
 * inserting the same batches in-process. Variants run in alternating rounds; each figure is the
 * median of its rounds. Every variant must store the same rows (a checksum over every column).
 * Env: BENCH_BATCHES (per variant and round, default 40), BENCH_ROUNDS (3),
 * BENCH_CONCURRENCY (4). The last line is one JSON object.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { demoRequests } from "../src/demo/generator.js";
import { PriceTable } from "../src/ingest/derive/ai-prices.js";
import type { Row } from "../src/ingest/ingest-batch.js";
import { mapTraces } from "../src/ingest/map-traces.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { createClickHouseExecutor } from "../src/telemetry/clickhouse/clickhouse-executor.js";
import {
  encodeRows,
  INSERT_FORMATS,
  type InsertFormat,
} from "../src/telemetry/clickhouse/insert-formats.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { UnixTime } from "../src/telemetry/unix-time.js";
import { printResult } from "./harness/run.js";
import { printTable } from "./harness/table.js";

const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const REAL_URL = process.env.VIGIL_TEST_CLICKHOUSE_URL;
const SHIM_MAIN = fileURLToPath(
  new URL("../test/helpers/clickhouse-shim-main.ts", import.meta.url),
);

interface Variant {
  name: string;
  format: InsertFormat | "chdb";
  gzip: boolean;
  database: string;
}

/** Trace rows as ingestion writes them, in batches of ~1,000 spans. */
function traceBatches(count: number): Row[][] {
  const prices = new PriceTable();
  const batches: Row[][] = [];
  const nowMs = Date.now();
  for (const request of demoRequests({
    spans: count * 1000,
    batchSpans: 1000,
    windowMs: 3600_000,
    nowMs,
  })) {
    if (request.signal !== "traces") continue;
    const options = {
      projectId: "prj_bench",
      limits: { maxValueLength: 8192, maxAttributes: 128 },
      received: UnixTime.fromMillis(nowMs),
    };
    batches.push(mapTraces(request.body, options, prices).batch.traces);
    if (batches.length === count) break;
  }
  return batches;
}

async function startShim(dataDir: string): Promise<{ url: string; stop(): Promise<unknown> }> {
  const child = spawn(process.execPath, ["--import", "tsx", SHIM_MAIN, dataDir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`the shim exited (${code})`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    url,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Runs every batch once, CONCURRENCY inserts at a time; returns elapsed seconds. */
async function insertAll(executor: TelemetryExecutor, batches: readonly Row[][]): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < batches.length; i = next++)
        await executor.insert("traces", batches[i] as Row[]);
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
/** Each variant's executor, its schema made and warmed up on a few batches. */
async function openExecutors(
  variants: readonly Variant[],
  batches: Row[][],
  url: string,
  chdbDir: string,
  executors: Map<Variant, TelemetryExecutor>,
) {
  for (const variant of variants) {
    const executor =
      variant.format === "chdb"
        ? createChdbExecutor({ path: chdbDir, database: variant.database })
        : createClickHouseExecutor({
            url,
            database: variant.database,
            user: process.env.VIGIL_TEST_CLICKHOUSE_USER,
            password: process.env.VIGIL_TEST_CLICKHOUSE_PASSWORD,
            insertFormat: variant.format,
            compressInserts: variant.gzip,
          });
    await ensureTelemetrySchema(executor, { retentionDays: 30 });
    await insertAll(executor, batches.slice(0, 4)); // warm-up
    executors.set(variant, executor);
  }
}

/** Adapter-side cost and bytes on the wire, measured apart from the inserts. */
function wireCosts(batches: Row[][], rows: number) {
  const wire = new Map<InsertFormat, { bytes: number; gzipBytes: number; encodeUs: number }>();
  for (const format of INSERT_FORMATS) {
    let bytes = 0;
    let gzipBytes = 0;
    const started = process.hrtime.bigint();
    const bodies = batches.map((batch) => encodeRows(format, batch).body);
    const encodeUs = Number(process.hrtime.bigint() - started) / 1e3 / rows;
    for (const body of bodies) {
      bytes += body.length;
      gzipBytes += gzipSync(body).length;
    }
    wire.set(format, { bytes: bytes / rows, gzipBytes: gzipBytes / rows, encodeUs });
  }

  return wire;
}

/** Every variant's rows and a hash of them: each must have stored what the baseline did. */
async function checksumsOf(executors: Map<Variant, TelemetryExecutor>) {
  const checksums = new Map<Variant, string>();
  for (const [variant, executor] of executors) {
    const [sum] = await executor.query<{ n: number; h: string }>(
      `SELECT count() AS n, toString(sum(cityHash64(formatRow('TSV', *)))) AS h FROM ${variant.database}.traces`,
    );
    checksums.set(variant, `${sum?.n}:${sum?.h}`);
  }
  return checksums;
}

/** Rows per second of each variant, beside the chDB baseline, and its bytes and encode time. */
function summarize(
  variants: readonly Variant[],
  rows: number,
  seconds: Map<Variant, number[]>,
  wire: ReturnType<typeof wireCosts>,
  checksums: Map<Variant, string>,
) {
  const baseline = variants[0] as Variant;
  const baselineRate = rows / median(seconds.get(baseline) ?? []);
  const results = variants.map((variant) => {
    const rate = rows / median(seconds.get(variant) ?? []);
    const onWire = variant.format === "chdb" ? undefined : wire.get(variant.format);
    return {
      variant: variant.name,
      format: variant.format,
      gzip: variant.gzip,
      rowsPerSecond: Math.round(rate),
      ratioToChdb: Math.round((rate / baselineRate) * 1000) / 1000,
      bytesPerRow: onWire ? Math.round(variant.gzip ? onWire.gzipBytes : onWire.bytes) : undefined,
      encodeMicrosPerRow: onWire ? Math.round(onWire.encodeUs * 100) / 100 : undefined,
      sameRowsAsBaseline: checksums.get(variant) === checksums.get(baseline),
    };
  });

  return results;
}

/** The table, then the JSON result line. */
function report(rows: number, results: ReturnType<typeof summarize>) {
  console.log(
    `ClickHouse adapter inserts: ${BATCHES} batches x ~${Math.round(rows / BATCHES)} trace rows, ${CONCURRENCY} at a time, median of ${ROUNDS} rounds, server: ${REAL_URL === undefined ? "chDB-backed shim (own process)" : "VIGIL_TEST_CLICKHOUSE_URL"}`,
  );
  printTable(
    ["variant", "rows/s", "x chDB", "bytes/row sent", "encode us/row", "same rows"],
    results.map((r) => [
      r.variant,
      r.rowsPerSecond.toLocaleString("en"),
      String(r.ratioToChdb),
      r.bytesPerRow === undefined ? "-" : String(r.bytesPerRow),
      r.encodeMicrosPerRow === undefined ? "-" : String(r.encodeMicrosPerRow),
      r.sameRowsAsBaseline ? "yes" : "NO",
    ]),
  );
  if (results.some((r) => !r.sameRowsAsBaseline))
    throw new Error("A variant stored different rows than the baseline");
  printResult({
    bench: "clickhouse-insert",
    server: REAL_URL === undefined ? "shim" : "real",
    batches: BATCHES,
    rowsPerBatch: Math.round(rows / BATCHES),
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    results,
  });
}

async function main() {
  const chdbDir = mkdtempSync(join(tmpdir(), "vigil-bench-ch-chdb-"));
  const shimDir = mkdtempSync(join(tmpdir(), "vigil-bench-ch-shim-"));
  const shim = REAL_URL === undefined ? await startShim(shimDir) : undefined;
  const url = REAL_URL ?? shim?.url ?? "";
  const variants: Variant[] = [
    { name: "chDB in-process (baseline)", format: "chdb", gzip: false, database: "bench_chdb" },
    ...INSERT_FORMATS.flatMap((format) =>
      [false, true].map((gzip) => ({
        name: `${format}${gzip ? " + gzip" : ""}`,
        format,
        gzip,
        database: `bench_${format.toLowerCase()}${gzip ? "_gz" : ""}`,
      })),
    ),
  ];
  const executors = new Map<Variant, TelemetryExecutor>();
  try {
    const batches = traceBatches(BATCHES);
    const rows = batches.reduce((n, b) => n + b.length, 0);
    await openExecutors(variants, batches, url, chdbDir, executors);
    const seconds = new Map<Variant, number[]>(variants.map((v) => [v, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const variant of variants)
        seconds
          .get(variant)
          ?.push(await insertAll(executors.get(variant) as TelemetryExecutor, batches));

    const results = summarize(
      variants,
      rows,
      seconds,
      wireCosts(batches, rows),
      await checksumsOf(executors),
    );
    report(rows, results);
  } finally {
    for (const [variant, executor] of executors) {
      if (REAL_URL !== undefined && variant.format !== "chdb")
        await executor
          .command(`DROP DATABASE IF EXISTS ${variant.database}`)
          .catch(() => undefined);
      await executor.close();
    }
    await shim?.stop();
    rmSync(chdbDir, { recursive: true, force: true });
    rmSync(shimDir, { recursive: true, force: true });
  }
}

await main();
