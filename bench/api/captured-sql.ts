import { ListLogsQuery, listLogs } from "../../src/read/logs.js";
import { getTrace } from "../../src/read/traces.js";
import { type Captured, recordingExecutor } from "./data.js";
import { type Dataset, readCtxOver } from "./dataset.js";

/** The exact SQL each verb runs, captured once, for the engine-only baseline. */
export async function captureSql(d: Dataset, traceIds: readonly string[]) {
  const { deps, projectId } = d;
  const logsQuery = ListLogsQuery.parse({ limit: "50" });
  const captured: Captured[] = [];
  const recording = recordingExecutor(deps.telemetry, captured);
  // Trace lookups go through their own loader: record its statements too (one per lookup here).
  const recordingCtx = readCtxOver(d, recording);
  await listLogs({ ctx: recordingCtx, projectId, ...logsQuery });
  const logsSql = captured.splice(0);
  const traceSql: Captured[][] = [];
  for (const id of traceIds) {
    await getTrace({ ctx: recordingCtx, projectId, traceId: id });
    traceSql.push(captured.splice(0));
  }
  const runCaptured = async (queries: Captured[] | undefined) => {
    for (const q of queries ?? []) await deps.telemetry[q.method](q.sql, q.options);
    return true;
  };
  return { logsQuery, logsSql, traceSql, runCaptured };
}
export type CapturedSql = Awaited<ReturnType<typeof captureSql>>;
