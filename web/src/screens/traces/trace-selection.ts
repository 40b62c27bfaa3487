import type { Filter } from "../../../../src/contracts/explore-filters.js";
import { filtersParam, readFilters } from "../../components/filters/filter-model.js";

/**
 * What the traces screen selects, as its URL holds it: `service`, `status`, `span_kind`,
 * `min_duration`, `max_duration` and `filters`, the same JSON array the read API takes
 * (`[{"field":"attributes.http.route","op":"=","value":"/cart"}]`), so a link from elsewhere
 * (the service map) and the API agree. The list, the chart and the groups all follow it.
 */
export interface TraceSelection {
  service: string;
  status: string;
  spanKind: string;
  minDuration: string;
  maxDuration: string;
  filters: Filter[];
}

/** The URL parameters of a selection (all of them, so a change can clear any). */
export const SELECTION_PARAMS = [
  "service",
  "status",
  "span_kind",
  "min_duration",
  "max_duration",
  "filters",
] as const;

export function readSelection(params: URLSearchParams): TraceSelection {
  return {
    service: params.get("service") ?? "",
    status: params.get("status") ?? "",
    spanKind: params.get("span_kind") ?? "",
    minDuration: params.get("min_duration") ?? "",
    maxDuration: params.get("max_duration") ?? "",
    filters: readFilters(params).filters,
  };
}

/** Whether anything narrows the selection. */
export const isFiltered = (s: TraceSelection): boolean =>
  Boolean(s.service || s.status || s.spanKind || s.minDuration || s.maxDuration) ||
  s.filters.length > 0;

/** The read API's query parameters of a selection (empty ones are left out by the client). */
export function selectionQuery(s: TraceSelection): Record<string, string | undefined> {
  return {
    service: s.service,
    status: s.status,
    span_kind: s.spanKind,
    min_duration: s.minDuration,
    max_duration: s.maxDuration,
    filters: filtersParam(s.filters),
  };
}

/** The selection with `filter` added, unless the same one is there already. */
export function withFilter(filters: readonly Filter[], filter: Filter): Filter[] {
  const key = JSON.stringify(filter);
  return filters.some((f) => JSON.stringify(f) === key) ? [...filters] : [...filters, filter];
}
