import { z } from "zod";
import {
  ALERT_AFTER,
  DEFAULT_FREQUENCY,
  DNS_ASSERTION_TYPES,
  DNS_RECORD_TYPES,
  type DnsAssertionType,
  FREQUENCY_NAMES,
  HEARTBEAT_GRACE,
  HEARTBEAT_PERIOD,
  LOCATIONS,
  MAX_CA_PEM_CHARS,
  MAX_DNS_ASSERTIONS,
  MAX_TCP_TEXT_BYTES,
  PORT,
  parseDuration,
  parseResolver,
  TIMEOUT_SECONDS,
  TLS_DEFAULT_PORT,
  TLS_MIN_DAYS_LEFT,
} from "./monitor-catalog.js";

// The fields every monitor kind shares, and the input schemas of the kinds that are not HTTP
// steps (tcp, dns, tls, heartbeat). contracts/monitors.ts joins them with api/flow into
// CreateMonitorInput, a union on `type` (docs/monitors.md).

/** The fields of every kind (heartbeats have no `frequency`: they wait for pings). */
export const CommonMonitorFields = {
  name: z.string().trim().min(1).max(200),
  timeoutSeconds: z
    .number()
    .int()
    .min(TIMEOUT_SECONDS.min)
    .max(TIMEOUT_SECONDS.max)
    .default(TIMEOUT_SECONDS.default),
  locations: z
    .array(z.enum(LOCATIONS, { error: "the only location is 'default'" }))
    .min(1)
    .max(1)
    .default(["default"]),
  alertAfter: z
    .number()
    .int()
    .min(ALERT_AFTER.min)
    .max(ALERT_AFTER.max)
    .default(ALERT_AFTER.default)
    .describe("Consecutive failed checks before an outage is declared"),
  channelIds: z.array(z.string().min(1).max(64)).max(20).default([]),
  escalationPolicyId: z
    .string()
    .min(1)
    .max(64)
    .nullable()
    .default(null)
    .describe("An escalation policy of the project run when an outage opens (null: none)"),
};

/** How often a scheduled kind (every kind but heartbeat) is checked. */
export const ScheduledFields = {
  ...CommonMonitorFields,
  frequency: z.enum(FREQUENCY_NAMES).default(DEFAULT_FREQUENCY),
};

