import type { JsonValue } from "./json-text.js";

/** What an assertion type read from a response: a value, or none (absent header, unresolved path). */
export type ReadValue =
  | { kind: "value"; value: string }
  | { kind: "absent"; reason: string }
  | { kind: "invalid"; message: string };

/** A response body parsed as JSON, or the note that it is not JSON. */
export type ParsedBody = { ok: true; value: JsonValue } | { ok: false };

/** Per-response memo so several json_path assertions parse the body once. */
export interface ReadCache {
  json?: ParsedBody;
}
