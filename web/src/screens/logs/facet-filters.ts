import {
  ATTRIBUTE_PREFIX,
  type Filter,
  type FilterOp,
  RESOURCE_PREFIX,
} from "../../../../src/contracts/explore-filters.js";

/*
 * The logs view's facet clicks on its `filters` (the URL parameter is read and written by
 * components/filters/filter-model), and how a field reads on a chip.
 */

const INCLUDE: readonly FilterOp[] = ["=", "in"];
const EXCLUDE: readonly FilterOp[] = ["!=", "not_in"];

const valuesOf = (filter: Filter): string[] =>
  Array.isArray(filter.value)
    ? filter.value
    : filter.value === undefined
      ? []
      : [String(filter.value)];

/** One value as `=`/`!=`, several as `in`/`not_in`; none as nothing. */
function listFilter(field: string, values: string[], include: boolean): Filter[] {
  if (values.length === 0) return [];
  if (values.length === 1) return [{ field, op: include ? "=" : "!=", value: values[0] }];
  return [{ field, op: include ? "in" : "not_in", value: values }];
}

/** Whether a facet's value is included, excluded or neither by the filters. */
export function valueState(
  filters: readonly Filter[],
  field: string,
  value: string,
): "include" | "exclude" | undefined {
  for (const filter of filters) {
    if (filter.field !== field || !valuesOf(filter).includes(value)) continue;
    if (INCLUDE.includes(filter.op)) return "include";
    if (EXCLUDE.includes(filter.op)) return "exclude";
  }
  return undefined;
}

/**
 * A facet click: includes (a field's included values are alternatives: `in`) or excludes
 * (`not_in`) the value, taking it out of the other kind first; the same click again removes it.
 * Other filters keep their place; the field's include/exclude filter goes where it was, or last.
 */
export function toggleValue(
  filters: readonly Filter[],
  field: string,
  value: string,
  mode: "include" | "exclude",
): Filter[] {
  const current = valueState(filters, field, value);
  const kinds = { include: [] as string[], exclude: [] as string[] };
  let at = -1;
  const rest: Filter[] = [];
  for (const filter of filters) {
    const include = INCLUDE.includes(filter.op);
    if (filter.field === field && (include || EXCLUDE.includes(filter.op))) {
      if (at < 0) at = rest.length;
      kinds[include ? "include" : "exclude"].push(...valuesOf(filter));
    } else rest.push(filter);
  }
  for (const kind of ["include", "exclude"] as const)
    kinds[kind] = [...new Set(kinds[kind])].filter((v) => v !== value);
  if (current !== mode) kinds[mode].push(value);
  const changed = [
    ...listFilter(field, kinds.include, true),
    ...listFilter(field, kinds.exclude, false),
  ];
  const index = at < 0 ? rest.length : at;
  return [...rest.slice(0, index), ...changed, ...rest.slice(index)];
}

/** The filters without the one at `index`. */
export const withoutFilter = (filters: readonly Filter[], index: number): Filter[] =>
  filters.filter((_, i) => i !== index);

const COLUMN_LABELS: Record<string, string> = {
  service_name: "service",
  severity_text: "severity text",
  severity_number: "severity number",
  trace_id: "trace id",
  span_id: "span id",
  session_id: "session id",
  user_id: "user id",
  scope_name: "scope",
};

/** A field as people read it: a column's name in words, an attribute's key, a resource key marked. */
export function fieldLabel(field: string): string {
  if (field.startsWith(ATTRIBUTE_PREFIX)) return field.slice(ATTRIBUTE_PREFIX.length);
  if (field.startsWith(RESOURCE_PREFIX)) return `${field.slice(RESOURCE_PREFIX.length)} (resource)`;
  return COLUMN_LABELS[field] ?? field;
}
