/**
 * npm run bench:ingest-writes — what one write of the batch writer costs the embedded engine,
 * statement by statement, at several batch sizes. For each size (BENCH_SIZES, spans per write:
 * 500, 2,400 and 8,000 by default), the demo's trace exports are mapped as ingestion maps them
 * and folded as the batch writer folds them (traces rows, AI spans, HTTP summaries, session
 * summaries, error occurrences), then each table's insert runs BENCH_ROUNDS times, the tables
 * interleaved round by round so drift of the machine's speed touches them alike. Merges are
 * stopped, so the figure is the insert itself: CPU milliseconds per statement (process CPU,
 * every engine thread included: chDB runs in this process) and microseconds per span of the
 * whole write. The traces insert includes its materialized views (trace_data). The last line is
 * one JSON object.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoRequests } from "../src/demo/generator.js";
import { PriceTable } from "../src/ingest/derive/ai-prices.js";
import { occurrenceRow } from "../src/ingest/derive/error-occurrences.js";
import { summarizeHttp } from "../src/ingest/derive/http.js";
import { summarizeSessions, UserAgentParser } from "../src/ingest/derive/sessions.js";
import { emptyBatch, type IngestBatch, type Row } from "../src/ingest/ingest-batch.js";
import { mapTraces } from "../src/ingest/map-traces.js";
import { decodeRequest, encodeRequest } from "../src/ingest/otlp/codec.js";
import type { TracesRequest } from "../src/ingest/otlp/otlp-messages.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { UnixTime } from "../src/telemetry/unix-time.js";
import { printTable } from "./harness/table.js";

const SIZES = (process.env.BENCH_SIZES ?? "500,2400,8000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);

/** One write's rows per table, as the batch writer folds requests of 100 spans. */
function writeOf(spans: number): [string, Row[]][] {
  const batch = emptyBatch();
  const prices = new PriceTable();
  const options = {
    projectId: "prj_bench",
    limits: { maxValueLength: 8192, maxAttributes: 128 },
    received: UnixTime.fromMillis(Date.now()),
  };
  for (const request of demoRequests({
    spans,
    batchSpans: 100,
    windowMs: 60_000,
    nowMs: Date.now(),
  })) {
    if (request.signal !== "traces") continue;
    const body = Buffer.from(encodeRequest("traces", request.body));
    const mapped = mapTraces(
      decodeRequest("traces", "protobuf", body) as TracesRequest,
      options,
      prices,
    );
    for (const key of Object.keys(batch) as (keyof IngestBatch)[])
      (batch[key] as unknown[]).push(...(mapped.batch[key] as unknown[]));
  }
  return [
    ["traces", batch.traces],
    ["ai_spans", batch.aiSpans],
    ["http_requests", summarizeHttp(batch.http)],
    ["sessions", summarizeSessions(batch.sessions, new UserAgentParser())],
    ["error_occurrences", batch.errors.map(occurrenceRow)],
  ];
}

const dir = mkdtempSync(join(tmpdir(), "vigil-bench-writes-"));
const executor = createChdbExecutor({ path: dir, database: "vigil" });
const results: {
  spans: number;
  tables: Record<string, { rows: number; cpuMs: number }>;
  microsPerSpan: number;
}[] = [];
try {
  await ensureTelemetrySchema(executor, { retentionDays: 30 });
  await executor.command("SYSTEM STOP MERGES");
  for (const size of SIZES) {
    const write = writeOf(size);
    const spans = write[0]?.[1].length ?? 0;
    for (const [table, rows] of write) await executor.insert(table, rows); // warm-up
    const cpu = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++)
      for (const [table, rows] of write) {
        const before = process.cpuUsage();
        await executor.insert(table, rows);
        const used = process.cpuUsage(before);
        cpu.set(table, (cpu.get(table) ?? 0) + (used.user + used.system) / 1000);
      }
    const tables = Object.fromEntries(
      write.map(([table, rows]) => [
        table,
        { rows: rows.length, cpuMs: Math.round(((cpu.get(table) ?? 0) / ROUNDS) * 10) / 10 },
      ]),
    );
    const total = Object.values(tables).reduce((sum, t) => sum + t.cpuMs, 0);
    results.push({ spans, tables, microsPerSpan: Math.round((total * 1000) / spans) });
  }
} finally {
  await executor.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(`engine CPU per insert of one write (merges stopped, ${ROUNDS} rounds, interleaved)`);
const tableNames = Object.keys(results[0]?.tables ?? {});
printTable(
  ["statement", ...results.map((r) => `${r.spans} spans: rows / CPU ms`)],
  [
    ...tableNames.map((name) => [
      name,
      ...results.map((r) => `${r.tables[name]?.rows} / ${r.tables[name]?.cpuMs}`),
    ]),
    ["whole write, µs per span", ...results.map((r) => String(r.microsPerSpan))],
  ],
);
console.log(JSON.stringify({ bench: "ingest-writes", rounds: ROUNDS, writes: results }));
