import { z } from "zod";
import {
  ALERT_EVENT_KINDS,
  ALERT_INTERVAL_NAMES,
  ALERT_PRESET_KINDS,
  ALERT_RULE_STATES,
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  ALERT_UNIT_NAMES,
  ALERT_WARNINGS,
  type AlertWarningCode,
  CONDITION_OPS,
  DEFAULT_MESSAGE_TEMPLATE,
  MAX_FOR_SECONDS,
  MAX_QUERY_CHARS,
  MAX_RENOTIFY_MINUTES,
  NO_DATA_MODES,
  SERIES_STATES,
  SERIES_TRANSITIONS,
  templatePlaceholders,
} from "./alert-catalog.js";

// The alert rule API's request and response schemas (zod: validation and OpenAPI alike), shared
// by the server and the dashboard. The plain settings and limits they check against are in
// alert-catalog.ts; the /v1/alerts read views are in alert-reads.ts.

export const AlertCondition = z
  .object({
    op: z.enum(CONDITION_OPS).describe("How `value` is compared with the threshold"),
    threshold: z.number().finite(),
  })
  .strict()
  .meta({ id: "AlertCondition" });
export type AlertCondition = z.output<typeof AlertCondition>;

/** A preset reference as stored; its params are checked by the preset registry (alerts/presets.ts). */
export const PresetRef = z
  .object({
    kind: z.string().min(1).max(64).describe("The preset's name, e.g. error_rate"),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
  .meta({ id: "AlertPresetRef" });
export type PresetRef = z.output<typeof PresetRef>;

const MessageTemplate = z
  .string()
  .max(2000)
  .superRefine((template, ctx) => {
    const { unknown } = templatePlaceholders(template);
    if (unknown.length > 0)
      ctx.addIssue({
        code: "custom",
        message: `unknown placeholder {{${unknown[0]}}}: use {{value}}, {{threshold}} or {{labels.NAME}}`,
      });
  })
  .describe(
    "Sent with each notification; {{value}}, {{threshold}} and {{labels.NAME}} are filled in",
  );

const RuleFields = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(""),
    severity: z.enum(ALERT_SEVERITIES).default("medium"),
    query: z
      .string()
      .trim()
      .min(1)
      .max(MAX_QUERY_CHARS)
      .optional()
      .describe("A TQL SELECT returning a numeric `value` column; other columns are labels"),
    preset: PresetRef.optional().describe("Instead of `query`: a preset compiled to TQL"),
    condition: AlertCondition,
    interval: z.enum(ALERT_INTERVAL_NAMES).default("1m"),
    forSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_FOR_SECONDS)
      .default(0)
      .describe("How long a series must breach before it fires; 0 = at once"),
    noData: z
      .enum(NO_DATA_MODES)
      .default("ok")
      .describe("When the query returns no rows: treat as ok, as breaching, or keep states"),
    renotifyMinutes: z
      .number()
      .int()
      .min(0)
      .max(MAX_RENOTIFY_MINUTES)
      .default(0)
      .describe("While firing, notify again this often; 0 = never"),
    openIncident: z.boolean().default(false),
    messageTemplate: MessageTemplate.default(DEFAULT_MESSAGE_TEMPLATE),
    channelIds: z.array(z.string().min(1).max(64)).max(20).default([]),
    escalationPolicyId: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .default(null)
      .describe(
        "An escalation policy of the project run on the rule's incidents (needs openIncident); null = none",
      ),
  })
  .strict();

function refineSource(
  rule: { query?: string | undefined; preset?: PresetRef | undefined },
  ctx: z.RefinementCtx,
): void {
  if (rule.query !== undefined && rule.preset !== undefined)
    ctx.addIssue({ code: "custom", path: ["query"], message: "give either query or preset" });
  if (rule.query === undefined && rule.preset === undefined)
    ctx.addIssue({ code: "custom", path: ["query"], message: "give a query or a preset" });
}

export const CreateAlertRuleInput = RuleFields.superRefine(refineSource).meta({
  id: "CreateAlertRuleInput",
});
export type CreateAlertRuleInput = z.input<typeof CreateAlertRuleInput>;
export type ParsedAlertRuleInput = z.output<typeof CreateAlertRuleInput>;

