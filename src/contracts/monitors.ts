import { z } from "zod";
import { NotificationDeliveryView } from "./channels.js";
import { parseJsonPath } from "./json-path.js";
import {
  ASSERTION_TYPES,
  type AssertionType,
  BODY_METHODS,
  COMING_SOON_TYPES,
  DEFAULT_ASSERTIONS as DEFAULT_ASSERTION_VALUES,
  DNS_RECORD_TYPES,
  FREQUENCY_NAMES,
  HTTP_METHODS,
  HTTP_MONITOR_TYPES,
  MAX_ASSERTIONS,
  MAX_EXTRACTIONS,
  MAX_HEADERS,
  MAX_REQUEST_BODY_CHARS,
  MAX_STEPS,
  MONITOR_TYPES,
  type MonitorType,
  VARIABLE_NAME,
} from "./monitor-catalog.js";
import {
  DnsAssertion,
  DnsMonitorInput,
  HeartbeatMonitorInput,
  ScheduledFields,
  TcpMonitorInput,
  TlsMonitorInput,
} from "./monitor-kinds.js";

export {
  DnsAssertion,
  DnsMonitorInput,
  HeartbeatMonitorInput,
  TcpMonitorInput,
  TlsMonitorInput,
} from "./monitor-kinds.js";

// The monitor API's request and response schemas (zod: validation and OpenAPI alike), shared by
// the server and the dashboard (docs/design.md §4, Monitors). The plain settings and limits they
// check against are in monitor-catalog.ts; the fields of the kinds that are not HTTP steps (tcp,
// dns, tls, heartbeat) in monitor-kinds.ts.

/** Headers the HTTP client computes itself; setting them would corrupt the request. */
const COMPUTED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);

const Value = z
  .union([z.string().max(4096), z.number()])
  .transform(String)
  .describe("The value to compare with (numbers are accepted and kept as text)");

const operatorsOf = (type: AssertionType) =>
  z.enum(ASSERTION_TYPES[type].operators, {
    error: `${type} assertions take ${ASSERTION_TYPES[type].operators.join(", ")}`,
  });

const simple = <T extends AssertionType>(type: T) =>
  z.object({ type: z.literal(type), operator: operatorsOf(type), value: Value }).strict();

// Rule 3: an empty path or header name is saved and then fails its assertion with a message.
const Target = (what: string) => z.string().max(1000).default("").describe(what);

/** One assertion: what to read from a response, and how to compare it with `value`. */
export const Assertion = z
  .discriminatedUnion("type", [
    simple("status_code"),
    simple("response_time"),
    simple("body_contains"),
    simple("body_not_contains"),
    simple("json_path").extend({ path: Target("JSON path such as $.items[0].id") }),
    simple("header").extend({ name: Target("Response header name (case-insensitive)") }),
  ])
  .meta({ id: "Assertion" });
export type Assertion = z.output<typeof Assertion>;
export type AssertionInput = z.input<typeof Assertion>;

/** New steps without assertions get these two (spec: HTTP monitor). */
export const DEFAULT_ASSERTIONS: readonly Assertion[] = DEFAULT_ASSERTION_VALUES;

const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, {
  error: "not a valid HTTP header name",
});

export const Step = z
  .object({
    name: z.string().trim().max(200).optional().describe("Shown in results; defaults to 'Step N'"),
    method: z.enum(HTTP_METHODS).default("GET"),
    url: z
      .string()
      .trim()
      .max(2048)
      .regex(/^https?:\/\/\S+$/i, { error: "must be an http:// or https:// URL" })
      .describe("May contain {{name}} placeholders filled from earlier steps"),
    headers: z
      .array(
        z
          .object({
            name: HeaderName,
            value: z
              .string()
              .max(8192)
              .regex(/^[^\r\n\0]*$/, { error: "must not contain line breaks" }),
          })
          .strict(),
      )
      .max(MAX_HEADERS)
      .default([]),
    body: z.string().max(MAX_REQUEST_BODY_CHARS).optional(),
    assertions: z.array(Assertion).max(MAX_ASSERTIONS).optional(),
    extract: z
      .array(
        z
          .object({
            name: z.string().regex(VARIABLE_NAME, {
              error: "must be a name of letters, digits, _ . - (starting with a letter or _)",
            }),
            path: z.string().min(1).max(1000),
          })
          .strict(),
      )
      .max(MAX_EXTRACTIONS)
      .default([]),
    followRedirects: z
      .boolean()
      .default(true)
      .describe("Follow up to 5 redirects (each hop is checked like the first URL)"),
  })
  .strict();

/** api (one step) and flow (1–20 steps): HTTP requests with assertions. */
export const HttpMonitorInput = z
  .object({
    ...ScheduledFields,
    type: z.enum(HTTP_MONITOR_TYPES),
    steps: z.array(Step).min(1).max(MAX_STEPS),
  })
  .strict()
  .superRefine(refineHttpMonitor);

