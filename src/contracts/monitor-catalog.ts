/**
 * The monitor settings, limits and assertion types as plain data, shared by the input schemas
 * (contracts/monitors.ts), the runner and the dashboard's form. It imports nothing, so the
 * browser bundles it without zod.
 */

/** Check frequencies and their period in seconds (spec: 1 min, 5 min, 15 min, 1 hour). */
export const FREQUENCIES = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600 } as const;
export type Frequency = keyof typeof FREQUENCIES;
export const FREQUENCY_NAMES = Object.keys(FREQUENCIES) as [Frequency, ...Frequency[]];

export const MONITOR_TYPES = ["api", "flow"] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];
/** Announced in the spec as coming soon: accepted by the schema only to be refused by name. */
export const COMING_SOON_TYPES = ["browser", "e2e"] as const;
export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
/** Only these methods carry a request body (spec: HTTP monitor). */
export const BODY_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"]);
/** The only location there is (spec: "Only one region exists, named Default"). */
export const LOCATIONS = ["default"] as const;

export const MAX_STEPS = 20;
export const MAX_ASSERTIONS = 50;
export const MAX_HEADERS = 50;
export const MAX_EXTRACTIONS = 20;
export const MAX_REQUEST_BODY_CHARS = 64 * 1024;
export const TIMEOUT_SECONDS = { min: 1, max: 60, default: 10 } as const;
export const ALERT_AFTER = { min: 1, max: 100, default: 1 } as const;
export const DEFAULT_FREQUENCY: Frequency = "5m";

/** A variable a flow step extracts, usable later as `{{name}}`. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** `{{name}}` or `{{ name }}`, with names as VARIABLE_NAME allows them. */
export const VARIABLE_PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]{0,63})\s*\}\}/g;

/** The names of every `{{name}}` in a text, in order of appearance. */
export function placeholderNames(text: string): string[] {
  return [...text.matchAll(VARIABLE_PLACEHOLDER)].map((m) => m[1] ?? "");
}

/** New steps without assertions get these two (spec: HTTP monitor). */
export const DEFAULT_ASSERTIONS = [
  { type: "status_code", operator: "equals", value: "200" },
  { type: "response_time", operator: "less_than", value: "3000" },
] as const;

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

/** What the form and the API know of an assertion type; the server's reader is in monitors/assertions/registry.ts. */
export interface AssertionTypeInfo {
  /** How the dashboard names the type (spec: Assertion types). */
  label: string;
  operators: readonly Operator[];
  /** The second input: a JSON path or a header name. */
  target?: { field: "path" | "name"; label: string };
  /** True for body_not_contains: it passes when the operator's condition does NOT hold. */
  negated?: boolean;
}

/**
 * The assertion types (docs/design.md §2: adding one is one entry here and its reader in
 * monitors/assertions/registry.ts). The dashboard's builder reads its type → operators table.
 */
export const ASSERTION_TYPES = {
  status_code: {
    label: "Status code",
    operators: ["equals", "not_equals", "less_than", "greater_than", "matches"],
  },
  response_time: {
    label: "Response time (ms)",
    operators: ["less_than", "greater_than"],
  },
  body_contains: {
    label: "Body contains",
    operators: ["contains", "not_contains", "equals", "not_equals", "matches"],
  },
  body_not_contains: {
    label: "Body does not contain",
    // Positive operators only: the assertion passes when the text is absent.
    operators: ["contains", "equals", "matches"],
    negated: true,
  },
  json_path: {
    label: "JSON path value",
    operators: OPERATORS,
    target: { field: "path", label: "JSON path" },
  },
  header: {
    label: "Header value",
    operators: OPERATORS,
    target: { field: "name", label: "header name" },
  },
} as const satisfies Record<string, AssertionTypeInfo>;

export type AssertionType = keyof typeof ASSERTION_TYPES;
export const ASSERTION_TYPE_NAMES = Object.keys(ASSERTION_TYPES) as [
  AssertionType,
  ...AssertionType[],
];

/** The path or header name of an assertion that has one. */
export function assertionTarget(assertion: {
  type: string;
  path?: string;
  name?: string;
}): string | undefined {
  return "path" in assertion ? assertion.path : "name" in assertion ? assertion.name : undefined;
}

/** How a step of a check ended. */
export const STEP_STATUSES = ["passed", "failed", "skipped"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
