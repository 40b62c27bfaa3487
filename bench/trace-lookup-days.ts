/**
 * npm run bench:trace-lookup-days — what a trace lookup (`GET /v1/traces/:id`, readTraceData)
 * costs the engine beside `SELECT 1`, against issue 37's target 2: ≤ 2.5× `SELECT 1` on ~1M
 * spans, a trace's first lookup over 30 days ≤ 4×; and the alternative ADR 0028 measured.
 *
 * A lookup names no time range, so it opens every part of `trace_data` of every day kept (ADR
 * 0019: one part per quiet day, several for today). Measured beside it, interleaved:
 * - `throughRanges`: the trace's time range read from `trace_ranges` by a scalar subquery of the
 *   same statement, so only the parts whose times hold it are opened (bench/trace-ranges-variant.ts;
 *   the bench creates that table and its view);
 * - `constantRange`: the same with the range as constants: what a lookup would cost if finding
 *   the trace's parts cost nothing (the floor of any index).
 *
 * Two cases, each in a fresh embedded engine with the product's schema, demo spans mapped as
 * ingestion maps them and inserted into `traces` (the views fill `trace_data`, `trace_ranges`):
 *
 * 1. **One busy day:** BENCH_ONE_DAY_SPANS (1,000,000) spans of the last BENCH_ONE_DAY_HOURS (2)
 *    in inserts of BENCH_SPANS_PER_INSERT (5,000), merges running as in the product; once they
 *    settle (at most 2 minutes) they are stopped, so the parts stay as they are while measured.
 * 2. **A month kept:** BENCH_DAYS − 1 (29) past days of BENCH_PARTS_PER_DAY (8) inserts of
 *    BENCH_SPANS_PER_PART (2,000) spans, each day then merged into one part (the product's forced
 *    merge of a quiet day, its age shortened to 1 s), and today's 8 inserts as they land.
 *
 * In each: BENCH_LOOKUPS (200) rounds of `SELECT 1` and each lookup of a different trace; then
 * each trace once more. A trace's first lookup is what distinct reads
 * cost (the engine's query condition cache helps the second). Times are wall times of the calls
 * in this process: the engine is embedded, and the process is otherwise idle.
 *
 * Then, on the busy day's engine: what `trace_ranges`' view adds to an insert, the same
 * BENCH_WRITE_INSERTS (10) batches inserted with and without it, alternately.
 *
 * The last line is one JSON object: the product's figures (unchanged by ADR 0028: they are also
 * the baseline), the alternatives' beside them, and the target.
 */

import { join } from "node:path";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { envNumber as env, log, printResult, withTempDir } from "./harness/run.js";
import { round } from "./harness/stats.js";
import { mergeQuietDays, partsPerDay } from "./quiet-days.js";
import {
  lookupsInterleaved,
  productLookup,
  rangesWriteCost,
  settleMerges,
  someTraces,
  spanBatches,
} from "./trace-lookup-data.js";
import { createTraceRanges, knownRanges, lookupThroughRanges } from "./trace-ranges-variant.js";

const ONE_DAY_SPANS = env("BENCH_ONE_DAY_SPANS", 1_000_000);
const ONE_DAY_HOURS = env("BENCH_ONE_DAY_HOURS", 2);
const SPANS_PER_INSERT = env("BENCH_SPANS_PER_INSERT", 5000);
const DAYS = env("BENCH_DAYS", 30);
const PARTS_PER_DAY = env("BENCH_PARTS_PER_DAY", 8);
const SPANS_PER_PART = env("BENCH_SPANS_PER_PART", 2000);
const LOOKUPS = env("BENCH_LOOKUPS", 200);
const WRITE_INSERTS = env("BENCH_WRITE_INSERTS", 10);
const CASES = (process.env.BENCH_CASES ?? "one-day,days").split(",");
const PROJECT = "prj_bench_lookup_days";
const DAY_MS = 24 * 3600_000;
const TARGET = { oneDayRatio: 2.5, firstLookup30DaysRatio: 4 };

/** A fresh engine with the product's schema in a temporary dir, closed and removed after `run`. */
function withEngine<T>(name: string, run: (telemetry: TelemetryExecutor) => Promise<T>) {
  return withTempDir(`lookup-${name}`, async (dir, cleanups) => {
    const telemetry = createChdbExecutor({ path: join(dir, "telemetry"), database: "vigil" });
    cleanups.push(() => telemetry.close());
    await ensureTelemetrySchema(telemetry, { retentionDays: 30 });
    await createTraceRanges(telemetry);
    return run(telemetry);
  });
}

async function insertAll(telemetry: TelemetryExecutor, batches: Iterable<unknown[]>) {
  let spans = 0;
  for (const rows of batches) {
    await telemetry.insert("traces", rows as Record<string, unknown>[]);
    spans += rows.length;
  }
  return spans;
}

/** The three lookups, interleaved, LOOKUPS traces each. */
async function measure(telemetry: TelemetryExecutor) {
  const lookups = {
    product: productLookup,
    throughRanges: lookupThroughRanges,
    constantRange: await knownRanges(telemetry, PROJECT),
  };
  const ids = await someTraces(telemetry, PROJECT, 3 * LOOKUPS);
  return lookupsInterleaved(telemetry, PROJECT, ids, lookups);
}

const tables = async (telemetry: TelemetryExecutor) => ({
  traceData: await partsPerDay(telemetry, "trace_data"),
  traceRanges: await partsPerDay(telemetry, "trace_ranges"),
});

