import { HTTP_DURATION_BOUNDS_MS } from "../../telemetry/tables.js";
import type { EdgeObservation, Row } from "../ingest-batch.js";
import { durationBucket } from "./http.js";

/** Folds observations into one service_edges row per project, minute, source, target and kind. */
export function summarizeEdges(observations: readonly EdgeObservation[]): Row[] {
  const rows = new Map<string, Row & { duration_buckets: number[] }>();
  for (const o of observations) {
    const key = `${o.projectId}\u0000${o.minute}\u0000${o.source}\u0000${o.target}\u0000${o.targetKind}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        project_id: o.projectId,
        timestamp: o.minute,
        source_service: o.source,
        target: o.target,
        target_kind: o.targetKind,
        calls: 0,
        errors: 0,
        duration_sum_ms: 0,
        duration_min_ms: o.durationMs,
        duration_max_ms: o.durationMs,
        duration_buckets: new Array<number>(HTTP_DURATION_BOUNDS_MS.length + 1).fill(0),
      };
      rows.set(key, row);
    }
    row.calls = (row.calls as number) + 1;
    if (o.failed) row.errors = (row.errors as number) + 1;
    row.duration_sum_ms = (row.duration_sum_ms as number) + o.durationMs;
    row.duration_min_ms = Math.min(row.duration_min_ms as number, o.durationMs);
    row.duration_max_ms = Math.max(row.duration_max_ms as number, o.durationMs);
    const bucket = durationBucket(o.durationMs);
    row.duration_buckets[bucket] = (row.duration_buckets[bucket] ?? 0) + 1;
  }
  return [...rows.values()];
}
