import {
  type ExploreSource,
  Filter,
  type FilterOp,
  MAX_FILTERS,
  resolveField,
} from "../../../../src/contracts/explore-filters.js";

/*
 * The explorers' filters as the browser handles them (logs, traces, metrics and the query
 * builder alike): how an operator reads, what a typed value means for an operator, a filter as
 * one line of text, and the `filters` URL parameter (the read API's JSON array). No React, so
 * it is tested as it is.
 */

/** How every operator reads, in a menu and on a chip. */
export const OP_LABELS: Record<FilterOp, string> = {
  "=": "=",
  "!=": "≠",
  in: "is one of",
  not_in: "is not one of",
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

const LIST_OPS: ReadonlySet<FilterOp> = new Set(["in", "not_in"]);
const NO_VALUE_OPS: ReadonlySet<FilterOp> = new Set(["exists", "not_exists"]);
const NUMBER_OPS: ReadonlySet<FilterOp> = new Set([">", ">=", "<", "<="]);

/** in / not_in: a list of values. */
export const takesList = (op: FilterOp): boolean => LIST_OPS.has(op);
/** exists / not_exists: no value. */
export const takesNoValue = (op: FilterOp): boolean => NO_VALUE_OPS.has(op);
/** >, ≥, <, ≤: a number. */
export const takesNumber = (op: FilterOp): boolean => NUMBER_OPS.has(op);

/** Whether a field is a number column of the source (`numeric` for filterValueFromText). */
export function isNumberField(source: ExploreSource, field: string): boolean {
  const ref = resolveField(source, field.trim());
  return ref?.kind === "column" && ref.type === "number";
}

/** What a typed value means for an operator, or what is wrong with it. */
export type ValueRead = { ok: true; value: Filter["value"] } | { ok: false; problem: string };

const aNumber = (text: string): number | undefined => {
  const trimmed = text.trim();
  const number = Number(trimmed);
  return trimmed !== "" && Number.isFinite(number) ? number : undefined;
};

/**
 * A value input's text as the filter's value: nothing for exists/not exists, a list split at
 * commas for in/not in, a number for >, ≥, <, ≤ (and for = and ≠ when the field is `numeric`),
 * else the text as typed. Never NaN: text that does not fit the operator is a problem message.
 */
export function filterValueFromText(op: FilterOp, text: string, numeric = false): ValueRead {
  if (takesNoValue(op)) return { ok: true, value: undefined };
  if (takesList(op)) {
    const values = text
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "");
    if (values.length === 0)
      return { ok: false, problem: "Give one or more values, comma-separated" };
    if (numeric && values.some((v) => aNumber(v) === undefined))
      return { ok: false, problem: "Give numbers, comma-separated" };
    return { ok: true, value: values };
  }
  if (takesNumber(op) || (numeric && (op === "=" || op === "!="))) {
    const number = aNumber(text);
    return number === undefined
      ? { ok: false, problem: "Give a number" }
      : { ok: true, value: number };
  }
  if (text.trim() === "") return { ok: false, problem: "Give a value" };
  return { ok: true, value: text };
}

/** A whole filter from a form's field, operator and text, or what is wrong with them. */
export function filterFromText(
  field: string,
  op: FilterOp,
  text: string,
  numeric = false,
): { ok: true; filter: Filter } | { ok: false; problem: string } {
  const name = field.trim();
  if (!name) return { ok: false, problem: "Choose a field" };
  const read = filterValueFromText(op, text, numeric);
  if (!read.ok) return read;
  return {
    ok: true,
    filter: read.value === undefined ? { field: name, op } : { field: name, op, value: read.value },
  };
}

/** A filter value as an input shows it: a list as `a, b`, none as nothing. */
export function valueText(value: Filter["value"]): string {
  if (value === undefined) return "";
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/**
 * A filter as one line: `http.route = /cart`, `level is not one of debug, info`, `tier exists`
 * (an empty text value as `""`). `label` says the field as the screen names it.
 */
export function filterText(filter: Filter, label: (field: string) => string = (f) => f): string {
  const op = OP_LABELS[filter.op];
  if (filter.value === undefined) return `${label(filter.field)} ${op}`;
  const value = valueText(filter.value);
  return `${label(filter.field)} ${op} ${value === "" ? '""' : value}`;
}

/** The URL parameter holding the filters: the read API's JSON array. */
export const FILTERS_PARAM = "filters";

/**
 * The filters of a `filters` parameter's text. Each entry is checked on its own: the valid ones
 * are kept (up to MAX_FILTERS), and `dropped` counts what was left out (text that is no JSON
 * array counts as one), so a page can say a link's filters were not all read.
 */
export function parseFilters(text: string | null | undefined): {
  filters: Filter[];
  dropped: number;
} {
  if (!text) return { filters: [], dropped: 0 };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { filters: [], dropped: 1 };
  }
  if (!Array.isArray(json)) return { filters: [], dropped: 1 };
  const filters: Filter[] = [];
  for (const entry of json) {
    const parsed = Filter.safeParse(entry);
    if (parsed.success && filters.length < MAX_FILTERS) filters.push(parsed.data);
  }
  return { filters, dropped: json.length - filters.length };
}

/** The filters of a URL's query (`?filters=…`, or its parameters). */
export const readFilters = (search: string | URLSearchParams) =>
  parseFilters(
    (typeof search === "string" ? new URLSearchParams(search) : search).get(FILTERS_PARAM),
  );

/** The `filters` parameter's text for a list: undefined when empty, so the URL drops it. */
export const filtersParam = (filters: readonly Filter[]): string | undefined =>
  filters.length > 0 ? JSON.stringify(filters) : undefined;

/** Writes the filters into URL parameters (none: the parameter removed); returns them. */
export function writeFilters(params: URLSearchParams, filters: readonly Filter[]): URLSearchParams {
  const text = filtersParam(filters);
  if (text === undefined) params.delete(FILTERS_PARAM);
  else params.set(FILTERS_PARAM, text);
  return params;
}
