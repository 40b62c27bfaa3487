/**
 * The monitor settings and limits as plain data, shared by the validation (definition.ts), the
 * runner and the dashboard's form (web/, which bundles this file: it imports nothing).
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
