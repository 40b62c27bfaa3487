import type { RunningService } from "../../src/cli/serve.js";
import { ListLogsQuery, listLogs } from "../../src/read/logs.js";
import { getTrace } from "../../src/read/traces.js";
import { type HttpClient, latencies, round, startClient } from "../harness/http-load.js";
import { log } from "../harness/run.js";
import { fmt } from "../harness/stats.js";
import type { CapturedSql } from "./captured-sql.js";
import { type Dataset, readCtxOver } from "./dataset.js";
import { type EngineReads, quietAlone, runDistinct } from "./distinct.js";
import { MIXED_TQL_QUERIES, type MixedSetup, runMixed } from "./mixed.js";
import {
  DISTINCT_INGEST_SPANS,
  DISTINCT_LEAD_SECONDS,
  DISTINCT_ONLY,
  DISTINCT_QUIET_RATE,
  DISTINCT_RATE,
  DISTINCT_SECONDS,
  MIXED_ONLY,
} from "./settings.js";
import type { TraceMix } from "./trace-mix.js";

/**
 * The engine time of one trace lookup: its statements one after the other, three passes. The
 * first pass is each trace's first lookup, as a distinct read is; in the next two the engine's
 * query condition cache skips the granules that held nothing the first time.
 */
export async function traceLookupEngineTime(d: Dataset, sql: CapturedSql) {
  const { deps } = d;
  const { traceSql, runCaptured } = sql;
  const firstMs: number[] = [];
  const lookupMs: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    for (const statements of traceSql) {
      const started = performance.now();
      await runCaptured(statements);
      (pass === 0 ? firstMs : lookupMs).push(performance.now() - started);
    }
  }
  // Beside it, the floor of any statement on this machine now: `SELECT 1`, as many times.
  const floorMs: number[] = [];
  for (let i = 0; i < lookupMs.length; i++) {
    const started = performance.now();
    await deps.telemetry.query("SELECT 1");
    floorMs.push(performance.now() - started);
  }
  const traceLookupEngine = {
    statements: round(traceSql.reduce((n, s) => n + s.length, 0) / traceSql.length, 2),
    ...latencies(Float64Array.from(lookupMs)),
    firstLookup: latencies(Float64Array.from(firstMs)),
    selectOne: latencies(Float64Array.from(floorMs)),
  };
  log(`Trace lookup, engine time: ${JSON.stringify(traceLookupEngine)}`);
  return traceLookupEngine;
}

/**
 * The read verbs straight on the engine executor: no HTTP, authentication, rate limit or read
 * admission; trace lookups still batched by their loader, as the engine is asked for them.
 */
function engineReads(d: Dataset): EngineReads {
  const ctx = readCtxOver(d, d.deps.telemetry);
  return async (projectId, path) => {
    const url = new URL(path, "http://engine");
    if (url.pathname === "/v1/logs") {
      const query = ListLogsQuery.parse(Object.fromEntries(url.searchParams));
      await listLogs({ ctx, projectId, ...query });
      return true;
    }
    const traceId = url.pathname.replace("/v1/traces/", "");
    await getTrace({ ctx, projectId, traceId });
    return true;
  };
}

/**
 * Distinct: every read a different query, while ingestion runs; the refusals by reason. First
 * the quiet project's reads alone (its control), then the same kind of reads straight on the
 * engine (the baseline, other queries), then over HTTP.
 */
export async function distinctPhase(service: RunningService, d: Dataset) {
  const { deps, apiKey, projectId, other, otherKey } = d;
  const { hostname, port } = new URL(service.url);
  log(
    `Distinct: ${DISTINCT_RATE} different reads/s for ${DISTINCT_SECONDS} s, ingest ${fmt(DISTINCT_INGEST_SPANS)} spans/s`,
  );
  const setup = {
    host: hostname,
    port: Number(port),
    readKey: apiKey,
    ingestKey: apiKey,
    telemetry: deps.telemetry,
    projectId,
    rate: DISTINCT_RATE,
    seconds: DISTINCT_SECONDS,
    ingestSpansPerSecond: DISTINCT_INGEST_SPANS,
    ingestLeadSeconds: DISTINCT_LEAD_SECONDS,
    quiet: { key: otherKey.key, projectId: other.id, rate: DISTINCT_QUIET_RATE },
  };
  const quietControl = MIXED_ONLY ? undefined : await quietAlone(setup);
  log(`  the quiet project alone: ${JSON.stringify(quietControl)}`);
  const engine = MIXED_ONLY
    ? undefined
    : await runDistinct({ ...setup, draw: 1, engine: engineReads(d) });
  log(`  straight on the engine: ${JSON.stringify(engine)}`);
  /** The read API's refusals so far (vigil_telemetry_reads_refused_total), by reason. */
  const refusals = async () =>
    Object.fromEntries(
      (await deps.metrics.telemetryReadsRefused.get()).values.map((v) => [
        String(v.labels.reason),
        v.value,
      ]),
    ) as Record<string, number>;
  const refusedBefore = await refusals();
  const distinct = MIXED_ONLY ? undefined : await runDistinct({ ...setup, draw: 0 });
  log(`  ${JSON.stringify(distinct)}`);
  const distinctRefused = Object.fromEntries(
    Object.entries(await refusals()).map(([reason, n]) => [
      reason,
      n - (refusedBefore[reason] ?? 0),
    ]),
  );
  log(
    `  refused by reason (pending: the count bound; wait: the wait bound): ${JSON.stringify(distinctRefused)}`,
  );

  return { distinct, distinctRefused, baselines: { engine, quietAlone: quietControl } };
}

/**
 * Mixed: ingestion and reads while long TQL queries hold engine sessions, beside the same
 * ingestion and reads with no TQL query running (the baseline).
 */
export async function mixedPhase(
  service: RunningService,
  d: Dataset,
  http: HttpClient,
  traces: TraceMix,
) {
  const { apiKey, otherKey } = d;
  const { tracePaths } = traces;
  const config = service.deps.config;
  const { hostname, port } = new URL(service.url);
  const mixedSetup: MixedSetup = {
    url: service.url,
    keys: [apiKey, otherKey.key],
    readClient: http,
    // OTLP partial success: an answer naming rejected items is an error.
    ingestClient: startClient({
      host: hostname,
      port: Number(port),
      headers: { "x-api-key": otherKey.key, "content-type": "application/x-protobuf" },
      badIfIncludes: "rejected",
    }),
    readPaths: tracePaths,
    sessions: config.telemetry.sessions,
  };
  const mixedBaseline = DISTINCT_ONLY ? undefined : await runMixed(mixedSetup, 0);
  const mixed = DISTINCT_ONLY ? undefined : await runMixed(mixedSetup, MIXED_TQL_QUERIES);
  await mixedSetup.ingestClient.stop();
  return { mixed, mixedBaseline };
}