type WithoutDefault<S> = S extends z.ZodDefault<infer T> ? T : S;
/** The fields without their defaults: a patch that omits a field must not reset it. */
const PatchFields = z
  .object(
    Object.fromEntries(
      Object.entries(RuleFields.shape).map(([key, schema]) => [
        key,
        schema instanceof z.ZodDefault ? schema.unwrap() : schema,
      ]),
    ) as { [K in keyof typeof RuleFields.shape]: WithoutDefault<(typeof RuleFields.shape)[K]> },
  )
  .strict();

/**
 * PATCH: any subset of the fields. Giving `query` drops a preset and giving `preset` drops a
 * query; the merged rule is validated again.
 */
export const UpdateAlertRuleInput = PatchFields.partial()
  .refine((patch) => Object.keys(patch).length > 0, { error: "give at least one field to change" })
  .meta({ id: "UpdateAlertRuleInput" });
export type UpdateAlertRuleInput = z.input<typeof UpdateAlertRuleInput>;

export const MuteAlertRuleInput = z
  .object({
    until: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("Muted until this time (ISO 8601); absent = indefinitely"),
  })
  .strict()
  .meta({ id: "MuteAlertRuleInput" });
export type MuteAlertRuleInput = z.input<typeof MuteAlertRuleInput>;

export const FailingView = z
  .object({
    since: z.string().describe("When the first of the failed evaluations in a row ran"),
    failures: z.number().int().describe("Failed evaluations in a row"),
    reason: z.string().describe("Why the last one failed"),
    nextEvaluationAt: z
      .string()
      .nullable()
      .describe(
        "When a rule backing off (two failures or more) is evaluated next; null: at its interval",
      ),
  })
  .meta({ id: "AlertFailing" });
export type FailingView = z.infer<typeof FailingView>;

export const LastEvaluationView = z
  .object({
    at: z.string(),
    durationMs: z.number().int().nullable(),
    value: z.number().nullable().describe("The largest value over the series; null if none"),
    series: z.number().int().nullable(),
    error: z.string().nullable().describe("Why the last evaluation failed; null when it worked"),
  })
  .meta({ id: "AlertLastEvaluation" });
export type LastEvaluationView = z.infer<typeof LastEvaluationView>;

export const AlertWarningView = z
  .object({
    code: z.enum(Object.keys(ALERT_WARNINGS) as [AlertWarningCode, ...AlertWarningCode[]]),
    message: z.string(),
  })
  .meta({ id: "AlertWarning" });
export type AlertWarningView = z.infer<typeof AlertWarningView>;

/** An alert rule as the management API shows it: definition, mute and where it stands. */
export const AlertRuleView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    description: z.string(),
    severity: z.enum(ALERT_SEVERITIES),
    query: z.string().describe("The TQL evaluated: yours, or the preset compiled"),
    preset: PresetRef.nullable().describe("The preset and its parameters, when the rule uses one"),
    condition: AlertCondition,
    unit: z
      .enum(ALERT_UNIT_NAMES)
      .nullable()
      .describe(
        "The unit of the value and the threshold: `percent` (error rate, 0–100, as the Overview shows it), `ms` (latency), `count`; null for a TQL query or a metric (its own unit)",
      ),
    interval: z.enum(ALERT_INTERVAL_NAMES),
    forSeconds: z.number().int(),
    noData: z.enum(NO_DATA_MODES),
    renotifyMinutes: z.number().int(),
    openIncident: z.boolean(),
    messageTemplate: z.string(),
    channelIds: z.array(z.string()),
    escalationPolicyId: z
      .string()
      .nullable()
      .describe("The escalation policy run on the rule's incidents; null = none"),
    warnings: z
      .array(AlertWarningView)
      .describe(
        "What deserves a look, though the rule is saved and evaluated: `no_channels` (it notifies no one)",
      ),
    status: z
      .enum(ALERT_STATUSES)
      .describe("muted while a mute holds, else active if a series fires"),
    state: z.enum(ALERT_RULE_STATES).describe("The worst series state, or error"),
    failing: FailingView.nullable().describe(
      "While the rule's evaluations fail (its query errs or times out): since when, how often and why; null while they work. A failing rule keeps its series' last states, so its status is not a verdict on the data",
    ),
    muted: z.boolean().describe("True while a mute holds (an expired mute counts as unmuted)"),
    mutedUntil: z.string().nullable().describe("While muted: until when; null = indefinitely"),
    firingSeries: z.number().int(),
    lastEvaluation: LastEvaluationView.nullable(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "AlertRule" });
