import { type Filter, Filters } from "../../../../src/contracts/explore-filters.js";

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

/** The filters of a `filters` parameter; text that is not a valid list is none. */
export function parseFilters(text: string | null): Filter[] {
  if (!text) return [];
  try {
    const parsed = Filters.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The `filters` parameter of a list (undefined when empty, so the URL drops it). */
export const filtersParam = (filters: readonly Filter[]): string | undefined =>
  filters.length > 0 ? JSON.stringify(filters) : undefined;

export function readSelection(params: URLSearchParams): TraceSelection {
  return {
    service: params.get("service") ?? "",
    status: params.get("status") ?? "",
    spanKind: params.get("span_kind") ?? "",
    minDuration: params.get("min_duration") ?? "",
    maxDuration: params.get("max_duration") ?? "",
    filters: parseFilters(params.get("filters")),
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

/** How a filter reads on its chip: `attributes.http.route = /cart`, `db.system exists`. */
export function filterText(filter: Filter): string {
  const op = OP_TEXT[filter.op];
  if (filter.value === undefined) return `${filter.field} ${op}`;
  const value = Array.isArray(filter.value) ? filter.value.join(", ") : String(filter.value);
  return `${filter.field} ${op} ${value === "" ? '""' : value}`;
}

export const OP_TEXT: Record<Filter["op"], string> = {
  "=": "=",
  "!=": "≠",
  in: "in",
  not_in: "not in",
  contains: "contains",
  not_contains: "does not contain",
  regex: "matches",
  not_regex: "does not match",
  exists: "exists",
  not_exists: "does not exist",
  ">": ">",
  ">=": "≥",
  "<": "<",
  "<=": "≤",
};

/**
 * A filter from the add form's text: a list for in/not_in (comma separated), a number for the
 * comparisons, nothing for exists; an error message when the text does not fit the operator.
 */
export function filterFromForm(
  field: string,
  op: Filter["op"],
  text: string,
): Filter | { error: string } {
  const name = field.trim();
  if (!name) return { error: "Choose a field" };
  if (op === "exists" || op === "not_exists") return { field: name, op };
  if (op === "in" || op === "not_in") {
    const values = text
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean);
    return values.length > 0 ? { field: name, op, value: values } : { error: "Give some values" };
  }
  if (op === ">" || op === ">=" || op === "<" || op === "<=") {
    const value = Number(text.trim());
    return text.trim() !== "" && Number.isFinite(value)
      ? { field: name, op, value }
      : { error: "Give a number" };
  }
  return { field: name, op, value: text };
}
