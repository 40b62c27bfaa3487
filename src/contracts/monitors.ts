import { z } from "zod";
import { NotificationDeliveryView } from "./channels.js";
import { parseJsonPath } from "./json-path.js";
import {
  ALERT_AFTER,
  ASSERTION_TYPE_NAMES,
  ASSERTION_TYPES,
  type AssertionType,
  BODY_METHODS,
  COMING_SOON_TYPES,
  DEFAULT_ASSERTIONS as DEFAULT_ASSERTION_VALUES,
  DEFAULT_FREQUENCY,
  FREQUENCY_NAMES,
  HTTP_METHODS,
  LOCATIONS,
  MAX_ASSERTIONS,
  MAX_EXTRACTIONS,
  MAX_HEADERS,
  MAX_REQUEST_BODY_CHARS,
  MAX_STEPS,
  MONITOR_TYPES,
  OPERATORS,
  STEP_STATUSES,
  TIMEOUT_SECONDS,
  VARIABLE_NAME,
} from "./monitor-catalog.js";

// The monitor API's request and response schemas (zod: validation and OpenAPI alike), shared by
// the server and the dashboard (docs/design.md §4, Monitors). The plain settings and limits they
// check against are in monitor-catalog.ts.

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

const MonitorFields = z
  .object({
    name: z.string().trim().min(1).max(200),
    // Checked on the field, so the message shows even when other fields are invalid too.
    type: z
      .enum([...MONITOR_TYPES, ...COMING_SOON_TYPES])
      .refine((type) => !(COMING_SOON_TYPES as readonly string[]).includes(type), {
        error: (issue) => `${issue.input} checks are coming soon; use 'api' or 'flow'`,
      }),
    frequency: z.enum(FREQUENCY_NAMES).default(DEFAULT_FREQUENCY),
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
    steps: z.array(Step).min(1).max(MAX_STEPS),
  })
  .strict();

/** Checks the rules that span fields; shared by create and by the merged result of an update. */
function refineMonitor(monitor: z.output<typeof MonitorFields>, ctx: z.RefinementCtx): void {
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

export const CreateMonitorInput = MonitorFields.superRefine(refineMonitor).meta({
  id: "CreateMonitorInput",
});
export type CreateMonitorInput = z.input<typeof CreateMonitorInput>;

type WithoutDefault<S> = S extends z.ZodDefault<infer T> ? T : S;
/** The fields without their defaults: a patch that omits a field must not reset it to the default. */
const PatchFields = z
  .object(
    Object.fromEntries(
      Object.entries(MonitorFields.shape).map(([key, schema]) => [
        key,
        schema instanceof z.ZodDefault ? schema.unwrap() : schema,
      ]),
    ) as {
      [K in keyof typeof MonitorFields.shape]: WithoutDefault<(typeof MonitorFields.shape)[K]>;
    },
  )
  .strict();

/** PATCH: any subset of the fields; `steps` is replaced whole. The merged monitor is validated again. */
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
    frequency: z.enum(FREQUENCY_NAMES),
    timeoutSeconds: z.number().int(),
    locations: z.array(z.literal("default")),
    alertAfter: z.number().int(),
    channelIds: z.array(z.string()),
    steps: z.array(StepView),
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

/** One assertion of a check: what was expected, what was read, and whether it passed. */
export const AssertionResultView = z.object({
  type: z.enum(ASSERTION_TYPE_NAMES),
  operator: z.enum(OPERATORS),
  target: z.string().optional().describe("The JSON path or header name"),
  expected: z.string(),
  actual: z
    .string()
    .nullable()
    .describe("null when the path did not resolve or the header is absent"),
  passed: z.boolean(),
  message: z.string(),
});
export type AssertionResultView = z.infer<typeof AssertionResultView>;

/** One step of a check: its request as sent and its outcome. */
export const StepResultView = z.object({
  name: z.string(),
  status: z.enum(STEP_STATUSES),
  method: z.string(),
  url: z.string().describe("As sent, after {{name}} substitution"),
  statusCode: z.number().int().nullable(),
  durationMs: z
    .number()
    .nullable()
    .describe("This request's time; its response_time assertions see it"),
  transportError: z
    .object({ code: z.string(), message: z.string() })
    .nullable()
    .describe("Set when the request failed; then no assertion was evaluated"),
  assertions: z.array(AssertionResultView),
  extracted: z.record(z.string(), z.string()),
  responseBody: z.string().nullable().describe("Only for a failed step, truncated"),
  responseBodyTruncated: z.boolean(),
});
export type StepResultView = z.infer<typeof StepResultView>;

/** One check: every step with its assertions, the verdict, and the total time across steps. */
export const CheckResultView = z
  .object({
    id: z.string(),
    monitorId: z.string(),
    trigger: z.enum(["scheduled", "manual"]),
    startedAt: z.string(),
    durationMs: z.number().describe("Total of all steps (the timeline figure)"),
    passed: z.boolean(),
    traceId: z.string().describe("Sent in every request's traceparent header"),
    steps: z.array(StepResultView),
  })
  .meta({ id: "MonitorCheckResult" });
export type CheckResultView = z.infer<typeof CheckResultView>;

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
