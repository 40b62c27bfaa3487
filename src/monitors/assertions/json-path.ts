import { JsonNumber, type JsonValue, parseJsonText, stringifyJsonText } from "./json-text.js";
import type { ReadCache, ReadValue } from "./registry.js";

/** One step of a path: a member name or an array index. */
export type PathSegment = { key: string } | { index: number };

export type ParsedPath = { ok: true; segments: PathSegment[] } | { ok: false; message: string };

export interface JsonPathResult {
  document: { ok: true; value: JsonValue } | { ok: false };
}

const NAME_END = /[.[\]]/;
/** A bracketed quoted name, read as a whole so that `.`, `:`, `,` and `]` inside the quotes are data. */
const QUOTED_NAME = /\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/y;

/**
 * Parses the supported subset: `$.a.b`, `$.items[0].id`, `$['odd.key']`, and the same without
 * the leading `$.`. Wildcards, filters, slices, unions and recursive descent are refused with a
 * message that says which.
 */
export function parseJsonPath(input: string): ParsedPath {
  const path = input.trim();
  if (path === "") return { ok: false, message: "the JSON path is empty" };
  const bad = (message: string): ParsedPath => ({ ok: false, message: `${message} in '${path}'` });
  const segments: PathSegment[] = [];
  let at = 0;
  if (path[0] === "$") {
    at = 1;
  } else if (path[0] !== "[") {
    at = -1; // a bare first name, as if after "$."
  }
  while (at < path.length) {
    let name: string | undefined;
    if (at === -1 || path[at] === ".") {
      const start = at + 1;
      if (path[start] === ".")
        return bad(
          at === -1
            ? "a member name is missing at position 1"
            : "recursive descent (..) is not supported",
        );
      if (path[start] === "*") return bad("wildcards (*) are not supported");
      const rest = path.slice(start);
      const end = rest.search(NAME_END);
      name = end === -1 ? rest : rest.slice(0, end);
      if (name === "") return bad(`a member name is missing at position ${start + 1}`);
      if (name.includes("*")) return bad("wildcards (*) are not supported");
      segments.push({ key: name });
      at = start + name.length;
      continue;
    }
    if (path[at] !== "[") return bad(`unexpected '${path[at]}' at position ${at + 1}`);
    QUOTED_NAME.lastIndex = at;
    const quoted = QUOTED_NAME.exec(path);
    if (quoted) {
      segments.push({ key: quoted[1] ?? quoted[2] ?? "" });
      at = QUOTED_NAME.lastIndex;
      continue;
    }
    const close = path.indexOf("]", at);
    if (close === -1) return bad("a '[' is not closed");
    const inner = path.slice(at + 1, close).trim();
    at = close + 1;
    if (inner === "*") return bad("wildcards ([*]) are not supported");
    if (inner.startsWith("?")) return bad("filters ([?(…)]) are not supported");
    if (inner.includes(":")) return bad("array slices are not supported");
    if (inner.includes(",")) {
      return bad("unions ([a,b]) are not supported");
    } else if (/^\d{1,9}$/.test(inner)) {
      segments.push({ index: Number(inner) });
    } else if (/^-\d+$/.test(inner)) {
      return bad("negative indexes are not supported");
    } else {
      return bad(`'[${inner}]' is not an array index or a quoted name`);
    }
  }
  return { ok: true, segments };
}

function describe(segments: readonly PathSegment[], upTo: number): string {
  return `$${segments
    .slice(0, upTo + 1)
    .map((s) => ("index" in s ? `[${s.index}]` : `.${s.key}`))
    .join("")}`;
}

/** The value at a path, or why it did not resolve. */
export function resolveJsonPath(
  document: JsonValue,
  segments: readonly PathSegment[],
): { found: true; value: JsonValue } | { found: false; reason: string } {
  let current: JsonValue = document;
  for (const [i, segment] of segments.entries()) {
    let next: JsonValue | undefined;
    if ("index" in segment) {
      next = Array.isArray(current) ? current[segment.index] : undefined;
    } else if (current instanceof Map) {
      next = current.get(segment.key);
    }
    if (next === undefined)
      return { found: false, reason: `${describe(segments, i)} does not exist` };
    current = next;
  }
  return { found: true, value: current };
}

/** The text an assertion compares: strings as they are, numbers as written, objects as JSON text. */
export function jsonValueText(value: JsonValue): string {
  if (typeof value === "string") return value;
  if (value instanceof JsonNumber) return value.text;
  return stringifyJsonText(value);
}

/** The body as JSON, parsed at most once per response (assertions and extractions share it). */
export function parseBodyOnce(body: string, cache: ReadCache): JsonPathResult["document"] {
  if (cache.json === undefined) {
    const value = parseJsonText(body);
    cache.json = value === undefined ? { ok: false } : { ok: true, value };
  }
  return cache.json;
}

/** Reads one path from a response body for a json_path assertion. */
export function readJsonPath(body: string, path: string, cache: ReadCache): ReadValue {
  const parsed = parseJsonPath(path);
  if (!parsed.ok) {
    const message =
      path.trim() === ""
        ? "The JSON path is empty: enter a path such as $.data.id"
        : `Invalid JSON path: ${parsed.message}`;
    return { kind: "invalid", message };
  }
  const document = parseBodyOnce(body, cache);
  if (!document.ok) return { kind: "absent", reason: "the response body is not JSON" };
  const resolved = resolveJsonPath(document.value, parsed.segments);
  return resolved.found
    ? { kind: "value", value: jsonValueText(resolved.value) }
    : { kind: "absent", reason: resolved.reason };
}
