import { type PathSegment, parseJsonPath } from "../../contracts/json-path.js";
import { JsonNumber, type JsonValue, parseJsonText, stringifyJsonText } from "./json-text.js";
import type { ParsedBody, ReadCache, ReadValue } from "./read-value.js";

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
export function parseBodyOnce(body: string, cache: ReadCache): ParsedBody {
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
