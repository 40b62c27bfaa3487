import { listLogs } from "../../src/read/logs.js";
import { getTrace } from "../../src/read/traces.js";
import {
  type ClosedLoopResult,
  closedLoop,
  type HttpClient,
  type OpenLoopResult,
  openLoop,
  type Send,
} from "../harness/http-load.js";
import { log } from "../harness/run.js";
import type { CapturedSql } from "./captured-sql.js";
import type { Dataset } from "./dataset.js";
import type { Mode, ModeFigures } from "./report.js";
import {
  CLOSED_SECONDS,
  CONCURRENCY,
  DISTINCT_ONLY,
  LOGS_PATH,
  MIXED_ONLY,
  RATE,
  SECONDS,
  SERIAL_SECONDS,
  WARMUP_SECONDS,
} from "./settings.js";
import type { TraceMix } from "./trace-mix.js";

interface Runner {
  open(seconds: number): Promise<OpenLoopResult>;
  closed(concurrency: number, seconds: number): Promise<ClosedLoopResult>;
}
export interface EndpointFigures {
  modes: Record<Mode, ModeFigures>;
  httpStatuses: Record<string, number>;
}

/** Over HTTP, through the client in its worker thread; statuses counted. */
function httpRunner(http: HttpClient, paths: string[], statuses: Record<string, number>): Runner {
  const count = (from: Record<string, number>) => {
    for (const [k, v] of Object.entries(from)) statuses[k] = (statuses[k] ?? 0) + v;
  };
  return {
    open: async (seconds) => {
      const answer = await http.open(paths, RATE, seconds);
      count(answer.statuses);
      return answer.result;
    },
    closed: async (concurrency, seconds) => {
      const answer = await http.closed(paths, concurrency, seconds);
      count(answer.statuses);
      return answer.result;
    },
  };
}

/** In this thread: the verb, or the engine alone. */
const directRunner = (send: Send): Runner => ({
  open: (seconds) => openLoop(RATE, seconds, send),
  closed: (concurrency, seconds) => closedLoop(concurrency, seconds, send),
});

/** The two read endpoints, each as the engine, the verb and HTTP serve it. */
export function readEndpoints(d: Dataset, traces: TraceMix, sql: CapturedSql) {
  const { system, projectId } = d;
  const { tracePaths, traceIds } = traces;
  const { logsQuery, logsSql, traceSql, runCaptured } = sql;
  return {
    logs: {
      label: `GET ${LOGS_PATH}`,
      paths: [LOGS_PATH],
      verb: () => listLogs({ ctx: system, projectId, ...logsQuery }).then(() => true),
      engine: () => runCaptured(logsSql),
    },
    trace: {
      label: "GET /v1/traces/:traceId",
      paths: tracePaths,
      verb: (i: number) =>
        getTrace({ ctx: system, projectId, traceId: traceIds[i % traceIds.length] ?? "" }).then(
          () => true,
        ),
      engine: (i: number) => runCaptured(traceSql[i % traceSql.length]),
    },
  };
}
export type ReadEndpoints = ReturnType<typeof readEndpoints>;

/** Each endpoint in each mode: warm-up, serial service time, the open loop, the closed loop. */
export async function measureEndpoints(http: HttpClient, endpoints: ReadEndpoints) {
  const figures: Record<string, EndpointFigures> = {};
  for (const [name, endpoint] of MIXED_ONLY || DISTINCT_ONLY ? [] : Object.entries(endpoints)) {
    const httpStatuses: Record<string, number> = {};
    const runners: Record<Mode, Runner> = {
      engine: directRunner(endpoint.engine),
      verb: directRunner(endpoint.verb),
      http: httpRunner(http, endpoint.paths, httpStatuses),
    };
    const modes: Partial<Record<Mode, ModeFigures>> = {};
    for (const mode of ["engine", "verb", "http"] as const) {
      const runner = runners[mode];
      log(`${endpoint.label} [${mode}]: warm-up and serial service time`);
      await runner.closed(1, WARMUP_SECONDS);
      const serial = await runner.closed(1, SERIAL_SECONDS);
      log(`${endpoint.label} [${mode}]: open loop ${RATE}/s for ${SECONDS} s`);
      const open = await runner.open(SECONDS);
      log(`${endpoint.label} [${mode}]: closed loop, ${CONCURRENCY} concurrent`);
      const closed = await runner.closed(CONCURRENCY, CLOSED_SECONDS);
      modes[mode] = { serial, open, closed };
      log(`  ${JSON.stringify(modes[mode])}`);
    }
    const { http: h, verb, engine } = modes;
    if (!h || !verb || !engine) throw new Error("a run is missing");
    figures[name] = { modes: { http: h, verb, engine }, httpStatuses };
  }
  return figures;
}
