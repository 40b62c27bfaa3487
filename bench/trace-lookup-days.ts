/**
 * npm run bench:trace-lookup-days — what a trace lookup costs the engine over a month of kept
 * days, before and after each quiet day's parts are merged into one (ADR 0019).
 *
 * A trace lookup names no time range (`GET /v1/traces/:id`), so it opens every part of
 * `trace_data` of every day kept. In a data dir that keeps 30 days, each day holds the parts its
 * merges left (merge_selector_base = 10 leaves several: 8-9 a day in bench:api's dataset).
 *
 * 1. An embedded engine in a temporary dir, with the product's schema (ensureTelemetrySchema).
 *    BENCH_DAYS (30) days of demo spans, mapped as ingestion maps them, each day written in
 *    BENCH_PARTS_PER_DAY (8) inserts of BENCH_SPANS_PER_PART (2,000) spans into `traces`: the
 *    view copies each insert into one part of `trace_data`. Merges of `trace_data` are stopped
 *    while it is filled and measured, so every day keeps its 8 parts.
 * 2. Before: BENCH_LOOKUPS (200) different traces, spread over the days, each looked up once
 *    through the product's reader (readTraceData, the statement of `GET /v1/traces/:id`), one
 *    after the other: engine time p50/p90/p99. A trace's first lookup is what distinct reads
 *    cost; the same lookups again (the engine's query condition cache then skips the granules
 *    that held nothing) are reported beside it. `SELECT 1` beside them: the floor of a statement.
 * 3. The forced merges: the product merges a day once none of its parts is younger than an hour;
 *    the bench shortens that age to 1 s (ALTER … MODIFY SETTING) and starts merges, then waits
 *    until every day is one part. Reported: how long that took and the process CPU it used.
 * 4. After: other traces of the same days, the same way.
 *
 * The last line is one JSON object.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoRequests } from "../src/demo/generator.js";
import { PriceTable } from "../src/ingest/derive/ai-prices.js";
import type { Row } from "../src/ingest/ingest-batch.js";
import { mapTraces } from "../src/ingest/map-traces.js";
import type { TracesRequest } from "../src/ingest/otlp/otlp-messages.js";
import { readTraceData } from "../src/read/trace-data.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { UnixTime } from "../src/telemetry/unix-time.js";
import { round } from "./harness/http-load.js";
import { mergeQuietDays, partsPerDay, readEachTwice } from "./quiet-days.js";

const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const PARTS_PER_DAY = Number(process.env.BENCH_PARTS_PER_DAY ?? 8);
const SPANS_PER_PART = Number(process.env.BENCH_SPANS_PER_PART ?? 2000);
const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 200);
const PROJECT = "prj_bench_lookup_days";
const DAY_MS = 24 * 3600_000;

const log = (text: string) => process.stderr.write(`${text}\n`);

/** The traces rows of `spans` demo spans of one day (the hour before its noon, UTC), per insert. */
function dayRows(day: number, spans: number, seed: number): Row[][] {
  const noon = Math.floor(Date.now() / DAY_MS) * DAY_MS - day * DAY_MS + DAY_MS / 2;
  const prices = new PriceTable();
  const batches: Row[][] = [];
  for (const request of demoRequests({
    spans,
    batchSpans: SPANS_PER_PART,
    windowMs: 3600_000,
    nowMs: noon,
    seed,
  })) {
    if (request.signal !== "traces") continue;
    const mapped = mapTraces(
      request.body as unknown as TracesRequest,
      {
        projectId: PROJECT,
        limits: { maxValueLength: 8192, maxAttributes: 128 },
        received: UnixTime.fromMillis(noon),
      },
      prices,
    );
    batches.push(mapped.batch.traces);
  }
  return batches;
}

