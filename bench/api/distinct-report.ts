/**
 * The figures of bench:api's distinct run (distinct.ts): its targets, the read capacity over HTTP
 * beside the same reads straight on the engine, the tenant next door against its control, and
 * the printed table.
 */
import { type Latencies, type OpenLoopResult, round } from "../harness/http-load.js";
import { printTable } from "../harness/table.js";
import type { DistinctFigures } from "./distinct.js";

/** Every read answered, and in time: a quick refusal is not an answer. */
export const distinctTargetMet = (figures: DistinctFigures, targetP99Ms: number): boolean =>
  [figures.logs, figures.traces].every((r) => r.errors === 0 && r.p99 < targetP99Ms);

/** Requests answered (200) per second, from the first scheduled send to the last answer. */
const answeredRate = (r: OpenLoopResult) => ((r.requests - r.errors) / r.requests) * r.achievedRate;

/**
 * Read capacity (issue 37): the distinct reads (logs and traces) answered per second, from the
 * first scheduled request to the last answer (a backlog answered late lowers it), and the p99 of
 * those answered, the worse of the two endpoints.
 */
export function readCapacity(figures: DistinctFigures) {
  return {
    answeredPerSecond: round(answeredRate(figures.logs) + answeredRate(figures.traces), 1),
    answeredP99Ms: Math.max(figures.logs.answered.p99, figures.traces.answered.p99),
    refused: figures.logs.errors + figures.traces.errors,
  };
}

/** Issue 37's target: this many distinct reads answered per second, p99 of those under this. */
export const CAPACITY_TARGET = { answeredPerSecond: 250, p99Ms: 200 };

/** What the distinct run over HTTP is read against: the same reads on the engine, the quiet project alone. */
export interface DistinctBaselines {
  engine?: DistinctFigures | undefined;
  quietAlone?: (OpenLoopResult & { statuses: Record<string, number> }) | undefined;
}

/**
 * The capacity over HTTP beside the same reads straight on the engine (the ratio is the API's
 * cost), and the quiet project's latency beside the flood against its control.
 */
export function capacitySummary(api: DistinctFigures, baselines: DistinctBaselines) {
  const { engine, quietAlone: alone } = baselines;
  const http = readCapacity(api);
  const direct = engine ? readCapacity(engine) : undefined;
  return {
    neighbour: alone
      ? {
          alone: { p50: alone.answered.p50, p99: alone.answered.p99, errors: alone.errors },
          besideFlood: {
            p50: api.quiet.answered.p50,
            p99: api.quiet.answered.p99,
            errors: api.quiet.errors,
          },
          p50Ratio: round(api.quiet.answered.p50 / alone.answered.p50, 2),
        }
      : null,
    target: { ...CAPACITY_TARGET, ingestSpansPerSecond: api.ingest.spansPerSecond },
    api: http,
    engine: direct,
    apiToEngineAnswered: direct
      ? round(http.answeredPerSecond / direct.answeredPerSecond, 3)
      : null,
    met:
      http.answeredPerSecond >= CAPACITY_TARGET.answeredPerSecond &&
      http.answeredP99Ms < CAPACITY_TARGET.p99Ms,
  };
}

/** Prints the distinct run (and its run straight on the engine) and the engine time of a trace lookup. */
export function reportDistinct(
  figures: DistinctFigures,
  baselines: DistinctBaselines,
  traceLookup: Latencies & { statements: number; firstLookup: Latencies; selectOne: Latencies },
  targetP99Ms: number,
  targetEngineMs: number,
) {
  const ms = (n: number) => n.toFixed(2);
  const row = (label: string, rate: number, r: OpenLoopResult, statuses: object) => [
    label,
    String(rate),
    `${ms(r.p50)} / ${ms(r.p99)}`,
    `${ms(r.answered.p50)} / ${ms(r.answered.p99)}`,
    ms(r.max),
    String(round(answeredRate(r), 1)),
    `${r.errors}/${r.requests}`,
    JSON.stringify(statuses),
  ];
  const rows = (f: DistinctFigures, how: string) => [
    row(`GET /v1/logs (window, filter, page)${how}`, f.rate / 2, f.logs, f.logsStatuses),
    row(`GET /v1/traces/:traceId${how}`, f.rate / 2, f.traces, f.tracesStatuses),
    row(`  GET /v1/logs of another project (quiet)${how}`, f.quiet.rate, f.quiet, f.quietStatuses),
    row(
      `  OTLP POST /v1/traces (${f.ingest.spansPerSecond} spans/s), until acknowledged${how}`,
      f.ingest.achievedRate,
      f.ingest,
      f.ingestStatuses,
    ),
  ];
  console.log(
    `\nDistinct, ${figures.rate} requests/s for ${figures.seconds} s, every one a different query (share of distinct paths: logs ${figures.distinct.logs}, traces ${figures.distinct.traces}), while ingesting; the baseline: other queries drawn the same way, straight on the engine (no HTTP, auth or admission)`,
  );
  printTable(
    [
      "load",
      "rate/s",
      "p50 / p99 ms",
      "answered (200): p50 / p99 ms",
      "max ms",
      "answered/s",
      "errors",
      "statuses",
    ],
    [
      ...rows(figures, ""),
      ...(baselines.quietAlone
        ? [
            row(
              "  GET /v1/logs of another project, alone (control)",
              figures.quiet.rate,
              baselines.quietAlone,
              baselines.quietAlone.statuses,
            ),
          ]
        : []),
      ...(baselines.engine ? rows(baselines.engine, ", engine") : []),
    ],
  );
  console.log(
    `Trace lookup engine time (${traceLookup.statements} statements, one after the other): mean ${ms(traceLookup.mean)} ms, p50 ${ms(traceLookup.p50)}, p99 ${ms(traceLookup.p99)} (target < ${targetEngineMs} ms; each trace's first lookup: p50 ${ms(traceLookup.firstLookup.p50)} ms, p99 ${ms(traceLookup.firstLookup.p99)}; any statement, SELECT 1: p50 ${ms(traceLookup.selectOne.p50)} ms)`,
  );
  const met = distinctTargetMet(figures, targetP99Ms);
  console.log(
    `Target p99 < ${targetP99Ms} ms for logs and traces at ${figures.rate} distinct requests/s while ingesting, none refused: ${met ? "met" : "NOT met"}`,
  );
  const capacity = capacitySummary(figures, baselines);
  console.log(
    `Read capacity (target >= ${CAPACITY_TARGET.answeredPerSecond}/s answered, p99 < ${CAPACITY_TARGET.p99Ms} ms): HTTP ${capacity.api.answeredPerSecond}/s, p99 ${ms(capacity.api.answeredP99Ms)} ms; ` +
      `engine ${capacity.engine?.answeredPerSecond ?? "-"}/s, p99 ${capacity.engine ? ms(capacity.engine.answeredP99Ms) : "-"} ms; HTTP/engine ${capacity.apiToEngineAnswered ?? "-"}: ${capacity.met ? "met" : "NOT met"}`,
  );
}
