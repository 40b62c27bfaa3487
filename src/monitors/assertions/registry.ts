import type { ResponseSnapshot } from "../model.js";
import { type JsonPathResult, readJsonPath } from "./json-path.js";

export const OPERATORS = [
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "less_than",
  "greater_than",
  "matches",
] as const;
export type Operator = (typeof OPERATORS)[number];

/** What an assertion type read from a response: a value, or none (absent header, unresolved path). */
export type ReadValue =
  | { kind: "value"; value: string }
  | { kind: "absent"; reason: string }
  | { kind: "invalid"; message: string };

/** One assertion type: the operators that make sense for it, its extra input, and how it reads a response. */
export interface AssertionTypeSpec {
  /** How the dashboard names the type (spec: Assertion types). */
  label: string;
  operators: readonly Operator[];
  /** The second input: a JSON path or a header name. */
  target?: { field: "path" | "name"; label: string };
  /** True for body_not_contains: it passes when the operator's condition does NOT hold. */
  negated?: boolean;
  read(response: ResponseSnapshot, target: string, cache: ReadCache): ReadValue;
}

/** Per-response memo so several json_path assertions parse the body once. */
export interface ReadCache {
  json?: JsonPathResult["document"];
}

const numeric = (value: number): ReadValue => ({ kind: "value", value: String(value) });

/**
 * The registry of assertion types (docs/design.md §2: adding one is one entry). The dashboard's builder
 * bundles this module for its type → operators table, so it (and what it imports) stays free of
 * Node imports.
 */
export const ASSERTION_TYPES = {
  status_code: {
    label: "Status code",
    operators: ["equals", "not_equals", "less_than", "greater_than", "matches"],
    read: (response) => numeric(response.status),
  },
  response_time: {
    label: "Response time (ms)",
    operators: ["less_than", "greater_than"],
    read: (response) => numeric(response.durationMs),
  },
  body_contains: {
    label: "Body contains",
    operators: ["contains", "not_contains", "equals", "not_equals", "matches"],
    read: (response) => ({ kind: "value", value: response.body }),
  },
  body_not_contains: {
    label: "Body does not contain",
    // Positive operators only: the assertion passes when the text is absent.
    operators: ["contains", "equals", "matches"],
    negated: true,
    read: (response) => ({ kind: "value", value: response.body }),
  },
  json_path: {
    label: "JSON path value",
    operators: OPERATORS,
    target: { field: "path", label: "JSON path" },
    read: (response, path, cache) => readJsonPath(response.body, path, cache),
  },
  header: {
    label: "Header value",
    operators: OPERATORS,
    target: { field: "name", label: "header name" },
    read: (response, name) => {
      // Own properties only: "constructor" or "__proto__" must not read Object.prototype.
      const key = name.trim().toLowerCase();
      const value = Object.hasOwn(response.headers, key) ? response.headers[key] : undefined;
      return value === undefined
        ? { kind: "absent", reason: `header '${name}' is absent` }
        : { kind: "value", value };
    },
  },
} as const satisfies Record<string, AssertionTypeSpec>;

export type AssertionType = keyof typeof ASSERTION_TYPES;
export const ASSERTION_TYPE_NAMES = Object.keys(ASSERTION_TYPES) as [
  AssertionType,
  ...AssertionType[],
];

export const assertionSpec = (type: AssertionType): AssertionTypeSpec => ASSERTION_TYPES[type];
