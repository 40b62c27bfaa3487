import {
  ALERT_AFTER,
  DEFAULT_DNS_ASSERTIONS,
  DEFAULT_FREQUENCY,
  DNS_ASSERTION_TYPES,
  type DnsAssertionType,
  HEARTBEAT_GRACE,
  LOCATIONS,
  type MonitorType,
  type Operator,
  TIMEOUT_SECONDS,
  TLS_DEFAULT_PORT,
  TLS_MIN_DAYS_LEFT,
} from "../../../../src/contracts/monitor-catalog.js";
import type { CreateMonitorInput, MonitorView } from "../../../../src/contracts/monitors.js";
import {
  type Draft,
  type DraftDnsAssertion,
  newKey,
  newStep,
  stepsFromMonitor,
  stepsInput,
  toNumber,
} from "./draft.js";

/** The request body of one kind. */
type KindInput<T extends MonitorType> = Extract<CreateMonitorInput, { type: T }>;
type DnsAssertionInput = NonNullable<KindInput<"dns">["assertions"]>[number];

/** The fields of every kind, as the form sends them (heartbeats leave out `frequency`). */
type CommonInput = Pick<
  KindInput<"tcp">,
  "name" | "timeoutSeconds" | "alertAfter" | "locations" | "channelIds" | "escalationPolicyId"
>;

/**
 * How the form reads and writes one kind: its slot of the draft from a stored monitor, and the
 * request body (the common fields plus its own; an update naming another kind's field is refused,
 * so nothing of the other slots is sent).
 */
export interface KindDraft {
  read(monitor: MonitorView): Partial<Draft>;
  input(draft: Draft, common: CommonInput): CreateMonitorInput;
}

export const newDnsAssertion = (type: DnsAssertionType = "answer"): DraftDnsAssertion => ({
  key: newKey(),
  type,
  operator: DNS_ASSERTION_TYPES[type].operators[0],
  value: "",
});

/** Changes a DNS assertion's type, keeping its operator only when the new type allows it. */
export function withDnsType(
  assertion: DraftDnsAssertion,
  type: DnsAssertionType,
): DraftDnsAssertion {
  const allowed: readonly Operator[] = DNS_ASSERTION_TYPES[type].operators;
  return {
    ...assertion,
    type,
    operator: allowed.includes(assertion.operator)
      ? assertion.operator
      : (allowed[0] ?? assertion.operator),
  };
}

/** api and flow: the same steps, one request or several. */
const http = (type: "api" | "flow"): KindDraft => ({
  read: (monitor) => ({ steps: stepsFromMonitor(monitor) }),
  input: (draft, common) => ({
    ...common,
    type,
    frequency: draft.frequency,
    steps: stepsInput(draft),
  }),
});

/** The kinds' mappings: a new kind is one entry here and one in kinds.tsx. */
export const KIND_DRAFTS: Record<MonitorType, KindDraft> = {
  api: http("api"),
  flow: http("flow"),
  tcp: {
    read: (m) => ({
      tcp: {
        host: m.host ?? "",
        port: m.port === undefined ? "" : String(m.port),
        send: m.send ?? "",
        expect: m.expect ?? "",
      },
    }),
    // Empty send/expect are "nothing": sent as typed, so an update clears them too.
    input: ({ tcp, frequency }, common) => ({
      ...common,
      type: "tcp",
      frequency,
      host: tcp.host.trim(),
      port: toNumber(tcp.port),
      send: tcp.send,
      expect: tcp.expect,
    }),
  },
  dns: {
    read: (m) => ({
      dns: {
        domain: m.domain ?? "",
        recordType: m.recordType ?? "A",
        resolver: m.resolver ?? "",
        assertions: (m.assertions ?? []).map((a) => ({ ...a, key: newKey() })),
      },
    }),
    input: ({ dns, frequency }, common) => ({
      ...common,
      type: "dns",
      frequency,
      domain: dns.domain.trim(),
      recordType: dns.recordType,
      // Empty is sent too: on an edit it clears a resolver set before (the system's is asked).
      resolver: dns.resolver.trim(),
      // The pairing of type and operator is the server's to check: it names a bad one.
      assertions: dns.assertions.map(
        ({ type, operator, value }) => ({ type, operator, value }) as DnsAssertionInput,
      ),
    }),
  },
  tls: {
    read: (m) => ({
      tls: {
        host: m.host ?? "",
        port: String(m.port ?? TLS_DEFAULT_PORT),
        servername: m.servername ?? "",
        minDaysLeft: String(m.minDaysLeft ?? TLS_MIN_DAYS_LEFT.default),
        ca: m.ca ?? "",
      },
    }),
    input: ({ tls, frequency }, common) => ({
      ...common,
      type: "tls",
      frequency,
      host: tls.host.trim(),
      port: toNumber(tls.port),
      servername: tls.servername.trim(),
      minDaysLeft: toNumber(tls.minDaysLeft),
      ca: tls.ca,
    }),
  },
  heartbeat: {
    read: (m) => ({ heartbeat: { period: m.period ?? "", grace: m.grace ?? "" } }),
    // No frequency: a heartbeat waits for its pings.
    input: ({ heartbeat }, common) => ({
      ...common,
      type: "heartbeat",
      period: heartbeat.period.trim(),
      grace: heartbeat.grace.trim(),
    }),
  },
};

export const emptyDraft = (): Draft => ({
  name: "",
  type: "api",
  frequency: DEFAULT_FREQUENCY,
  timeoutSeconds: String(TIMEOUT_SECONDS.default),
  alertAfter: String(ALERT_AFTER.default),
  channelIds: [],
  escalationPolicyId: null,
  steps: [newStep()],
  tcp: { host: "", port: "", send: "", expect: "" },
  dns: {
    domain: "",
    recordType: "A",
    resolver: "",
    assertions: DEFAULT_DNS_ASSERTIONS.map((a) => ({ ...a, key: newKey() })),
  },
  tls: {
    host: "",
    port: String(TLS_DEFAULT_PORT),
    servername: "",
    minDaysLeft: String(TLS_MIN_DAYS_LEFT.default),
    ca: "",
  },
  heartbeat: { period: "1h", grace: HEARTBEAT_GRACE.default },
});

/** A stored monitor as the form edits it: the common fields and its kind's slot. */
export function fromMonitor(monitor: MonitorView): Draft {
  return {
    ...emptyDraft(),
    name: monitor.name,
    type: monitor.type,
    frequency: monitor.frequency ?? DEFAULT_FREQUENCY,
    timeoutSeconds: String(monitor.timeoutSeconds),
    alertAfter: String(monitor.alertAfter),
    channelIds: monitor.channelIds,
    escalationPolicyId: monitor.escalationPolicyId,
    ...KIND_DRAFTS[monitor.type].read(monitor),
  };
}

/** The request body; a number left empty is sent as null so the server names the field. */
export function toInput(draft: Draft): CreateMonitorInput {
  return KIND_DRAFTS[draft.type].input(draft, {
    name: draft.name,
    timeoutSeconds: toNumber(draft.timeoutSeconds),
    alertAfter: toNumber(draft.alertAfter),
    locations: [...LOCATIONS],
    channelIds: draft.channelIds,
    escalationPolicyId: draft.escalationPolicyId,
  });
}
