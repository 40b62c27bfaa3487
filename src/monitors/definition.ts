import type { z } from "zod";
import {
  DEFAULT_DNS_ASSERTIONS,
  type DnsRecordType,
  type Frequency,
  formatDuration,
  type HttpMonitorType,
  type MonitorType,
  parseDuration,
} from "../contracts/monitor-catalog.js";
import {
  type Assertion,
  DEFAULT_ASSERTIONS,
  type DnsAssertion,
  type ParsedMonitorInput,
  type Step,
} from "../contracts/monitors.js";

// The input schemas (CreateMonitorInput, UpdateMonitorInput, Assertion, Step) are the API's
// contract in contracts/monitors.ts; this is the definition they validate into, one shape per kind.

export type StepDefinition = Omit<z.output<typeof Step>, "assertions" | "name"> & {
  name: string;
  assertions: Assertion[];
};

/** What every kind stores. */
interface CommonDefinition {
  name: string;
  type: MonitorType;
  timeoutSeconds: number;
  locations: ["default"];
  alertAfter: number;
  channelIds: string[];
  /** The escalation policy run when an outage opens (null: none; absent in definitions stored before it existed). */
  escalationPolicyId?: string | null;
}

/** api (one step) and flow (several): HTTP requests. */
export interface HttpDefinition extends CommonDefinition {
  type: HttpMonitorType;
  frequency: Frequency;
  steps: StepDefinition[];
}

/** Connect to host:port; optionally send a text and expect one in what comes back. */
export interface TcpDefinition extends CommonDefinition {
  type: "tcp";
  frequency: Frequency;
  host: string;
  port: number;
  send?: string;
  expect?: string;
}

/** Resolve a name and assert on its answers. */
export interface DnsDefinition extends CommonDefinition {
  type: "dns";
  frequency: Frequency;
  domain: string;
  recordType: DnsRecordType;
  /** "ip" or "ip:port" ("[v6]:port"); absent: the system's resolver. */
  resolver?: string;
  assertions: DnsAssertion[];
}

/** A TLS handshake: chain, hostname and days left of the certificate. */
export interface TlsDefinition extends CommonDefinition {
  type: "tls";
  frequency: Frequency;
  host: string;
  port: number;
  servername?: string;
  minDaysLeft: number;
  /** Trusted CA certificates (PEM) instead of the system's. */
  ca?: string;
}

/** Pinged by a job every `period` (+ `grace`); never scheduled. */
export interface HeartbeatDefinition extends CommonDefinition {
  type: "heartbeat";
  /** A duration such as "1h" (canonical: the largest unit that divides it). */
  period: string;
  grace: string;
}

/** A validated monitor definition as stored and run: defaults applied, every step named. */
export type MonitorDefinition =
  | HttpDefinition
  | TcpDefinition
  | DnsDefinition
  | TlsDefinition
  | HeartbeatDefinition;

/** The kinds checked on a schedule (every kind but heartbeat). */
export type ScheduledDefinition = Exclude<MonitorDefinition, HeartbeatDefinition>;

export const isScheduled = (definition: MonitorDefinition): definition is ScheduledDefinition =>
  definition.type !== "heartbeat";

/** A stored definition, with what definitions stored before a field existed lack filled in. */
export function storedDefinition(stored: unknown): MonitorDefinition {
  const definition = stored as MonitorDefinition;
  return definition.escalationPolicyId === undefined
    ? { ...definition, escalationPolicyId: null }
    : definition;
}

/** The heartbeat durations in seconds. */
export function heartbeatSeconds(definition: HeartbeatDefinition): {
  period: number;
  grace: number;
} {
  return {
    period: parseDuration(definition.period) ?? 0,
    grace: parseDuration(definition.grace) ?? 0,
  };
}

const optionalText = (text: string | undefined): string | undefined =>
  text === undefined || text.trim() === "" ? undefined : text;

const canonicalDuration = (text: string) => formatDuration(parseDuration(text) ?? 0);

/** Validated input (create, or an existing definition merged with a patch) into a definition. */
export function toDefinition(parsed: ParsedMonitorInput): MonitorDefinition {
  const common = {
    name: parsed.name,
    timeoutSeconds: parsed.timeoutSeconds,
    locations: ["default"] as ["default"],
    alertAfter: parsed.alertAfter,
    channelIds: [...new Set(parsed.channelIds)],
    escalationPolicyId: parsed.escalationPolicyId,
  };
  switch (parsed.type) {
    case "api":
    case "flow":
      return {
        ...common,
        type: parsed.type,
        frequency: parsed.frequency,
        steps: parsed.steps.map((step, i) => ({
          ...step,
          name: step.name || `Step ${i + 1}`,
          assertions: step.assertions?.length ? step.assertions : [...DEFAULT_ASSERTIONS],
        })),
      };
    case "tcp": {
      const send = optionalText(parsed.send);
      const expect = optionalText(parsed.expect);
      return {
        ...common,
        type: "tcp",
        frequency: parsed.frequency,
        host: parsed.host,
        port: parsed.port,
        ...(send === undefined ? {} : { send }),
        ...(expect === undefined ? {} : { expect }),
      };
    }
    case "dns": {
      const resolver = optionalText(parsed.resolver);
      return {
        ...common,
        type: "dns",
        frequency: parsed.frequency,
        domain: parsed.domain,
        recordType: parsed.recordType,
        ...(resolver === undefined ? {} : { resolver }),
        assertions: parsed.assertions?.length
          ? parsed.assertions
          : DEFAULT_DNS_ASSERTIONS.map((a) => ({ ...a })),
      };
    }
    case "tls": {
      const servername = optionalText(parsed.servername);
      const ca = optionalText(parsed.ca);
      return {
        ...common,
        type: "tls",
        frequency: parsed.frequency,
        host: parsed.host,
        port: parsed.port,
        minDaysLeft: parsed.minDaysLeft,
        ...(servername === undefined ? {} : { servername }),
        ...(ca === undefined ? {} : { ca }),
      };
    }
    case "heartbeat":
      return {
        ...common,
        type: "heartbeat",
        period: canonicalDuration(parsed.period),
        grace: canonicalDuration(parsed.grace),
      };
  }
}
