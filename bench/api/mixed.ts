/**
 * The mixed run of `npm run bench:api` (issue 14): while long TQL queries run (2 per project,
 * each stopped by the time limit), OTLP trace exports from the second project and distinct trace
 * reads, open loop; how soon ingestion is acknowledged and read latency, beside the same
 * ingestion and reads with no TQL query running (the baseline).
 */

import { type HttpClient, round } from "../harness/http-load.js";
import { printTable } from "../harness/table.js";
import { traceExportBodies } from "./distinct.js";

export const MIXED_SECONDS = Number(process.env.BENCH_API_MIXED_SECONDS ?? 20);
export const MIXED_READ_RATE = Number(process.env.BENCH_API_MIXED_READ_RATE ?? 50);
export const MIXED_INGEST_RATE = Number(process.env.BENCH_API_MIXED_INGEST_RATE ?? 20);
export const MIXED_TQL_SECONDS = Number(process.env.BENCH_API_MIXED_TQL_SECONDS ?? 10);
export const MIXED_TQL_QUERIES = Number(process.env.BENCH_API_MIXED_TQL_QUERIES ?? 4);
export const TARGET_INGEST_P99_MS = 1000;
/** Allowed TQL that never finishes by itself: it runs until the time limit stops it. */
const ENDLESS_TQL =
  "SELECT count() AS n FROM traces a CROSS JOIN traces b CROSS JOIN traces c " +
  "WHERE cityHash64(a.span_id, b.span_id, c.span_id) % 1000 = 7";

const log = (text: string) => process.stderr.write(`${text}\n`);

export interface MixedSetup {
  url: string;
  /** One key per project, each allowed to run TQL; the second one also ingests. */
  keys: [string, string];
  readClient: HttpClient;
  ingestClient: HttpClient;
  readPaths: string[];
  sessions: number;
}

/**
 * Reads and OTLP exports, open loop, while 4 TQL queries that only the time limit stops hold
 * engine sessions; each TQL query is sent again as soon as it is answered.
 */
export async function runMixed(setup: MixedSetup, tqlQueries: number) {
  const bodies = await traceExportBodies(4000, 100, 99);

  let running = true;
  const tqlStatuses: Record<string, number> = {};
  let tqlStarted = 0;
  const tqlSeconds: number[] = [];
  const tqlLoop = async (key: string) => {
    while (running) {
      tqlStarted++;
      const started = performance.now();
      const response = await fetch(`${setup.url}/v1/tql`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ query: ENDLESS_TQL }),
      }).catch(() => undefined);
      const body = (await response?.json().catch(() => undefined)) as { code?: string } | undefined;
      const status = `${response?.status ?? "network"}${body?.code ? ` ${body.code}` : ""}`;
      tqlStatuses[status] = (tqlStatuses[status] ?? 0) + 1;
      tqlSeconds.push((performance.now() - started) / 1000);
    }
  };
  log(
    `Mixed: ${tqlQueries} long TQL queries, ingest ${MIXED_INGEST_RATE}/s and reads ${MIXED_READ_RATE}/s for ${MIXED_SECONDS} s`,
  );
  const loops = Array.from({ length: tqlQueries }, (_, i) => tqlLoop(setup.keys[i % 2] as string));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  // No new TQL query once the last request is sent: what is queued then drains (one lane: slowly).
  const stop = setTimeout(() => {
    running = false;
  }, MIXED_SECONDS * 1000);
  const [read, ingest] = await Promise.all([
    setup.readClient.open(setup.readPaths, MIXED_READ_RATE, MIXED_SECONDS),
    setup.ingestClient.open(["/v1/traces"], MIXED_INGEST_RATE, MIXED_SECONDS, bodies),
  ]);
  clearTimeout(stop);
  running = false;
  await Promise.all(loops);
  const result = {
    sessions: setup.sessions,
    seconds: MIXED_SECONDS,
    tql: {
      queries: tqlQueries,
      limitSeconds: MIXED_TQL_SECONDS,
      started: tqlStarted,
      meanSeconds: round(tqlSeconds.reduce((a, b) => a + b, 0) / Math.max(1, tqlSeconds.length), 1),
      statuses: tqlStatuses,
    },
    ingest: ingest.result,
    ingestStatuses: ingest.statuses,
    ingestRate: MIXED_INGEST_RATE,
    read: read.result,
    readStatuses: read.statuses,
    readRate: MIXED_READ_RATE,
    targetIngestP99Ms: TARGET_INGEST_P99_MS,
    targetMet: ingest.result.p99 < TARGET_INGEST_P99_MS && ingest.result.errors === 0,
  };
  log(`  ${JSON.stringify(result)}`);
  return result;
}

export type MixedFigures = Awaited<ReturnType<typeof runMixed>>;

const ms = (n: number) => n.toFixed(2);
const pair = (a: number, b: number) => `${ms(a)} / ${ms(b)}`;

/** Prints the mixed run beside its baseline. */
export function reportMixed(mixed: MixedFigures, mixedBaseline: MixedFigures) {
  console.log(
    `\nMixed, ${MIXED_SECONDS} s with ${MIXED_TQL_QUERIES} long TQL queries running (2 per project, ${MIXED_TQL_SECONDS} s limit), engine sessions: ${mixed.sessions}`,
  );
  const mixedRow = (label: string, rate: number, r: typeof mixed.ingest, statuses: object) => [
    label,
    String(rate),
    pair(r.p50, r.p99),
    ms(r.max),
    String(r.achievedRate),
    `${r.errors}/${r.requests}`,
    JSON.stringify(statuses),
  ];
  printTable(
    ["load", "rate/s", "p50 / p99 ms", "max ms", "achieved/s", "errors", "statuses"],
    [
      mixedRow(
        `OTLP POST /v1/traces (100 spans), until acknowledged, with ${MIXED_TQL_QUERIES} TQL`,
        MIXED_INGEST_RATE,
        mixed.ingest,
        mixed.ingestStatuses,
      ),
      mixedRow(
        "  baseline: the same with no TQL query running",
        MIXED_INGEST_RATE,
        mixedBaseline.ingest,
        mixedBaseline.ingestStatuses,
      ),
      mixedRow(
        `GET /v1/traces/:traceId (distinct ids), with ${MIXED_TQL_QUERIES} TQL`,
        MIXED_READ_RATE,
        mixed.read,
        mixed.readStatuses,
      ),
      mixedRow(
        "  baseline: the same with no TQL query running",
        MIXED_READ_RATE,
        mixedBaseline.read,
        mixedBaseline.readStatuses,
      ),
    ],
  );
  console.log(
    `TQL: ${mixed.tql.started} long queries started, answers ${JSON.stringify(mixed.tql.statuses)}; ` +
      `ingest acknowledged p99 < ${TARGET_INGEST_P99_MS} ms while they run: ${mixed.targetMet ? "met" : "NOT met"} (p99 ${ms(mixed.ingest.p99)} ms)`,
  );
}
