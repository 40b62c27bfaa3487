import type { RunningService } from "../../src/cli/serve.js";
import { log } from "../harness/run.js";
import type { Dataset } from "./dataset.js";
import { LOGS_PATH, TRACES } from "./settings.js";

/**
 * Trace ids: a few hundred, spread over every trace size present, in mixed order; then a check
 * that both endpoints answer with what the data holds.
 */
export async function pickTraces(service: RunningService, d: Dataset) {
  const { deps, projectId, apiKey, storedLogs } = d;
  const bySize = await deps.telemetry.query<{ spans: string; ids: string[] }>(
    `SELECT spans, groupArray(${TRACES})(trace_id) AS ids FROM (
       SELECT trace_id, count() AS spans FROM vigil.traces WHERE project_id = {p:String}
       GROUP BY trace_id ORDER BY cityHash64(trace_id))
     GROUP BY spans ORDER BY spans`,
    { params: { p: projectId } },
  );
  const traceIds: string[] = [];
  const traceSizes: number[] = [];
  for (let pass = 0; traceIds.length < TRACES; pass++) {
    let added = false;
    for (const group of bySize) {
      const id = group.ids[pass];
      if (id === undefined || traceIds.length >= TRACES) continue;
      traceIds.push(id);
      traceSizes.push(Number(group.spans));
      added = true;
    }
    if (!added) break;
  }
  const sizes = [...traceSizes].sort((a, b) => a - b);
  const traceMix = {
    traces: traceIds.length,
    minSpans: sizes[0] ?? 0,
    medianSpans: sizes[Math.floor(sizes.length / 2)] ?? 0,
    maxSpans: sizes.at(-1) ?? 0,
    distinctSizes: bySize.length,
  };
  log(`Trace ids: ${JSON.stringify(traceMix)}`);
  const tracePaths = traceIds.map((id) => `/v1/traces/${id}`);

  // Sanity: both endpoints answer with what the data holds.
  const headers = { "x-api-key": apiKey };
  const logsPage = (await (await fetch(`${service.url}${LOGS_PATH}`, { headers })).json()) as {
    data: unknown[];
    pagination: { total: number };
  };
  if (logsPage.data.length !== 50 || logsPage.pagination.total !== storedLogs)
    throw new Error(`GET ${LOGS_PATH} answered an unexpected page`);
  const traceCheck = (await (
    await fetch(`${service.url}${tracePaths[0] ?? ""}`, { headers })
  ).json()) as { spanCount: number };
  if (traceCheck.spanCount !== traceSizes[0])
    throw new Error(`GET ${tracePaths[0]} answered ${traceCheck.spanCount} spans`);
  return { traceIds, traceSizes, traceMix, tracePaths };
}
export type TraceMix = Awaited<ReturnType<typeof pickTraces>>;
