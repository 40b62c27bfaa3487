import {
  ALERT_AFTER,
  ASSERTION_TYPES,
  type AssertionType,
  type AssertionTypeInfo,
  assertionTarget,
  BODY_METHODS,
  DEFAULT_ASSERTIONS,
  DEFAULT_FREQUENCY,
  type Frequency,
  type HttpMethod,
  LOCATIONS,
  type MonitorType,
  type Operator,
  placeholderNames,
  TIMEOUT_SECONDS,
  VARIABLE_NAME,
} from "../../../../src/contracts/monitor-catalog";
import type {
  AssertionInput,
  CreateMonitorInput,
  MonitorView,
} from "../../../../src/contracts/monitors";

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

export interface Draft {
  name: string;
  type: MonitorType;
  frequency: Frequency;
  timeoutSeconds: string;
  alertAfter: string;
  channelIds: string[];
  steps: DraftStep[];
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

export const emptyDraft = (): Draft => ({
  name: "",
  type: "api",
  frequency: DEFAULT_FREQUENCY,
  timeoutSeconds: String(TIMEOUT_SECONDS.default),
  alertAfter: String(ALERT_AFTER.default),
  channelIds: [],
  steps: [newStep()],
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

export function fromMonitor(monitor: MonitorView): Draft {
  return {
    name: monitor.name,
    type: monitor.type,
    frequency: monitor.frequency,
    timeoutSeconds: String(monitor.timeoutSeconds),
    alertAfter: String(monitor.alertAfter),
    channelIds: monitor.channelIds,
    steps: monitor.steps.map((step, i) => ({
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
    })),
  };
}

const toNumber = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text));

/** The request body; a number left empty is sent as null so the server names the field. */
export function toInput(draft: Draft): CreateMonitorInput {
  return {
    name: draft.name,
    type: draft.type,
    frequency: draft.frequency,
    timeoutSeconds: toNumber(draft.timeoutSeconds),
    alertAfter: toNumber(draft.alertAfter),
    locations: [...LOCATIONS],
    channelIds: draft.channelIds,
    steps: draft.steps.map((step) => ({
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
    })),
  };
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
