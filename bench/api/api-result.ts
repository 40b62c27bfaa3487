import { loadavg } from "node:os";
import { printResult } from "../harness/run.js";
import { fmt, round } from "../harness/stats.js";
import type { Dataset } from "./dataset.js";
import { capacitySummary, distinctTargetMet, reportDistinct } from "./distinct-report.js";
import type { EndpointFigures, ReadEndpoints } from "./endpoints.js";
import { reportMixed } from "./mixed.js";
import type { distinctPhase, mixedPhase, traceLookupEngineTime } from "./phases.js";
import { printEndpointTables } from "./report.js";
import {
  CLOSED_SECONDS,
  CONCURRENCY,
  DISTINCT_INGEST_SPANS,
  DISTINCT_RATE,
  RATE,
  SECONDS,
  SERIAL_SECONDS,
  TARGET_P99_MS,
  TARGET_TRACE_ENGINE_MS,
  WARMUP_SECONDS,
} from "./settings.js";
import type { TraceMix } from "./trace-mix.js";

export interface ApiFigures {
  dataset: Dataset;
  traces: TraceMix;
  endpoints: ReadEndpoints;
  figures: Record<string, EndpointFigures>;
  loadBefore: number;
  traceLookupEngine: Awaited<ReturnType<typeof traceLookupEngineTime>>;
  distinct: Awaited<ReturnType<typeof distinctPhase>>;
  mixed: Awaited<ReturnType<typeof mixedPhase>>;
}

/** Each endpoint's figures with its ratios and target, and whether every endpoint met it. */
function endpointSummary(f: ApiFigures) {
  const { figures, endpoints } = f;
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
  return { entries, summary, met };
}

/** The tables on stdout, then the JSON result line. */
export function report(f: ApiFigures) {
  const { figures, loadBefore, traceLookupEngine } = f;
  const { storedSpans, storedLogs, otherSpans, loadSeconds, loaded, second, parts } = f.dataset;
  const { traceMix } = f.traces;
  const { distinct, distinctRefused, baselines } = f.distinct;
  const { mixed, mixedBaseline } = f.mixed;
  const { entries, summary, met } = endpointSummary(f);
  const ms = (n: number) => n.toFixed(2);
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
    reportDistinct(distinct, baselines, traceLookupEngine, TARGET_P99_MS, TARGET_TRACE_ENGINE_MS);
  printResult({
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
    distinctOnEngine: baselines.engine,
    readCapacity: distinct ? capacitySummary(distinct, baselines) : null,
    traceLookupEngineMs: traceLookupEngine,
    distinctTarget: {
      p99Ms: TARGET_P99_MS,
      rate: DISTINCT_RATE,
      ingestSpansPerSecond: DISTINCT_INGEST_SPANS,
      traceLookupEngineMs: TARGET_TRACE_ENGINE_MS,
    },
    distinctTargetMet: distinctMet && traceLookupEngine.mean < TARGET_TRACE_ENGINE_MS,
  });
}
