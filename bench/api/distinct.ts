/**
 * The distinct run of `npm run bench:api` (issue 19): reads where every request is a different
 * query, so neither a result cache nor the executor's sharing of identical queued reads can
 * answer one request for another, while OTLP ingestion runs in the background.
 *
 * - `GET /v1/traces/:traceId`: a different trace id for each request (never asked before in the
 *   run), of every trace size present;
 * - `GET /v1/logs`: a different window for each (a random 15-minute to 6-hour stretch of the data,
 *   to the millisecond), with no filter, a level, a service or a search term, on pages 1 to 5;
 * - ingestion: OTLP trace exports into the same project at BENCH_API_DISTINCT_INGEST_SPANS
 *   spans/s (10,000; 100 spans per export), open loop, from BENCH_API_DISTINCT_LEAD_SECONDS (5) s
 *   before the reads start (so merges of what it writes are under way) until they end;
 * - a quiet project beside them: `GET /v1/logs` of another project at a few requests a second
 *   (BENCH_API_DISTINCT_QUIET_RATE, 5), each a different query too: how a tenant fares while
 *   another saturates the engine (the read admission's turns, ADR 0018); its control, the same
 *   reads alone with nothing else running (quietAlone), runs first.
 *
 * The same run without the API (issue 37): `engine` given, the same kinds of reads, drawn the
 * same way but another draw (so none repeats a query of the HTTP run), are the read verbs'
 * statements sent straight to the engine executor in this thread, with no HTTP, authentication,
 * rate limit or read admission, beside the same OTLP ingestion over HTTP.
 */
import type { TelemetryExecutor } from "../../src/telemetry/executor.js";
import { type OpenLoopResult, openLoop, round, startClient } from "../harness/http-load.js";

/** Spans per OTLP export of the background ingestion. */
const SPANS_PER_EXPORT = 100;

export interface DistinctSetup {
  host: string;
  port: number;
  readKey: string;
  ingestKey: string;
  telemetry: TelemetryExecutor;
  projectId: string;
  /** Requests per second in all, half to each endpoint. */
  rate: number;
  seconds: number;
  ingestSpansPerSecond: number;
  /** Seconds of ingestion before the reads start. */
  ingestLeadSeconds: number;
  /** Another project's log reads beside the flood, `rate` a second. */
  quiet: { key: string; projectId: string; rate: number };
  /**
   * Which of the disjoint draws of queries this run takes (0, 1, …): runs with different draws
   * share no trace id, and their log windows come from different random sequences.
   */
  draw: number;
  /** Reads straight on the engine instead of over HTTP (see the file comment). */
  engine?: EngineReads;
}

/** Answers one read path of `projectId` without the API: true when answered. */
export type EngineReads = (projectId: string, path: string) => Promise<boolean>;

export interface DistinctFigures {
  rate: number;
  seconds: number;
  logs: OpenLoopResult;
  logsStatuses: Record<string, number>;
  traces: OpenLoopResult;
  tracesStatuses: Record<string, number>;
  /** Every path asked once: distinct paths / requests, per endpoint. */
  distinct: { logs: number; traces: number };
  ingest: OpenLoopResult & { spansPerSecond: number };
  ingestStatuses: Record<string, number>;
  quiet: OpenLoopResult & { rate: number };
  quietStatuses: Record<string, number>;
}

/** OTLP trace export bodies (protobuf) of the demo dataset, `spans` spans in all, recent. */
export async function traceExportBodies(spans: number, batchSpans: number, seed: number) {
  const { demoRequests } = await import("../../src/demo/generator.js");
  const { encodeRequest } = await import("../../src/ingest/otlp/codec.js");
  const bodies: Uint8Array[] = [];
  for (const request of demoRequests({
    spans,
    batchSpans,
    windowMs: 60_000,
    nowMs: Date.now(),
    seed,
  }))
    if (request.signal === "traces") bodies.push(encodeRequest("traces", request.body));
  return bodies;
}

