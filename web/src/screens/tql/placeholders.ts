import {
  type ParameterValue,
  RESERVED_VARIABLE_NAMES,
} from "../../../../src/contracts/dashboards.js";

/*
 * A query's bound parameters as the browser sees them: the `{name:Type}` placeholders and the
 * time macros in its text (outside strings and comments), the values typed for them, and the
 * URL parameters (`var-<name>`) that carry those values. The server checks and binds them;
 * nothing here writes a value into SQL. No React, so it is tested as it is.
 */

/** One placeholder: its name and declared type, as written (`Array(String)`). */
export interface Placeholder {
  name: string;
  type: string;
}

/**
 * The URL parameter of a placeholder's value: `var-service` (repeated for a list), the prefix
 * a dashboard keeps its variables under, so "Explore" from a panel opens with its values.
 */
export const PARAM_PREFIX = "var-";
/** A dashboard variable's choice "All", which means nothing outside its dashboard. */
const ALL_CHOICE = "$__all";

/** The time window's placeholders, which the TQL screen fills from its time range. */
export const WINDOW_NAMES: readonly string[] = RESERVED_VARIABLE_NAMES;

const PLACEHOLDER =
  /^\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*:\s*([A-Za-z][A-Za-z0-9_]*(?:\([^{}]*\))?)\s*\}/;
const MACRO = /^\$__(timeFilter|timeInterval)\b/;

/** What a scan finds outside strings and comments, with where it is in the text. */
export type Token =
  | { kind: "placeholder"; name: string; type: string; start: number; end: number }
  | { kind: "macro"; name: "timeFilter" | "timeInterval"; start: number; end: number };

/** The end of a quoted run starting at `start` (after its closing quote), backslash escapes read. */
function quotedEnd(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === "\\") i += 2;
    else if (text[i] === quote) return i + 1;
    else i++;
  }
  return text.length;
}

/** The placeholders and macros of a query's text, in order, strings and comments skipped. */
export function scanParameters(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"' || c === "`") i = quotedEnd(text, i);
    else if (c === "-" && text[i + 1] === "-") {
      const newline = text.indexOf("\n", i);
      i = newline < 0 ? text.length : newline + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? text.length : close + 2;
    } else if (c === "{") {
      const match = PLACEHOLDER.exec(text.slice(i, i + 200));
      if (match) {
        const [whole, name = "", type = ""] = match;
        tokens.push({ kind: "placeholder", name, type, start: i, end: i + whole.length });
        i += whole.length;
      } else i++;
    } else if (c === "$") {
      const match = MACRO.exec(text.slice(i, i + 20));
      if (match) {
        const name = match[1] === "timeFilter" ? "timeFilter" : "timeInterval";
        tokens.push({ kind: "macro", name, start: i, end: i + match[0].length });
        i += match[0].length;
      } else i++;
    } else i++;
  }
  return tokens;
}

/** The placeholders a query names, once each (the first type written wins), in order. */
export function findPlaceholders(text: string): Placeholder[] {
  const seen = new Map<string, Placeholder>();
  for (const token of scanParameters(text))
    if (token.kind === "placeholder" && !seen.has(token.name))
      seen.set(token.name, { name: token.name, type: token.type });
  return [...seen.values()];
}

/** Whether a query reads the time window (a macro, or `{from}`, `{to}` or `{bucket_seconds}`). */
export function usesTimeWindow(text: string): boolean {
  return scanParameters(text).some((t) => t.kind === "macro" || WINDOW_NAMES.includes(t.name));
}

/** The placeholders a user fills: all but the window's. */
export const userPlaceholders = (text: string): Placeholder[] =>
  findPlaceholders(text).filter((p) => !WINDOW_NAMES.includes(p.name));

const arrayItem = (type: string): string | null => /^Array\((.+)\)$/.exec(type)?.[1] ?? null;
const isNumeric = (type: string) => /^(U?Int(8|16|32|64)|Float(32|64))$/.test(type);

/** The input a placeholder's type wants: a number, a checkbox, a list, or text. */
export function inputKind(type: string): "number" | "bool" | "list" | "text" {
  if (arrayItem(type)) return "list";
  if (isNumeric(type)) return "number";
  if (type === "Bool") return "bool";
  return "text";
}

/**
 * A typed value as the API takes it for `type`: numbers as numbers (text that is not one stays
 * text, so the server names it), "true"/"false" for Bool, a list split at commas for `Array`.
 * Undefined for an empty input, which leaves the placeholder without a value.
 */
export function parameterValue(type: string, typed: readonly string[]): ParameterValue | undefined {
  const item = arrayItem(type);
  const number = (text: string): string | number => {
    const n = Number(text);
    return text.trim() !== "" && Number.isFinite(n) ? n : text;
  };
  if (item) {
    const parts = typed
      .flatMap((t) => t.split(","))
      .map((t) => t.trim())
      .filter((t) => t !== "");
    return isNumeric(item) ? parts.map(number) : parts;
  }
  const text = typed[0] ?? "";
  if (text === "") return undefined;
  if (type === "Bool") return text === "true" || text === "1";
  return isNumeric(type) ? number(text) : text;
}

/** The values typed for placeholders, from a URL's `var-<name>` parameters ("All" left out). */
export function readParamValues(params: URLSearchParams): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  for (const [key, value] of params) {
    if (!key.startsWith(PARAM_PREFIX) || key.length === PARAM_PREFIX.length) continue;
    const name = key.slice(PARAM_PREFIX.length);
    if (value === ALL_CHOICE) continue;
    values[name] = [...(values[name] ?? []), value];
  }
  return values;
}

/** A value as `var-<name>` text: a list as its items (repeated keys), others as text. */
export function paramTexts(value: ParameterValue): string[] {
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/**
 * The parameters a run sends: each user placeholder's typed value (in its type), and the
 * window's (`from`, `to` as ISO, `bucket_seconds`) when the query reads it.
 */
export function runParameters(
  text: string,
  typed: Readonly<Record<string, readonly string[]>>,
  window: { from: string; to: string; bucketSeconds: number },
): Record<string, ParameterValue> {
  const parameters: Record<string, ParameterValue> = {};
  for (const p of userPlaceholders(text)) {
    const value = parameterValue(p.type, typed[p.name] ?? []);
    if (value !== undefined) parameters[p.name] = value;
  }
  if (usesTimeWindow(text)) {
    parameters.from = window.from;
    parameters.to = window.to;
    parameters.bucket_seconds = window.bucketSeconds;
  }
  return parameters;
}

/** Seconds per bucket for about `points` buckets over a window of `ms` (at least 1). */
export const bucketSecondsFor = (ms: number, points = 300): number =>
  Math.max(1, Math.round(ms / points / 1000));