export type AlertRuleView = z.infer<typeof AlertRuleView>;

const Labels = z.record(z.string(), z.string()).describe("The series' label columns, as text");

export const AlertEventView = z
  .object({
    id: z.string(),
    ruleId: z.string(),
    kind: z.enum(ALERT_EVENT_KINDS),
    seriesKey: z.string(),
    labels: Labels,
    value: z.number().nullable(),
    threshold: z.number(),
    at: z.string(),
    notified: z.boolean().describe("False while the rule was muted"),
    incidentId: z.string().nullable(),
    message: z.string().nullable(),
  })
  .meta({ id: "AlertEvent" });
export type AlertEventView = z.infer<typeof AlertEventView>;

export const SeriesStateView = z
  .object({
    seriesKey: z.string(),
    labels: Labels,
    state: z.enum(SERIES_STATES),
    pendingSince: z.string().nullable(),
    firedAt: z.string().nullable(),
    lastValue: z.number().nullable(),
    lastEvaluatedAt: z.string().nullable(),
  })
  .meta({ id: "AlertSeries" });
export type SeriesStateView = z.infer<typeof SeriesStateView>;

/** An evaluation run now and not recorded: each series and the state it would take. */
export const AlertPreviewView = z
  .object({
    evaluatedAt: z.string(),
    durationMs: z.number().int(),
    query: z.string(),
    labels: z.array(z.string()).describe("The label columns: each distinct set is one series"),
    noData: z.boolean().describe("True when the query returned no rows"),
    series: z.array(
      z.object({
        seriesKey: z.string(),
        labels: Labels,
        value: z.number().nullable(),
        breaching: z
          .union([z.boolean(), z.literal("no_data_keep")])
          .describe(
            "Whether the value meets the condition; no_data_keep: state kept (noData keep)",
          ),
        state: z.enum(SERIES_STATES).describe("The state stored now (ok for a new series)"),
        nextState: z.enum(SERIES_STATES).describe("The state this evaluation would give it"),
        transition: z.enum(SERIES_TRANSITIONS),
        message: z.string().describe("The message template filled for this series"),
      }),
    ),
  })
  .meta({ id: "AlertPreview" });
export type AlertPreviewView = z.infer<typeof AlertPreviewView>;

/** A preset's unit as the editor shows it beside the threshold: name, symbol and bounds. */
export const AlertUnitView = z
  .object({
    name: z.enum(ALERT_UNIT_NAMES),
    symbol: z.string().describe("Shown after a value: `%`, `ms`, or empty for a count"),
    min: z.number().optional().describe("No value is below it"),
    max: z.number().optional().describe("No value is above it"),
    integer: z.boolean().optional().describe("Whole numbers only"),
  })
  .meta({ id: "AlertUnit" });
export type AlertUnitView = z.infer<typeof AlertUnitView>;

/** A preset as the dashboard's rule editor offers it: its parameters as JSON Schema. */
export const AlertPresetView = z
  .object({
    kind: z.enum(ALERT_PRESET_KINDS),
    title: z.string(),
    description: z.string(),
    unit: AlertUnitView.nullable().describe(
      "The unit of the value and of the threshold, and its bounds; null when it depends on the parameters (a metric's own unit)",
    ),
    params: z
      .record(z.string(), z.unknown())
      .describe(
        "JSON Schema (2020-12) of `preset.params`, input side: a parameter with a default is not required",
      ),
  })
  .meta({ id: "AlertPreset" });
export type AlertPresetView = z.infer<typeof AlertPresetView>;
