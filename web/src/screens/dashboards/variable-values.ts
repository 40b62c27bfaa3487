import type {
  DashboardVariable,
  PanelQueryResult,
  ParameterValue,
} from "../../../../src/contracts/dashboards.js";
import { findPlaceholders } from "../tql/placeholders.js";

/*
 * A dashboard's variables as plain values: what each has chosen (kept in the URL as
 * `var-<name>=…`, repeated for several values, so a link carries them), the choices a variable
 * offers, and the values the panel queries bind. No React here, so it is tested as it is.
 */

/** The URL parameter of a variable: `var-service`. */
export const VAR_PREFIX = "var-";
/** The choice "All": every option the variable offers. */
export const ALL_VALUE = "$__all";
/** A query variable offers at most this many values (the contract's limit). */
export const MAX_OPTIONS = 1000;

/** What each variable has chosen, by name: its values ([ALL_VALUE] for All). */
export type Selections = Record<string, string[]>;

/** The selections a URL's query names (`var-<name>`), whether or not the dashboard has them. */
export function readVariableParams(params: URLSearchParams): Selections {
  const chosen: Selections = {};
  for (const [key, value] of params) {
    if (!key.startsWith(VAR_PREFIX) || key.length === VAR_PREFIX.length) continue;
    const name = key.slice(VAR_PREFIX.length);
    chosen[name] = [...(chosen[name] ?? []), value];
  }
  return chosen;
}

/**
 * `search` (a URL's query, with or without "?") with the variables' parameters set to
 * `selections`: a name given replaces its values (an empty list removes it); others stay.
 */
export function withVariableParams(search: string, selections: Selections): string {
  const params = new URLSearchParams(search.startsWith("?") ? search.slice(1) : search);
  for (const [name, values] of Object.entries(selections)) {
    params.delete(`${VAR_PREFIX}${name}`);
    for (const value of values) params.append(`${VAR_PREFIX}${name}`, value);
  }
  return params.toString();
}

/** `href` with every `var-*` parameter replaced by `selections`. */
export function hrefWithVariables(href: string, selections: Selections): string {
  const at = href.indexOf("?");
  const path = at < 0 ? href : href.slice(0, at);
  const params = new URLSearchParams(at < 0 ? "" : href.slice(at + 1));
  for (const key of [...params.keys()]) if (key.startsWith(VAR_PREFIX)) params.delete(key);
  const query = withVariableParams(params.toString(), selections);
  return query ? `${path}?${query}` : path;
}

/** A query variable's options: the first column's values, as text, once each, in order. */
export function optionsFromResult(result: Pick<PanelQueryResult, "rows"> | undefined): string[] {
  if (!result) return [];
  const seen = new Set<string>();
  for (const row of result.rows) {
    const cell = row[0];
    if (cell === null || cell === undefined) continue;
    seen.add(typeof cell === "object" ? JSON.stringify(cell) : String(cell));
    if (seen.size >= MAX_OPTIONS) break;
  }
  return [...seen];
}

/** The values a variable offers now: a custom list's own, a query's answer, none for text. */
export function optionsOf(variable: DashboardVariable, queried: string[] | undefined): string[] {
  if (variable.type === "custom") return variable.values;
  if (variable.type === "query") return queried ?? [];
  return [];
}

const asList = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * What a variable has chosen: the URL's values (`var-x=` alone: none), else its default, else
 * (a list) its first option; a single select keeps one value. A text variable's empty is "".
 */
export function selectionOf(
  variable: DashboardVariable,
  fromUrl: string[] | undefined,
  options: readonly string[],
): string[] {
  const explicit = fromUrl !== undefined && fromUrl.length > 0;
  if (variable.type === "text")
    return [(explicit ? fromUrl[0] : asList(variable.default)[0]) ?? ""];
  let chosen = explicit ? fromUrl.filter((v) => v !== "") : asList(variable.default);
  if (chosen.includes(ALL_VALUE)) return variable.includeAll || variable.multi ? [ALL_VALUE] : [];
  if (chosen.length === 0 && !explicit) chosen = options.length > 0 ? [options[0] ?? ""] : [];
  return variable.multi ? chosen : chosen.slice(0, 1);
}

/**
 * The value a variable binds: text as typed; a multi-select (or All) as a list (All = every
 * option); a single value as text.
 */
export function boundValue(
  variable: DashboardVariable,
  selection: readonly string[],
  options: readonly string[],
): ParameterValue {
  if (variable.type === "text") return selection[0] ?? "";
  if (selection.includes(ALL_VALUE)) return [...options];
  if (variable.multi) return [...selection];
  return selection[0] ?? "";
}

/** A selection as the variable bar shows it: "All", the values joined, or "None". */
export function selectionLabel(selection: readonly string[]): string {
  if (selection.includes(ALL_VALUE)) return "All";
  if (selection.length === 0) return "None";
  return selection.join(", ");
}

/** The new selection of a multi-select after `value` was toggled (All and values exclude). */
export function toggleValue(selection: readonly string[], value: string): string[] {
  if (value === ALL_VALUE) return selection.includes(ALL_VALUE) ? [] : [ALL_VALUE];
  const rest = selection.filter((v) => v !== ALL_VALUE);
  return rest.includes(value) ? rest.filter((v) => v !== value) : [...rest, value];
}

const unwrap = (type: string): string => {
  const inner = /^(?:Nullable|LowCardinality)\((.+)\)$/.exec(type.trim())?.[1];
  return inner ? unwrap(inner) : type.trim();
};
const NUMERIC = /^(U?Int(8|16|32|64|128|256)|Float(32|64))$/;

function typedScalar(type: string, value: string | number | boolean): string | number | boolean {
  if (typeof value !== "string") return value;
  if (NUMERIC.test(type) && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  if (type === "Bool" && /^(true|false|1|0)$/.test(value)) return value === "true" || value === "1";
  return value;
}

/**
 * A variable's value as its placeholder's type takes it: text that is a number for a numeric
 * type, "true"/"false" for Bool, a single value as a one-item list for an Array. Anything else
 * goes as it is, so the server names the mismatch rather than the browser guessing.
 */
export function typedForPlaceholder(type: string, value: ParameterValue): ParameterValue {
  const bare = unwrap(type);
  const item = /^Array\((.+)\)$/.exec(bare)?.[1];
  if (item) {
    const element = unwrap(item);
    const list = Array.isArray(value) ? value : [value];
    return list.map((v) => {
      const typed = typedScalar(element, typeof v === "boolean" ? String(v) : v);
      return typeof typed === "boolean" ? String(typed) : typed;
    });
  }
  if (Array.isArray(value)) return value;
  return typedScalar(bare, value);
}

/** A bound value as `var-<name>` texts: a list as its items, others as text. */
export const valueTexts = (value: ParameterValue): string[] =>
  Array.isArray(value) ? value.map(String) : [String(value)];

/**
 * The variables a query's text names as `{name:Type}` placeholders, each as its type takes it:
 * only those are sent, so two panels with one query share one request whatever else the
 * dashboard has chosen.
 */
export function variablesUsedBy(
  tql: string,
  variables: Readonly<Record<string, ParameterValue>>,
): Record<string, ParameterValue> {
  const used: Record<string, ParameterValue> = {};
  for (const { name, type } of findPlaceholders(tql)) {
    const value = variables[name];
    if (value !== undefined) used[name] = typedForPlaceholder(type, value);
  }
  return used;
}