async function oneDay() {
  return withEngine("one-day", async (telemetry) => {
    const endMs = Date.now();
    log(`One day: ${ONE_DAY_SPANS} spans over ${ONE_DAY_HOURS} h, ${SPANS_PER_INSERT} an insert`);
    const started = performance.now();
    const spans = await insertAll(
      telemetry,
      spanBatches(PROJECT, {
        spans: ONE_DAY_SPANS,
        perInsert: SPANS_PER_INSERT,
        endMs,
        windowMs: ONE_DAY_HOURS * 3600_000,
        seed: 7,
      }),
    );
    log(`  written in ${round((performance.now() - started) / 1000, 1)} s; merges settling`);
    await settleMerges(telemetry);
    const parts = await tables(telemetry);
    log(`  ${JSON.stringify(parts)}`);
    const figures = await measure(telemetry);
    log(`  ${JSON.stringify(figures)}`);
    log(`Write cost of trace_ranges' view: ${WRITE_INSERTS} inserts each way`);
    const batches = [
      ...spanBatches("prj_bench_write", {
        spans: WRITE_INSERTS * SPANS_PER_INSERT,
        perInsert: SPANS_PER_INSERT,
        endMs,
        windowMs: 600_000,
        seed: 8,
      }),
    ];
    const writeCost = await rangesWriteCost(telemetry, batches);
    log(`  ${JSON.stringify(writeCost)}`);
    return { spans, ...parts, ...figures, writeCost };
  });
}

async function month() {
  return withEngine("days", async (telemetry) => {
    const db = telemetry.database;
    await telemetry.command(`SYSTEM STOP MERGES ${db}.trace_data`);
    log(`${DAYS} days: ${PARTS_PER_DAY} inserts a day of ${SPANS_PER_PART} spans`);
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const day = (n: number) =>
      spanBatches(PROJECT, {
        spans: PARTS_PER_DAY * SPANS_PER_PART,
        perInsert: SPANS_PER_PART,
        endMs: n === 0 ? Date.now() : today - (n - 1) * DAY_MS - DAY_MS / 2,
        windowMs: n === 0 ? Math.min(3600_000, Date.now() - today) : 3600_000,
        seed: 100 + n,
      });
    let spans = 0;
    for (let n = DAYS - 1; n >= 1; n--) spans += await insertAll(telemetry, day(n));
    log("  past days written; each merged into one part (the age shortened to 1 s)");
    const { merge } = await mergeQuietDays(telemetry, "trace_data");
    // trace_ranges' weeks too (its merges ran meanwhile, as in the product).
    await mergeQuietDays(telemetry, "trace_ranges");
    // Today's inserts land as the product's would: today keeps its parts.
    for (const table of ["trace_data", "trace_ranges"])
      await telemetry.command(
        `ALTER TABLE ${db}.${table} MODIFY SETTING min_age_to_force_merge_seconds = 3600`,
      );
    await telemetry.command(`SYSTEM START MERGES ${db}.trace_ranges`);
    spans += await insertAll(telemetry, day(0));
    await settleMerges(telemetry);
    const parts = await tables(telemetry);
    log(`  ${JSON.stringify(parts)}`);
    const figures = await measure(telemetry);
    log(`  ${JSON.stringify(figures)}`);
    return { days: DAYS, spans, ...parts, forcedMerges: merge, ...figures };
  });
}

type Figures = Awaited<ReturnType<typeof measure>>;
type Lookup = Figures["each"][string];
const line = (label: string, f: Lookup | undefined, one: Figures["selectOne"]) =>
  f
    ? `  ${label.padEnd(14)} first p50 ${f.firstLookup.p50} ms, p90 ${f.firstLookup.p90}, p99 ${f.firstLookup.p99} (${f.ratioToSelectOne.firstLookup}x SELECT 1 p50 ${one.first.p50})   again p50 ${f.sameAgain.p50}, p90 ${f.sameAgain.p90}, p99 ${f.sameAgain.p99} (${f.ratioToSelectOne.sameAgain}x SELECT 1 p50 ${one.again.p50})`
    : "";

function report(title: string, f: Figures & { spans: number }) {
  console.log(`${title} (${f.spans.toLocaleString("en")} spans), engine time per lookup:`);
  for (const [name, figures] of Object.entries(f.each))
    console.log(line(name, figures, f.selectOne));
}

const busy = CASES.includes("one-day") ? await oneDay() : undefined;
const kept = CASES.includes("days") ? await month() : undefined;
if (busy) {
  report("One busy day", busy);
  const w = busy.writeCost.cpuMicrosPerSpan;
  console.log(
    `  trace_ranges' view, inserts of ${busy.writeCost.spansPerInsert} spans: ${w.withView} µs of CPU a span with it, ${w.withoutView} without`,
  );
}
if (kept) report(`${DAYS} days kept`, kept);
const ratio = (f: Figures | undefined, pass: "firstLookup" | "sameAgain") =>
  f?.each.product?.ratioToSelectOne[pass];
const met = {
  oneDay: busy
    ? (ratio(busy, "firstLookup") ?? 99) <= TARGET.oneDayRatio &&
      (ratio(busy, "sameAgain") ?? 99) <= TARGET.oneDayRatio
    : null,
  firstLookup30Days: kept
    ? (ratio(kept, "firstLookup") ?? 99) <= TARGET.firstLookup30DaysRatio
    : null,
};
printResult({
  bench: "trace-lookup-days",
  figure: {
    oneDay: busy
      ? { firstLookup: ratio(busy, "firstLookup"), sameAgain: ratio(busy, "sameAgain") }
      : null,
    firstLookup30Days: kept ? ratio(kept, "firstLookup") : null,
  },
  baseline: "the product's lookup, unchanged (ADR 0028): the figure is its own baseline",
  target: TARGET,
  met,
  oneDay: busy ?? null,
  days: kept ?? null,
});