/** Each trace looked up once, one after the other, then the same again; and SELECT 1 as often. */
async function lookups(telemetry: TelemetryExecutor, traceIds: readonly string[]) {
  const { first, ...rest } = await readEachTwice(telemetry, traceIds, (id) =>
    readTraceData(telemetry, PROJECT, [id], { limit: 50_000 }).then((found) => {
      if (!found.get(id)?.spans.length) throw new Error(`trace ${id} was not found`);
    }),
  );
  return { firstLookup: first, ...rest };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-lookup-days-"));
  const telemetry = createChdbExecutor({ path: join(dir, "telemetry"), database: "vigil" });
  try {
    await ensureTelemetrySchema(telemetry, { retentionDays: 30 });
    const db = telemetry.database;
    await telemetry.command(`SYSTEM STOP MERGES ${db}.trace_data`);

    log(`Writing ${DAYS} days x ${PARTS_PER_DAY} parts x ${SPANS_PER_PART} spans`);
    const started = performance.now();
    for (let day = 0; day < DAYS; day++) {
      for (const rows of dayRows(day, PARTS_PER_DAY * SPANS_PER_PART, 100 + day))
        await telemetry.insert("traces", rows);
      if ((day + 1) % 5 === 0)
        log(`  ${day + 1} / ${DAYS} days, ${round((performance.now() - started) / 1000, 1)} s`);
    }
    const before = await partsPerDay(telemetry, "trace_data");
    log(`trace_data: ${JSON.stringify(before)}`);

    // Two disjoint sets of traces, each spread over every day (one random trace at a time).
    const ids = await telemetry.query<{ trace_id: string }>(
      `SELECT trace_id FROM ${db}.trace_data WHERE project_id = {p:String} AND item = 'span'
       GROUP BY trace_id ORDER BY cityHash64(trace_id) LIMIT {n:UInt32}`,
      { params: { p: PROJECT, n: 2 * LOOKUPS } },
    );
    const traceIds = ids.map((r) => r.trace_id);
    const firstSet = traceIds.filter((_, i) => i % 2 === 0);
    const secondSet = traceIds.filter((_, i) => i % 2 === 1);

    log(`Before: ${firstSet.length} lookups, ${before.parts} parts`);
    const beforeFigures = await lookups(telemetry, firstSet);
    log(`  ${JSON.stringify(beforeFigures)}`);

    log("Forced merges (the age shortened from an hour to 1 s)");
    const { merge, parts: after } = await mergeQuietDays(telemetry, "trace_data");
    log(`  ${JSON.stringify({ ...merge, ...after })}`);

    log(`After: ${secondSet.length} lookups, ${after.parts} parts`);
    const afterFigures = await lookups(telemetry, secondSet);
    log(`  ${JSON.stringify(afterFigures)}`);

    const spans = DAYS * PARTS_PER_DAY * SPANS_PER_PART;
    const row = (label: string, parts: number, f: typeof beforeFigures) =>
      `${label.padEnd(28)} ${String(parts).padStart(5)} parts   first lookup p50 ${f.firstLookup.p50} ms, p90 ${f.firstLookup.p90}, p99 ${f.firstLookup.p99}   same again p50 ${f.sameAgain.p50} ms   SELECT 1 p50 ${f.selectOne.p50} ms`;
    console.log(
      `Trace lookups over ${DAYS} days of trace_data (${spans.toLocaleString("en")} spans), engine time:`,
    );
    console.log(row("each day as merges left it", before.parts, beforeFigures));
    console.log(row("each quiet day one part", after.parts, afterFigures));
    console.log(`  the forced merges: ${merge.seconds} s, ${merge.cpuSeconds} s of process CPU`);
    console.log(
      JSON.stringify({
        bench: "trace-lookup-days",
        days: DAYS,
        partsPerDay: PARTS_PER_DAY,
        spans,
        lookups: firstSet.length,
        before: { parts: before.parts, ...beforeFigures },
        after: { parts: after.parts, ...afterFigures },
        forcedMerges: merge,
      }),
    );
  } finally {
    await telemetry.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