/** Checks the rules that span fields of an HTTP monitor (create, and an update's merged result). */
function refineHttpMonitor(
  monitor: { type: string; steps: z.output<typeof Step>[] },
  ctx: z.RefinementCtx,
): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: "custom", path, message });
  if (monitor.type === "api" && monitor.steps.length !== 1)
    issue(["steps"], "an api monitor has exactly one step (use type 'flow' for several)");
  let assertions = 0;
  const names = new Set<string>();
  for (const [i, step] of monitor.steps.entries()) {
    // An empty body (what forms send for "none") is accepted with any method and not sent.
    if (step.body && !BODY_METHODS.has(step.method))
      issue(
        ["steps", i, "body"],
        `a request body is only sent with POST, PUT or PATCH, not ${step.method}`,
      );
    for (const [h, header] of step.headers.entries())
      if (COMPUTED_HEADERS.has(header.name.toLowerCase()))
        issue(["steps", i, "headers", h, "name"], `${header.name} is set by the HTTP client`);
    assertions += step.assertions?.length || DEFAULT_ASSERTIONS.length;
    for (const [a, assertion] of (step.assertions ?? []).entries()) {
      if (assertion.type === "header" && assertion.name.trim() !== "") {
        if (!HeaderName.safeParse(assertion.name.trim()).success)
          issue(["steps", i, "assertions", a, "name"], "not a valid HTTP header name");
      }
      if (assertion.type !== "json_path" || assertion.path.trim() === "") continue;
      const parsed = parseJsonPath(assertion.path);
      if (!parsed.ok) issue(["steps", i, "assertions", a, "path"], parsed.message);
    }
    for (const [e, extract] of step.extract.entries()) {
      const parsed = parseJsonPath(extract.path);
      if (!parsed.ok) issue(["steps", i, "extract", e, "path"], parsed.message);
      if (names.has(extract.name))
        issue(["steps", i, "extract", e, "name"], `'${extract.name}' is extracted twice`);
      names.add(extract.name);
    }
  }
  if (assertions > MAX_ASSERTIONS)
    issue(
      ["steps"],
      `a monitor has at most ${MAX_ASSERTIONS} assertions (this one has ${assertions})`,
    );
}

const KIND_NAMES = MONITOR_TYPES.map((type) => `'${type}'`).join(", ");

/** Why a `type` matched no kind: absent, announced as coming soon, or unknown. */
function typeMessage(input: unknown): string {
  const type = (input as { type?: unknown } | null)?.type;
  if (type === undefined) return `choose a type: ${KIND_NAMES}`;
  if ((COMING_SOON_TYPES as readonly unknown[]).includes(type))
    return `${String(type)} checks are coming soon; use one of ${KIND_NAMES}`;
  return `must be one of ${KIND_NAMES}`;
}

/**
 * A new monitor: a union on `type` of the kinds' fields (docs/monitors.md). Common to all: name,
 * timeoutSeconds, locations, alertAfter, channelIds, escalationPolicyId, and frequency for every
 * kind but heartbeat.
 */
export const CreateMonitorInput = z
  .discriminatedUnion(
    "type",
    [HttpMonitorInput, TcpMonitorInput, DnsMonitorInput, TlsMonitorInput, HeartbeatMonitorInput],
    {
      error: (issue) => (issue.code === "invalid_union" ? typeMessage(issue.input) : undefined),
    },
  )
  .meta({ id: "CreateMonitorInput" });
export type CreateMonitorInput = z.input<typeof CreateMonitorInput>;
export type ParsedMonitorInput = z.output<typeof CreateMonitorInput>;

const KIND_SCHEMAS = {
  api: HttpMonitorInput,
  flow: HttpMonitorInput,
  tcp: TcpMonitorInput,
  dns: DnsMonitorInput,
  tls: TlsMonitorInput,
  heartbeat: HeartbeatMonitorInput,
} as const satisfies Record<MonitorType, z.ZodObject>;

/** The fields a monitor of this type takes (an update naming another kind's field is refused). */
export const monitorFieldNames = (type: MonitorType): ReadonlySet<string> =>
  new Set(Object.keys(KIND_SCHEMAS[type].shape));

type WithoutDefault<S> = S extends z.ZodDefault<infer T> ? T : S;
const withoutDefaults = <T extends z.ZodRawShape>(shape: T) =>
  Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => [
      key,
      schema instanceof z.ZodDefault ? schema.unwrap() : schema,
    ]),
  ) as { [K in keyof T]: WithoutDefault<T[K]> };

