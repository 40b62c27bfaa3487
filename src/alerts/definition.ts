import { createHash } from "node:crypto";
import { z } from "zod";
import {
  ALERT_INTERVAL_NAMES,
  ALERT_INTERVALS,
  ALERT_SEVERITIES,
  type AlertInterval,
  CONDITION_OPS,
  DEFAULT_MESSAGE_TEMPLATE,
  MAX_FOR_SECONDS,
  MAX_QUERY_CHARS,
  MAX_RENOTIFY_MINUTES,
  NO_DATA_MODES,
  type NoDataMode,
} from "./catalog.js";

// The settings and limits are plain data the dashboard bundles too; importers find them here.
export * from "./catalog.js";

export const intervalMs = (interval: AlertInterval): number => ALERT_INTERVALS[interval] * 1000;

export const AlertCondition = z
  .object({
    op: z.enum(CONDITION_OPS).describe("How `value` is compared with the threshold"),
    threshold: z.number().finite(),
  })
  .strict()
  .meta({ id: "AlertCondition" });
export type AlertCondition = z.output<typeof AlertCondition>;

/** True when `value` breaches the condition. */
export function breaches(condition: AlertCondition, value: number): boolean {
  const t = condition.threshold;
  switch (condition.op) {
    case ">":
      return value > t;
    case ">=":
      return value >= t;
    case "<":
      return value < t;
    case "<=":
      return value <= t;
    case "=":
      return value === t;
    case "!=":
      return value !== t;
  }
}

/** A preset reference as stored; its params are checked by the preset registry (presets.ts). */
export const PresetRef = z
  .object({
    kind: z.string().min(1).max(64).describe("The preset's name, e.g. error_rate"),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
  .meta({ id: "AlertPresetRef" });
export type PresetRef = z.output<typeof PresetRef>;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const LABEL_PLACEHOLDER = /^labels\.([A-Za-z_][A-Za-z0-9_]*)$/;

/** The label names a template refers to; throws nothing, unknown placeholders are returned apart. */
export function templatePlaceholders(template: string): { labels: string[]; unknown: string[] } {
  const labels: string[] = [];
  const unknown: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? "";
    const label = LABEL_PLACEHOLDER.exec(name);
    if (label?.[1]) labels.push(label[1]);
    else if (name !== "value" && name !== "threshold") unknown.push(name);
  }
  return { labels, unknown };
}

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

/** Formats a value for a message: at most 6 significant digits, `no data` for null. */
export function formatAlertValue(value: number | null): string {
  if (value === null) return "no data";
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

/** Fills a message template; a placeholder naming a label the series lacks stays literal. */
export function renderMessage(
  template: string,
  values: { value: number | null; threshold: number; labels: Readonly<Record<string, string>> },
): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === "value") return formatAlertValue(values.value);
    if (name === "threshold") return formatAlertValue(values.threshold);
    const label = LABEL_PLACEHOLDER.exec(name)?.[1];
    return label !== undefined && Object.hasOwn(values.labels, label)
      ? (values.labels[label] ?? "")
      : whole;
  });
}

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

/**
 * A validated rule definition as stored (`alert_rules.definition`). The query itself is the
 * rule's `query` column: the user's, or the preset compiled (then `preset` is set).
 */
export interface AlertRuleDefinition {
  preset: PresetRef | null;
  condition: AlertCondition;
  interval: AlertInterval;
  forSeconds: number;
  noData: NoDataMode;
  renotifyMinutes: number;
  openIncident: boolean;
  messageTemplate: string;
}

/** Reads a stored definition back (it was validated on the way in; defaults fill old gaps). */
export const StoredDefinition = z.object({
  preset: PresetRef.nullable().default(null),
  condition: AlertCondition,
  interval: z.enum(ALERT_INTERVAL_NAMES).default("1m"),
  forSeconds: z.number().int().min(0).default(0),
  noData: z.enum(NO_DATA_MODES).default("ok"),
  renotifyMinutes: z.number().int().min(0).default(0),
  openIncident: z.boolean().default(false),
  messageTemplate: z.string().default(DEFAULT_MESSAGE_TEMPLATE),
});

export function toDefinition(parsed: ParsedAlertRuleInput): AlertRuleDefinition {
  return {
    preset: parsed.preset ?? null,
    condition: parsed.condition,
    interval: parsed.interval,
    forSeconds: parsed.forSeconds,
    noData: parsed.noData,
    renotifyMinutes: parsed.renotifyMinutes,
    openIncident: parsed.openIncident,
    messageTemplate: parsed.messageTemplate,
  };
}

/** Series key: the labels sorted by name, JSON-encoded (`{}` for a rule without labels). */
export function seriesKey(labels: Readonly<Record<string, string>>): string {
  const sorted: Record<string, string> = Object.create(null);
  for (const name of Object.keys(labels).sort()) sorted[name] = labels[name] ?? "";
  return JSON.stringify(sorted);
}

/** A series key's short stable hash (first 16 hex of its SHA-256), for event ids. */
export const seriesKeyHash = (key: string): string =>
  createHash("sha256").update(key).digest("hex").slice(0, 16);
