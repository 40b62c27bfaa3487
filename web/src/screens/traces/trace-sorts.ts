import type { TraceSort } from "../../../../src/contracts/traces";

/** The sorts GET /v1/traces accepts (contracts/traces.ts TRACE_SORTS), with their column labels. */
export const TRACE_SORTS = [
  { key: "start_time", label: "Start time" },
  { key: "duration", label: "Duration" },
  { key: "span_count", label: "Span count" },
  { key: "error_count", label: "Error count" },
] as const satisfies readonly { key: TraceSort; label: string }[];
