import type { EdgeObservation, Row } from "../ingest-batch.js";
import { addDuration, type DurationColumns, emptyDurations } from "./http.js";

/** Folds observations into one service_edges row per project, minute, source, target and kind. */
export function summarizeEdges(observations: readonly EdgeObservation[]): Row[] {
  const rows = new Map<string, Row & DurationColumns>();
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
        ...emptyDurations(o.durationMs),
      };
      rows.set(key, row);
    }
    row.calls = (row.calls as number) + 1;
    if (o.failed) row.errors = (row.errors as number) + 1;
    addDuration(row, o.durationMs);
  }
  return [...rows.values()];
}