/** `count` trace ids of the project, spread over the whole dataset, each once. */
async function traceIds(
  telemetry: TelemetryExecutor,
  projectId: string,
  count: number,
  draw: number,
) {
  const rows = await telemetry.query<{ trace_id: string }>(
    `SELECT trace_id FROM ${telemetry.database}.traces WHERE project_id = {p:String}
     GROUP BY trace_id ORDER BY cityHash64(trace_id, 19) LIMIT {n:UInt32} OFFSET {skip:UInt32}`,
    { params: { p: projectId, n: count, skip: draw * count } },
  );
  return rows.map((r) => `/v1/traces/${r.trace_id}`);
}

/** `count` different log list requests over the project's data (see the file comment). */
async function logPaths(
  telemetry: TelemetryExecutor,
  projectId: string,
  count: number,
  draw: number,
) {
  const { createRandom } = await import("../../src/demo/otlp-json.js");
  const db = telemetry.database;
  const params = { p: projectId };
  const [span] = await telemetry.query<{ from: string; to: string }>(
    `SELECT toUnixTimestamp64Milli(min(timestamp)) AS from, toUnixTimestamp64Milli(max(timestamp)) AS to
     FROM ${db}.logs WHERE project_id = {p:String}`,
    { params },
  );
  const services = await telemetry.query<{ s: string }>(
    `SELECT DISTINCT service_name AS s FROM ${db}.logs WHERE project_id = {p:String} ORDER BY s`,
    { params },
  );
  const words = await telemetry.query<{ w: string }>(
    `SELECT w FROM (SELECT arrayJoin(extractAll(lower(message), '[a-z]{5,}')) AS w
       FROM ${db}.logs WHERE project_id = {p:String} LIMIT 20000)
     GROUP BY w ORDER BY count() DESC LIMIT 30`,
    { params },
  );
  const random = createRandom(23 + 1000 * draw);
  const first = Number(span?.from ?? 0);
  const last = Number(span?.to ?? 0);
  const widths = [15 * 60_000, 3_600_000, 6 * 3_600_000];
  const paths = new Set<string>();
  while (paths.size < count) {
    const width = random.pick(widths);
    const from = first + Math.floor(random.next() * Math.max(1, last - first - width));
    const query = new URLSearchParams({
      limit: "50",
      from: String(from),
      to: String(from + width),
    });
    const filter = random.next();
    if (filter < 0.25) query.set("level", random.pick(["error", "warn", "info"]));
    else if (filter < 0.45) query.set("service", random.pick(services).s);
    else if (filter < 0.6) query.set("search", random.pick(words).w);
    if (random.chance(0.4)) query.set("page", String(random.int(2, 5)));
    paths.add(`/v1/logs?${query}`);
  }
  return [...paths];
}

/** Reads at a rate over paths in turn, over HTTP (startClient) or straight on the engine. */
interface Reader {
  open(
    paths: string[],
    rate: number,
    seconds: number,
  ): Promise<{ result: OpenLoopResult; statuses: Record<string, number> }>;
  stop(): Promise<unknown>;
}

/** Reads in this thread, straight on the engine: statuses 200, or "failed". */
function engineReader(engine: EngineReads, projectId: string): Reader {
  return {
    async open(paths, rate, seconds) {
      const statuses: Record<string, number> = {};
      const count = (status: string) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
      };
      const result = await openLoop(rate, seconds, async (i) => {
        const ok = await engine(projectId, paths[i % paths.length] as string).catch(() => false);
        count(ok ? "200" : "failed");
        return ok;
      });
      return { result, statuses };
    },
    stop: async () => {},
  };
}

/**
 * Reads at `rate`/s (half logs, half trace lookups), every one a different query, for `seconds`,
 * while ingestion runs at `ingestSpansPerSecond`; latency from each request's scheduled time.
 */
