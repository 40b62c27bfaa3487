/**
 * The monitor settings, limits and assertion types as plain data, shared by the input schemas
 * (contracts/monitors.ts), the runner and the dashboard's form. It imports nothing, so the
 * browser bundles it without zod.
 */

/** Check frequencies and their period in seconds (spec: 1 min, 5 min, 15 min, 1 hour). */
export const FREQUENCIES = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600 } as const;
export type Frequency = keyof typeof FREQUENCIES;
export const FREQUENCY_NAMES = Object.keys(FREQUENCIES) as [Frequency, ...Frequency[]];

/**
 * Every monitor kind (docs/monitors.md): HTTP checks of one request (`api`) or several (`flow`),
 * a TCP connect, a DNS lookup, a TLS certificate check, and a heartbeat a job pings.
 */
export const MONITOR_TYPES = ["api", "flow", "tcp", "dns", "tls", "heartbeat"] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];
/** The kinds that send HTTP requests described as `steps`. */
export const HTTP_MONITOR_TYPES = ["api", "flow"] as const;
export type HttpMonitorType = (typeof HTTP_MONITOR_TYPES)[number];
export const isHttpMonitorType = (type: string): type is HttpMonitorType =>
  type === "api" || type === "flow";
/** How the dashboard names each kind. */
export const MONITOR_TYPE_LABELS: Record<MonitorType, string> = {
  api: "API",
  flow: "Multi-step",
  tcp: "TCP",
  dns: "DNS",
  tls: "TLS certificate",
  heartbeat: "Heartbeat",
};
/**
 * Whether a monitor of type `from` may become `to` by an update: api and flow are one kind
 * (HTTP steps), every other kind keeps its type.
 */
export const canChangeType = (from: MonitorType, to: MonitorType): boolean =>
  from === to || (isHttpMonitorType(from) && isHttpMonitorType(to));
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

/** What started a check: the schedule, a person (run now), a heartbeat ping, or a missed ping. */
export const CHECK_TRIGGERS = ["scheduled", "manual", "ping", "missed"] as const;
export type CheckTrigger = (typeof CHECK_TRIGGERS)[number];

/** TCP and TLS ports. */
export const PORT = { min: 1, max: 65535 } as const;
/** A tcp monitor's `send` and `expect` texts, in UTF-8 bytes. */
export const MAX_TCP_TEXT_BYTES = 4096;

/** The record types a dns monitor resolves. */
export const DNS_RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT"] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];
/** `answer`: passes when ANY answer matches (the not_* operators: when NONE does). */
export const DNS_ANSWER_OPERATORS = [
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "matches",
] as const satisfies readonly Operator[];
/** `answer_count`: the number of answers compared with a whole number. */
export const DNS_COUNT_OPERATORS = [
  "less_than",
  "greater_than",
  "equals",
] as const satisfies readonly Operator[];
export const DNS_ASSERTION_TYPES = {
  answer: { label: "An answer", operators: DNS_ANSWER_OPERATORS },
  answer_count: { label: "Number of answers", operators: DNS_COUNT_OPERATORS },
} as const;
export type DnsAssertionType = keyof typeof DNS_ASSERTION_TYPES;
/** A dns monitor without assertions checks that the name has at least one answer. */
export const DEFAULT_DNS_ASSERTIONS = [
  { type: "answer_count", operator: "greater_than", value: "0" },
] as const;
export const MAX_DNS_ASSERTIONS = 20;
export const DEFAULT_DNS_PORT = 53;

/**
 * A resolver as written: "1.1.1.1", "1.1.1.1:5353", "2606:4700::1111" or "[2606:4700::1111]:53".
 * The host is not checked to be an address here (the schema does); undefined when the form or the
 * port is wrong.
 */
export function parseResolver(text: string): { host: string; port: number } | undefined {
  const trimmed = text.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(trimmed);
  const hostPort = /^([^:\s]+)(?::(\d{1,5}))?$/.exec(trimmed);
  const match = bracketed ?? hostPort;
  const host = match ? match[1] : /^[0-9a-f:.]+$/i.test(trimmed) ? trimmed : undefined;
  if (!host) return undefined;
  const port = match?.[2] === undefined ? DEFAULT_DNS_PORT : Number(match[2]);
  if (port < PORT.min || port > PORT.max) return undefined;
  return { host, port };
}

/** A tls monitor's port when none is given, and its days-left threshold. */
export const TLS_DEFAULT_PORT = 443;
export const TLS_MIN_DAYS_LEFT = { min: 0, max: 365, default: 14 } as const;
/** A PEM bundle of trusted CA certificates for a tls monitor (instead of the system's). */
export const MAX_CA_PEM_CHARS = 64 * 1024;

/** Heartbeat `period` and `grace` limits in seconds: period 1 min – 30 days, grace 0 s – 7 days. */
export const HEARTBEAT_PERIOD = { min: 60, max: 30 * 86_400 } as const;
export const HEARTBEAT_GRACE = { min: 0, max: 7 * 86_400, default: "5m" } as const;

/** The units of a duration such as "30s", "5m", "1h" or "1d", in seconds. */
export const DURATION_UNITS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
const DURATION = /^\s*(\d{1,7})\s*([smhd])\s*$/;

/** "30s" → 30, "5m" → 300, "1h" → 3600, "1d" → 86400; undefined when it is not one of those forms. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * DURATION_UNITS[match[2] as keyof typeof DURATION_UNITS];
}

/** Seconds in the largest unit that divides them: 3600 → "1h", 90 → "90s", 0 → "0s". */
export function formatDuration(seconds: number): string {
  for (const unit of ["d", "h", "m"] as const) {
    const size = DURATION_UNITS[unit];
    if (seconds > 0 && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/**
 * What a check's assertion results may be about: the HTTP assertion types, and what the other
 * kinds check (a TCP connect and the text received, DNS answers, the TLS handshake, chain,
 * hostname and days left, a heartbeat's ping).
 */
export const RESULT_ASSERTION_TYPES = [
  ...ASSERTION_TYPE_NAMES,
  "connect",
  "received",
  "answer",
  "answer_count",
  "tls_handshake",
  "tls_chain",
  "tls_hostname",
  "tls_days_left",
  "heartbeat",
] as const;
export type ResultAssertionType = (typeof RESULT_ASSERTION_TYPES)[number];
/** The operators of assertion results: the assertions' own, and "at_least" (TLS days left). */
export const RESULT_OPERATORS = [...OPERATORS, "at_least"] as const;
export type ResultOperator = (typeof RESULT_OPERATORS)[number];
/** The `method` of the one step a non-HTTP check records. */
export const CHECK_METHODS = { tcp: "TCP", dns: "DNS", tls: "TLS", heartbeat: "PING" } as const;

/** How a step of a check ended. */
export const STEP_STATUSES = ["passed", "failed", "skipped"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
