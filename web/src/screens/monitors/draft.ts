import {
  ASSERTION_TYPES,
  type AssertionType,
  type AssertionTypeInfo,
  assertionTarget,
  BODY_METHODS,
  DEFAULT_ASSERTIONS,
  type DnsAssertionType,
  type DnsRecordType,
  type Frequency,
  type HttpMethod,
  type MonitorType,
  type Operator,
  placeholderNames,
  VARIABLE_NAME,
} from "../../../../src/contracts/monitor-catalog.js";
import type {
  AssertionInput,
  CreateMonitorInput,
  MonitorView,
} from "../../../../src/contracts/monitors.js";

/**
 * The form's state: the monitor as the user edits it. Every row has a `key` so React keeps
 * inputs (and focus) with their row when rows move; numbers stay text until they are sent, so
 * the server's message about a bad one shows beside it.
 */
export interface DraftAssertion {
  key: string;
  type: AssertionType;
  operator: Operator;
  /** The JSON path or header name, for the types that read one. */
  target: string;
  value: string;
}

export interface DraftStep {
  key: string;
  name: string;
  method: HttpMethod;
  url: string;
  headers: { key: string; name: string; value: string }[];
  body: string;
  assertions: DraftAssertion[];
  extract: { key: string; name: string; path: string }[];
  followRedirects: boolean;
}

/** A tcp monitor's own fields (the port as typed). */
export interface TcpDraft {
  host: string;
  port: string;
  send: string;
  expect: string;
}

/** One row of a dns monitor's assertions editor. */
export interface DraftDnsAssertion {
  key: string;
  type: DnsAssertionType;
  operator: Operator;
  value: string;
}

export interface DnsDraft {
  domain: string;
  recordType: DnsRecordType;
  /** Empty: the system's resolver. */
  resolver: string;
  assertions: DraftDnsAssertion[];
}

export interface TlsDraft {
  host: string;
  port: string;
  servername: string;
  minDaysLeft: string;
  /** Trusted CA certificates (PEM); empty: the system's. */
  ca: string;
}

export interface HeartbeatDraft {
  period: string;
  grace: string;
}

/**
 * The whole form. Each kind keeps its own fields in its own slot (api and flow share `steps`), so
 * switching the type back and forth in a new monitor loses nothing typed; only the chosen kind's
 * slot is sent (kind-drafts.ts).
 */
export interface Draft {
  name: string;
  type: MonitorType;
  frequency: Frequency;
  timeoutSeconds: string;
  alertAfter: string;
  channelIds: string[];
  escalationPolicyId: string | null;
  steps: DraftStep[];
  tcp: TcpDraft;
  dns: DnsDraft;
  tls: TlsDraft;
  heartbeat: HeartbeatDraft;
}

let counter = 0;
export const newKey = (): string => `k${++counter}`;

export const newAssertion = (type: AssertionType = "status_code"): DraftAssertion => ({
  key: newKey(),
  type,
  operator: ASSERTION_TYPES[type].operators[0] ?? "equals",
  target: "",
  value: "",
});

/** A new step starts with the spec's two assertions: status 200, response time under 3000 ms. */
export const newStep = (): DraftStep => ({
  key: newKey(),
  name: "",
  method: "GET",
  url: "",
  headers: [],
  body: "",
  assertions: DEFAULT_ASSERTIONS.map((a) => ({ ...a, key: newKey(), target: "" })),
  extract: [],
  followRedirects: true,
});

/** Where an assertion type keeps its second input in the API (`path` or `name`), if it has one. */
export const targetField = (type: AssertionType): "path" | "name" | undefined => {
  const spec: AssertionTypeInfo = ASSERTION_TYPES[type];
  return spec.target?.field;
};

/** Changes an assertion's type, keeping its operator only when the new type allows it. */
export function withType(assertion: DraftAssertion, type: AssertionType): DraftAssertion {
  const allowed: readonly Operator[] = ASSERTION_TYPES[type].operators;
  return {
    ...assertion,
    type,
    operator: allowed.includes(assertion.operator)
      ? assertion.operator
      : (allowed[0] ?? assertion.operator),
    target: targetField(type) ? assertion.target : "",
  };
}

/** An api or flow monitor's steps as the form edits them. */
export function stepsFromMonitor(monitor: MonitorView): DraftStep[] {
  return monitor.steps.map((step, i) => ({
    key: newKey(),
    // The server's default name follows the position: left empty, it follows a move too.
    name: step.name === `Step ${i + 1}` ? "" : step.name,
    method: step.method,
    url: step.url,
    headers: step.headers.map((h) => ({ ...h, key: newKey() })),
    body: step.body ?? "",
    assertions: step.assertions.map((a) => ({
      key: newKey(),
      type: a.type,
      operator: a.operator,
      target: assertionTarget(a) ?? "",
      value: a.value,
    })),
    extract: step.extract.map((e) => ({ ...e, key: newKey() })),
    followRedirects: step.followRedirects,
  }));
}

/** Text the server reads as a number; empty is sent as null so the server names the field. */
export const toNumber = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text));

/** The steps of an api or flow monitor's request body. */
export function stepsInput(draft: Draft): Extract<CreateMonitorInput, { steps: unknown }>["steps"] {
  return draft.steps.map((step) => ({
    name: step.name.trim(),
    method: step.method,
    url: step.url.trim(),
    headers: step.headers.map(({ name, value }) => ({ name: name.trim(), value })),
    ...(BODY_METHODS.has(step.method) && step.body !== "" ? { body: step.body } : {}),
    assertions: step.assertions.map((a) => {
      const field = targetField(a.type);
      const assertion = { type: a.type, operator: a.operator, value: a.value };
      // The union's pairing of type and operator is the server's to check: it names a bad one.
      return (field ? { ...assertion, [field]: a.target } : assertion) as AssertionInput;
    }),
    extract: draft.type === "flow" ? step.extract.map(({ name, path }) => ({ name, path })) : [],
    followRedirects: step.followRedirects,
  }));
}

/** The variables steps before `index` extract: what `{{name}}` can use in step `index`. */
export function variablesBefore(draft: Draft, index: number): string[] {
  if (draft.type !== "flow") return [];
  const names = draft.steps
    .slice(0, index)
    .flatMap((s) => s.extract.map((e) => e.name.trim()))
    .filter((name) => VARIABLE_NAME.test(name));
  return [...new Set(names)];
}

/** `{{name}}`s of a step that no earlier step extracts: they would be sent as written. */
export function unknownPlaceholders(draft: Draft, index: number): string[] {
  const step = draft.steps[index];
  if (!step) return [];
  const known = new Set(variablesBefore(draft, index));
  const used = [step.url, step.body, ...step.headers.flatMap((h) => [h.name, h.value])].flatMap(
    placeholderNames,
  );
  return [...new Set(used.filter((name) => !known.has(name)))];
}

/** Moves item `from` of a list by `by` places (−1 up, +1 down). */
export function move<T>(items: readonly T[], from: number, by: number): T[] {
  const to = from + by;
  if (to < 0 || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