/** A DNS name: labels of letters, digits, `_` and `-`, at most 253 characters, an optional final dot. */
const DNS_NAME =
  /^(?=.{1,254}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.?$/i;
const isIpv4 = (text: string) => z.ipv4().safeParse(text).success;
const isIpv6 = (text: string) => z.ipv6().safeParse(text).success;

/** A host to connect to: a DNS name, an IPv4 address or an IPv6 address (without brackets). */
export const Host = z
  .string()
  .trim()
  .max(253)
  .refine((host) => DNS_NAME.test(host) || isIpv6(host), {
    error: "must be a host name or an IP address, without a scheme, port or path",
  })
  .describe("A host name, an IPv4 address or an IPv6 address (no brackets)");

export const Port = z.number().int().min(PORT.min).max(PORT.max);

const byteLength = (text: string) => new TextEncoder().encode(text).length;
const TcpText = (what: string) =>
  z
    .string()
    .refine((text) => byteLength(text) <= MAX_TCP_TEXT_BYTES, {
      error: `at most ${MAX_TCP_TEXT_BYTES} bytes (UTF-8)`,
    })
    .optional()
    .describe(what);

export const TcpMonitorInput = z
  .object({
    ...ScheduledFields,
    type: z.literal("tcp"),
    host: Host,
    port: Port,
    send: TcpText("Text sent once connected (empty or absent: nothing is sent)"),
    expect: TcpText(
      "Text that must appear in what the server sends within the timeout (empty or absent: connecting is enough)",
    ),
  })
  .strict();

const dnsOperators = (type: DnsAssertionType) =>
  z.enum(DNS_ASSERTION_TYPES[type].operators, {
    error: `${type} assertions take ${DNS_ASSERTION_TYPES[type].operators.join(", ")}`,
  });

const DnsValue = z
  .union([z.string().max(1024), z.number()])
  .transform(String)
  .describe("The value to compare with (numbers are accepted and kept as text)");

/**
 * An assertion on a DNS lookup's answers: `answer` passes when ANY answer matches (with not_*
 * operators, when NONE does); `answer_count` compares the number of answers.
 */
export const DnsAssertion = z
  .discriminatedUnion("type", [
    z
      .object({ type: z.literal("answer"), operator: dnsOperators("answer"), value: DnsValue })
      .strict()
      .superRefine((assertion, ctx) => {
        if (assertion.operator !== "matches") return;
        try {
          new RegExp(assertion.value);
        } catch (error) {
          ctx.addIssue({
            code: "custom",
            path: ["value"],
            message: `not a valid regular expression: ${(error as Error).message}`,
          });
        }
      }),
    z
      .object({
        type: z.literal("answer_count"),
        operator: dnsOperators("answer_count"),
        value: DnsValue.refine((value) => /^\d{1,6}$/.test(value.trim()), {
          error: "must be a whole number of answers",
        }),
      })
      .strict(),
  ])
  .meta({ id: "DnsAssertion" });
export type DnsAssertion = z.output<typeof DnsAssertion>;

export const DnsResolver = z
  .string()
  .trim()
  .max(64)
  .refine(
    (text) => {
      // Empty: the system's resolver (what a form sends to clear it).
      if (text === "") return true;
      const parsed = parseResolver(text);
      return parsed !== undefined && (isIpv4(parsed.host) || isIpv6(parsed.host));
    },
    { error: 'must be an IP address, optionally with a port: "1.1.1.1", "1.1.1.1:53", "[::1]:53"' },
  )
  .describe("The DNS server asked (absent or empty: the system's resolver)");

export const DnsMonitorInput = z
  .object({
    ...ScheduledFields,
    type: z.literal("dns"),
    domain: z
      .string()
      .trim()
      .max(254)
      .refine((name) => DNS_NAME.test(name), { error: "must be a DNS name such as example.com" })
      .describe("The name resolved (`name` is the monitor's own name)"),
    recordType: z.enum(DNS_RECORD_TYPES, {
      error: `must be one of ${DNS_RECORD_TYPES.join(", ")}`,
    }),
    resolver: DnsResolver.optional(),
    assertions: z
      .array(DnsAssertion)
      .max(MAX_DNS_ASSERTIONS)
      .optional()
      .describe("Absent or empty: at least one answer"),
  })
  .strict();

const PEM_CERTIFICATE = "-----BEGIN CERTIFICATE-----";

export const TlsMonitorInput = z
  .object({
    ...ScheduledFields,
    type: z.literal("tls"),
    host: Host,
    port: Port.default(TLS_DEFAULT_PORT),
    servername: z
      .string()
      .trim()
      .max(253)
      .refine((name) => name === "" || DNS_NAME.test(name), {
        error: "must be a host name (the name the certificate must match)",
      })
      .optional()
      .describe("Sent as SNI and matched against the certificate (default: host)"),
    minDaysLeft: z
      .number()
      .int()
      .min(TLS_MIN_DAYS_LEFT.min)
      .max(TLS_MIN_DAYS_LEFT.max)
      .default(TLS_MIN_DAYS_LEFT.default)
      .describe("The check fails when the certificate expires in fewer days"),
    ca: z
      .string()
      .max(MAX_CA_PEM_CHARS)
      .refine((pem) => pem.trim() === "" || pem.includes(PEM_CERTIFICATE), {
        error: "must be PEM certificates (-----BEGIN CERTIFICATE-----)",
      })
      .optional()
      .describe("Trusted CA certificates (PEM) instead of the system's, for private CAs"),
  })
  .strict();

const durationField = (what: string, limits: { min: number; max: number }, range: string) =>
  z
    .string()
    .trim()
    .refine(
      (text) => {
        const seconds = parseDuration(text);
        return seconds !== undefined && seconds >= limits.min && seconds <= limits.max;
      },
      { error: `must be a duration such as 30s, 5m, 1h or 1d, ${range}` },
    )
    .describe(what);

export const HeartbeatMonitorInput = z
  .object({
    ...CommonMonitorFields,
    type: z.literal("heartbeat"),
    period: durationField("How often the job pings", HEARTBEAT_PERIOD, "from 1m to 30d"),
    grace: durationField(
      "How late a ping may be before the heartbeat counts as missed",
      HEARTBEAT_GRACE,
      "from 0s to 7d",
    ).default(HEARTBEAT_GRACE.default),
  })
  .strict();
