import {
  ASSERTION_TYPE_NAMES,
  ASSERTION_TYPES,
  type AssertionType,
  type AssertionTypeInfo,
} from "../../contracts/monitor-catalog.js";
import type { ResponseSnapshot } from "../check-result.js";
import { readJsonPath } from "./json-path.js";
import type { ReadCache, ReadValue } from "./read-value.js";

/** How an assertion type reads its value from a response (the target: a JSON path or a header name). */
export type AssertionReader = (
  response: ResponseSnapshot,
  target: string,
  cache: ReadCache,
) => ReadValue;

/** One assertion type as the server evaluates it: the shared catalog entry and its reader. */
export interface AssertionTypeSpec extends AssertionTypeInfo {
  read: AssertionReader;
}

const numeric = (value: number): ReadValue => ({ kind: "value", value: String(value) });

/**
 * The reader of each assertion type in contracts/monitor-catalog.ts (docs/design.md §2: adding a
 * type is its catalog entry and one reader here).
 */
export const ASSERTION_READERS: Record<AssertionType, AssertionReader> = {
  status_code: (response) => numeric(response.status),
  response_time: (response) => numeric(response.durationMs),
  body_contains: (response) => ({ kind: "value", value: response.body }),
  body_not_contains: (response) => ({ kind: "value", value: response.body }),
  json_path: (response, path, cache) => readJsonPath(response.body, path, cache),
  header: (response, name) => {
    // Own properties only: "constructor" or "__proto__" must not read Object.prototype.
    const key = name.trim().toLowerCase();
    const value = Object.hasOwn(response.headers, key) ? response.headers[key] : undefined;
    return value === undefined
      ? { kind: "absent", reason: `header '${name}' is absent` }
      : { kind: "value", value };
  },
};

const SPECS = Object.fromEntries(
  ASSERTION_TYPE_NAMES.map((type): [AssertionType, AssertionTypeSpec] => [
    type,
    { ...ASSERTION_TYPES[type], read: ASSERTION_READERS[type] },
  ]),
) as Record<AssertionType, AssertionTypeSpec>;

/** The catalog entry of a type with its reader. */
export const assertionSpec = (type: AssertionType): AssertionTypeSpec => SPECS[type];