export async function runDistinct(setup: DistinctSetup): Promise<DistinctFigures> {
  const perEndpoint = setup.rate / 2;
  const requests = Math.ceil(perEndpoint * setup.seconds);
  const [tracePaths, logsPaths, quietPaths] = await Promise.all([
    traceIds(setup.telemetry, setup.projectId, requests, setup.draw),
    logPaths(setup.telemetry, setup.projectId, requests, setup.draw),
    logPaths(
      setup.telemetry,
      setup.quiet.projectId,
      Math.ceil(setup.quiet.rate * setup.seconds),
      setup.draw,
    ),
  ]);
  const exportsPerSecond = setup.ingestSpansPerSecond / SPANS_PER_EXPORT;
  const ingestSeconds = setup.ingestLeadSeconds + setup.seconds;
  // Enough distinct exports for 10 s; older ones are sent again (same spans, same trace ids).
  const bodies = await traceExportBodies(
    Math.min(setup.ingestSpansPerSecond * ingestSeconds, setup.ingestSpansPerSecond * 10),
    SPANS_PER_EXPORT,
    31,
  );
  const reader = (key = setup.readKey, projectId = setup.projectId): Reader =>
    setup.engine
      ? engineReader(setup.engine, projectId)
      : startClient({ host: setup.host, port: setup.port, headers: { "x-api-key": key } });
  const logs = reader();
  const traces = reader();
  const quiet = reader(setup.quiet.key, setup.quiet.projectId);
  const ingest = startClient({
    host: setup.host,
    port: setup.port,
    headers: { "x-api-key": setup.ingestKey, "content-type": "application/x-protobuf" },
    badIfIncludes: "rejected",
  });
  try {
    const ingesting = ingest.open(["/v1/traces"], exportsPerSecond, ingestSeconds, bodies);
    await new Promise((resolve) => setTimeout(resolve, setup.ingestLeadSeconds * 1000));
    const [logsAnswer, tracesAnswer, quietAnswer] = await Promise.all([
      logs.open(logsPaths, perEndpoint, setup.seconds),
      traces.open(tracePaths, perEndpoint, setup.seconds),
      quiet.open(quietPaths, setup.quiet.rate, setup.seconds),
    ]);
    const ingested = await ingesting;
    return {
      rate: setup.rate,
      seconds: setup.seconds,
      logs: logsAnswer.result,
      logsStatuses: logsAnswer.statuses,
      traces: tracesAnswer.result,
      tracesStatuses: tracesAnswer.statuses,
      distinct: {
        logs: round(
          Math.min(logsPaths.length, logsAnswer.result.requests) / logsAnswer.result.requests,
          3,
        ),
        traces: round(
          Math.min(tracePaths.length, tracesAnswer.result.requests) / tracesAnswer.result.requests,
          3,
        ),
      },
      ingest: {
        ...ingested.result,
        spansPerSecond: Math.round(ingested.result.achievedRate * SPANS_PER_EXPORT),
      },
      ingestStatuses: ingested.statuses,
      quiet: { ...quietAnswer.result, rate: setup.quiet.rate },
      quietStatuses: quietAnswer.statuses,
    };
  } finally {
    await Promise.all([logs.stop(), traces.stop(), ingest.stop(), quiet.stop()]);
  }
}

/**
 * The quiet project's log reads alone, the control of the tenant next door: no flood and no
 * ingestion, at its rate for as long, over HTTP, drawn apart from the runs' (draw 2).
 */
export async function quietAlone(setup: Omit<DistinctSetup, "draw" | "engine">) {
  const { quiet } = setup;
  const count = Math.ceil(quiet.rate * setup.seconds);
  const paths = await logPaths(setup.telemetry, quiet.projectId, count, 2);
  const client = startClient({
    host: setup.host,
    port: setup.port,
    headers: { "x-api-key": quiet.key },
  });
  try {
    const { result, statuses } = await client.open(paths, quiet.rate, setup.seconds);
    return { ...result, statuses };
  } finally {
    await client.stop();
  }
}
