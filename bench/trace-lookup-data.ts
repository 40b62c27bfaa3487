/**
 * bench:trace-lookup-days' data and its lookups: demo spans mapped as ingestion maps them,
 * inserted into `traces` (the views copy them into `trace_data`, and into the bench's
 * `trace_ranges` when it is created); the product's lookup (readTraceData) and the alternatives
 * of ADR 0028, timed interleaved with `SELECT 1`; and what `trace_ranges`' view adds to an insert.
 */
import { demoRequests } from "../src/demo/generator.js";
import { PriceTable } from "../src/ingest/derive/ai-prices.js";
import type { Row } from "../src/ingest/ingest-batch.js";
import { mapTraces } from "../src/ingest/map-traces.js";
import type { TracesRequest } from "../src/ingest/otlp/otlp-messages.js";
import { readTraceData } from "../src/read/trace-data.js";
import { qualifiedName, type TelemetryExecutor } from "../src/telemetry/executor.js";
import { UnixTime } from "../src/telemetry/unix-time.js";
import { latencies, round } from "./harness/http-load.js";
import { rangesViewSql } from "./trace-ranges-variant.js";

/** The traces rows of `spans` demo spans over `windowMs` before `endMs`, per insert. */
export function* spanBatches(
  projectId: string,
  options: { spans: number; perInsert: number; endMs: number; windowMs: number; seed: number },
): Generator<Row[]> {
  const prices = new PriceTable();
  for (const request of demoRequests({
    spans: options.spans,
    batchSpans: options.perInsert,
    windowMs: options.windowMs,
    nowMs: options.endMs,
    seed: options.seed,
  })) {
    if (request.signal !== "traces") continue;
    const mapped = mapTraces(
      request.body as unknown as TracesRequest,
      {
        projectId,
        limits: { maxValueLength: 8192, maxAttributes: 128 },
        received: UnixTime.fromMillis(options.endMs),
      },
      prices,
    );
    yield mapped.batch.traces;
  }
}

/** Waits until no merge runs in the database (at most `maxMs`), then stops merges there. */
export async function settleMerges(telemetry: TelemetryExecutor, maxMs = 120_000) {
  const started = performance.now();
  for (;;) {
    const [row] = await telemetry.query<{ n: string }>(
      "SELECT count() AS n FROM system.merges WHERE database = {db:String}",
      { params: { db: telemetry.database } },
    );
    if (Number(row?.n) === 0 || performance.now() - started > maxMs) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  for (const table of ["trace_data", "trace_ranges"])
    await telemetry.command(`SYSTEM STOP MERGES ${telemetry.database}.${table}`);
}

/** Trace ids of the project, in an order unrelated to their time or key. */
export async function someTraces(telemetry: TelemetryExecutor, projectId: string, n: number) {
  const rows = await telemetry.query<{ trace_id: string }>(
    `SELECT trace_id FROM ${telemetry.database}.trace_data WHERE project_id = {p:String} AND item = 'span'
     GROUP BY trace_id ORDER BY cityHash64(trace_id) LIMIT {n:UInt32}`,
    { params: { p: projectId, n } },
  );
  return rows.map((r) => r.trace_id);
}

/** The product's lookup (GET /v1/traces/:id's statement). */
export async function productLookup(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceId: string,
) {
  const found = await readTraceData(telemetry, projectId, [traceId], { limit: 50_001 });
  if (!found.get(traceId)?.spans.length) throw new Error(`trace ${traceId} was not found`);
}

export type Lookup = (
  telemetry: TelemetryExecutor,
  projectId: string,
  traceId: string,
) => Promise<void>;

const timed = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

const figures = (ms: number[]) => {
  const { p50, p90, p99 } = latencies(Float64Array.from(ms));
  return { p50, p90, p99 };
};

/**
 * The lookups interleaved, each on its own traces (trace i goes to lookup i mod n): `SELECT 1`,
 * then each lookup of its next trace, round after round; then every trace once more, the same
 * way. Wall time of each call in this process (the engine is embedded, its CPU is the caller's:
 * measured ±5 %), p50/p90/p99, and each p50 as a multiple of `SELECT 1`'s in the same pass.
 */
export async function lookupsInterleaved(
  telemetry: TelemetryExecutor,
  projectId: string,
  traceIds: readonly string[],
  lookups: Record<string, Lookup>,
) {
  const names = Object.keys(lookups);
  const rounds = Math.floor(traceIds.length / names.length);
  const one: [number[], number[]] = [[], []];
  const times = new Map(names.map((name) => [name, [[], []] as [number[], number[]]]));
  for (const pass of [0, 1] as const) {
    for (let i = 0; i < rounds; i++) {
      one[pass].push(await timed(() => telemetry.query("SELECT 1")));
      for (const [k, name] of names.entries()) {
        const id = traceIds[i * names.length + k] as string;
        const lookup = lookups[name] as Lookup;
        times.get(name)?.[pass].push(await timed(() => lookup(telemetry, projectId, id)));
      }
    }
  }
  const selectOne = { first: figures(one[0]), again: figures(one[1]) };
  const of = (name: string) => {
    const [a = [], b = []] = times.get(name) ?? [];
    const first = figures(a);
    const again = figures(b);
    return {
      firstLookup: first,
      sameAgain: again,
      ratioToSelectOne: {
        firstLookup: round(first.p50 / selectOne.first.p50),
        sameAgain: round(again.p50 / selectOne.again.p50),
      },
    };
  };
  const each: Record<string, ReturnType<typeof of>> = {};
  for (const name of names) each[name] = of(name);
  return { lookups: rounds, selectOne, each };
}

/**
 * What `trace_ranges`' view adds to an insert into `traces`: the same batches inserted with the
 * view and without it, alternately (merges stopped), process CPU (the engine's threads included)
 * per span of each. The view is left in place.
 */
export async function rangesWriteCost(telemetry: TelemetryExecutor, batches: readonly Row[][]) {
  const db = telemetry.database;
  const viewSql = rangesViewSql(db);
  const view = { name: "trace_ranges_mv" };
  await telemetry.command(`SYSTEM STOP MERGES ${db}.traces`);
  const micros = { with: 0, without: 0 };
  let spans = 0;
  let present = true;
  const setView = async (want: boolean) => {
    if (want !== present)
      await telemetry.command(want ? viewSql : `DROP VIEW ${qualifiedName(db, view.name)}`);
    present = want;
  };
  try {
    for (const [i, rows] of batches.entries()) {
      for (const withView of i % 2 === 0 ? [true, false] : [false, true]) {
        await setView(withView);
        const started = process.cpuUsage();
        await telemetry.insert("traces", rows);
        const used = process.cpuUsage(started);
        micros[withView ? "with" : "without"] += used.user + used.system;
      }
      spans += rows.length;
    }
  } finally {
    await setView(true);
    await telemetry.command(`SYSTEM START MERGES ${db}.traces`);
  }
  return {
    inserts: batches.length,
    spansPerInsert: round(spans / batches.length, 0),
    cpuMicrosPerSpan: {
      withView: round(micros.with / spans),
      withoutView: round(micros.without / spans),
    },
  };
}