/** Every kind's fields together; `type` also names the kinds announced as coming soon. */
const PatchFields = z
  .object({
    ...withoutDefaults(HeartbeatMonitorInput.shape),
    ...withoutDefaults(DnsMonitorInput.shape),
    ...withoutDefaults(TlsMonitorInput.shape),
    ...withoutDefaults(TcpMonitorInput.shape),
    ...withoutDefaults(HttpMonitorInput.shape),
    // Checked on the field, so the message shows even when other fields are invalid too.
    type: z
      .enum([...MONITOR_TYPES, ...COMING_SOON_TYPES])
      .refine((type) => !(COMING_SOON_TYPES as readonly string[]).includes(type), {
        error: (issue) => typeMessage({ type: issue.input }),
      }),
  })
  .strict();

/**
 * PATCH: any subset of the fields of the monitor's kind; `steps` and `assertions` are replaced
 * whole. The type stays (api and flow may trade places). The merged monitor is validated again.
 */
export const UpdateMonitorInput = PatchFields.partial()
  .refine((patch) => Object.keys(patch).length > 0, { error: "give at least one field to change" })
  .meta({ id: "UpdateMonitorInput" });
export type UpdateMonitorInput = z.input<typeof UpdateMonitorInput>;

/** A stored step: the request schema with its defaults applied, every step named and asserted. */
export const StepView = Step.extend({ name: z.string(), assertions: z.array(Assertion) });
export type StepView = z.infer<typeof StepView>;

/** A monitor as the API shows it: its definition and where its state machine stands. */
export const MonitorView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    type: z.enum(MONITOR_TYPES),
    target: z
      .string()
      .describe(
        "What is checked, in one line: the URL, tcp://host:port, dns A example.com, tls://host:443, heartbeat every 1h (+5m)",
      ),
    frequency: z
      .enum(FREQUENCY_NAMES)
      .nullable()
      .describe("null for a heartbeat (it waits for pings)"),
    timeoutSeconds: z.number().int(),
    locations: z.array(z.literal("default")),
    alertAfter: z.number().int(),
    channelIds: z.array(z.string()),
    escalationPolicyId: z.string().nullable(),
    steps: z.array(StepView).describe("api and flow; empty for the other kinds"),
    host: z.string().optional().describe("tcp, tls"),
    port: z.number().int().optional().describe("tcp, tls"),
    send: z.string().optional().describe("tcp"),
    expect: z.string().optional().describe("tcp"),
    domain: z.string().optional().describe("dns: the name resolved"),
    recordType: z.enum(DNS_RECORD_TYPES).optional().describe("dns"),
    resolver: z.string().optional().describe("dns; absent: the system's resolver"),
    assertions: z.array(DnsAssertion).optional().describe("dns"),
    servername: z.string().optional().describe("tls"),
    minDaysLeft: z.number().int().optional().describe("tls"),
    ca: z.string().optional().describe("tls"),
    period: z.string().optional().describe("heartbeat"),
    grace: z.string().optional().describe("heartbeat"),
    pingUrl: z.string().optional().describe("heartbeat: the secret URL the job pings"),
    lastPingAt: z.string().nullable().optional().describe("heartbeat"),
    status: z.enum(["active", "paused"]).describe("paused: no scheduled checks"),
    health: z
      .enum(["pending", "passing", "outage"])
      .describe("pending: never checked; outage: failures reached alertAfter"),
    failureStreak: z.number().int().describe("Consecutive failed checks"),
    lastCheckedAt: z.string().nullable(),
    lastResultId: z.string().nullable(),
    lastResult: z
      .object({
        id: z.string(),
        startedAt: z.string(),
        durationMs: z.number().describe("Total of all steps"),
        passed: z.boolean(),
      })
      .nullable()
      .describe("The last check, without its steps (GET …/results/:resultId has them)"),
    openIncidentId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Monitor" });
export type MonitorView = z.infer<typeof MonitorView>;

export {
  AssertionResultView,
  CheckResultView,
  StepResultView,
  TlsDetailsView,
} from "./monitor-results.js";

export const MonitorIncidentView = z
  .object({
    id: z.string(),
    monitorId: z.string(),
    status: z.enum(["active", "resolved"]),
    startedAt: z.string(),
    resolvedAt: z
      .string()
      .nullable()
      .describe("When the outage ended (the recovering check); the name /v1/incidents uses"),
    durationMs: z.number().int().nullable(),
    cause: z.string().describe("The first failure of the check that opened the outage"),
    openedByResultId: z.string(),
    closedByResultId: z.string().nullable(),
    notifications: z
      .array(NotificationDeliveryView)
      .describe("Alert and recovery deliveries per channel"),
  })
  .meta({ id: "MonitorIncident" });
export type MonitorIncidentView = z.infer<typeof MonitorIncidentView>;
