import { z } from "zod";
import { parseJsonPath } from "./assertions/json-path.js";
import { ASSERTION_TYPES, type AssertionType } from "./assertions/registry.js";

/** Check frequencies and their period in seconds (spec: 1 min, 5 min, 15 min, 1 hour). */
export const FREQUENCIES = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600 } as const;
export type Frequency = keyof typeof FREQUENCIES;
export const FREQUENCY_NAMES = Object.keys(FREQUENCIES) as [Frequency, ...Frequency[]];

export const MONITOR_TYPES = ["api", "flow"] as const;
/** Announced in the spec as coming soon: accepted by the schema only to be refused by name. */
export const COMING_SOON_TYPES = ["browser", "e2e"] as const;
export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
/** Only these methods carry a request body (spec: HTTP monitor). */
export const BODY_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"]);
export const MAX_STEPS = 20;
export const MAX_ASSERTIONS = 50;
export const MAX_REQUEST_BODY_CHARS = 64 * 1024;
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
export const DEFAULT_ASSERTIONS: readonly Assertion[] = [
  { type: "status_code", operator: "equals", value: "200" },
  { type: "response_time", operator: "less_than", value: "3000" },
];

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
      .max(50)
      .default([]),
    body: z.string().max(MAX_REQUEST_BODY_CHARS).optional(),
    assertions: z.array(Assertion).max(MAX_ASSERTIONS).optional(),
    extract: z
      .array(
        z
          .object({
            name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, {
              error: "must be a name of letters, digits, _ . - (starting with a letter or _)",
            }),
            path: z.string().min(1).max(1000),
          })
          .strict(),
      )
      .max(20)
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
    frequency: z.enum(FREQUENCY_NAMES).default("5m"),
    timeoutSeconds: z.number().int().min(1).max(60).default(10),
    locations: z
      .array(z.literal("default", { error: "the only location is 'default'" }))
      .min(1)
      .max(1)
      .default(["default"]),
    alertAfter: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(1)
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

export type MonitorType = (typeof MONITOR_TYPES)[number];
export type StepDefinition = Omit<z.output<typeof Step>, "assertions" | "name"> & {
  name: string;
  assertions: Assertion[];
};

/** A validated monitor definition as stored and run: defaults applied, every step named. */
export interface MonitorDefinition {
  name: string;
  type: MonitorType;
  frequency: Frequency;
  timeoutSeconds: number;
  locations: ["default"];
  alertAfter: number;
  channelIds: string[];
  steps: StepDefinition[];
}

/** Validates input (create, or an existing definition merged with a patch) into a definition. */
export function toDefinition(parsed: z.output<typeof CreateMonitorInput>): MonitorDefinition {
  return {
    ...parsed,
    type: parsed.type as MonitorType,
    locations: ["default"],
    channelIds: [...new Set(parsed.channelIds)],
    steps: parsed.steps.map((step, i) => ({
      ...step,
      name: step.name || `Step ${i + 1}`,
      assertions: step.assertions?.length ? step.assertions : [...DEFAULT_ASSERTIONS],
    })),
  };
}
