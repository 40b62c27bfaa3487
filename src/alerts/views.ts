import { z } from "zod";
import type { AlertEventRecord } from "../meta/repositories/alert-events.js";
import type { AlertRuleRecord, AlertStatus } from "../meta/repositories/alert-rules.js";
import type { AlertSeriesRecord } from "../meta/repositories/alert-series.js";
import {
  ALERT_STATUSES,
  ALERT_UNIT_NAMES,
  ALERT_WARNINGS,
  type AlertWarningCode,
} from "./catalog.js";
import {
  ALERT_EVENT_KINDS,
  ALERT_INTERVAL_NAMES,
  ALERT_RULE_STATES,
  ALERT_SEVERITIES,
  AlertCondition,
  NO_DATA_MODES,
  PresetRef,
  SERIES_STATES,
} from "./definition.js";
import { backoffUntil } from "./evaluation.js";
import { presetUnit } from "./presets.js";
import type { PlannedSeries } from "./series-plan.js";

export { ALERT_STATUSES };

/** True while a mute holds: muted indefinitely, or until a time still ahead. */
export const isMuted = (rule: Pick<AlertRuleRecord, "muted" | "mutedUntil">, now: Date): boolean =>
  rule.muted && (rule.mutedUntil === null || Date.parse(rule.mutedUntil) > now.getTime());

/** The spec's alert status: muted (while a mute holds), else active if a series fires, else resolved. */
export function alertStatus(
  rule: Pick<AlertRuleRecord, "muted" | "mutedUntil">,
  series: readonly Pick<AlertSeriesRecord, "state">[],
  now: Date,
): AlertStatus {
  if (isMuted(rule, now)) return "muted";
  return series.some((s) => s.state === "firing") ? "active" : "resolved";
}

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

export const LastEvaluationView = z
  .object({
    at: z.string(),
    durationMs: z.number().int().nullable(),
    value: z.number().nullable().describe("The largest value over the series; null if none"),
    series: z.number().int().nullable(),
    error: z.string().nullable().describe("Why the last evaluation failed; null when it worked"),
  })
  .meta({ id: "AlertLastEvaluation" });

export const AlertWarningView = z
  .object({
    code: z.enum(Object.keys(ALERT_WARNINGS) as [AlertWarningCode, ...AlertWarningCode[]]),
    message: z.string(),
  })
  .meta({ id: "AlertWarning" });
export type AlertWarningView = z.infer<typeof AlertWarningView>;

/** What deserves a look on a rule, though it was saved: no channel (it notifies no one). */
export function ruleWarnings(rule: Pick<AlertRuleRecord, "channelIds">): AlertWarningView[] {
  return rule.channelIds.length === 0
    ? [{ code: "no_channels", message: ALERT_WARNINGS.no_channels }]
    : [];
}

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

export function toLastEvaluation(rule: AlertRuleRecord): z.infer<typeof LastEvaluationView> | null {
  if (rule.lastEvaluatedAt === null) return null;
  return {
    at: rule.lastEvaluatedAt,
    durationMs: rule.lastDurationMs,
    value: rule.lastValue,
    series: rule.lastSeries,
    error: rule.lastError,
  };
}

export function toFailing(rule: AlertRuleRecord): z.infer<typeof FailingView> | null {
  if (rule.failures === 0 || rule.failingSince === null) return null;
  const until = backoffUntil(rule);
  return {
    since: rule.failingSince,
    failures: rule.failures,
    reason: rule.lastError ?? "unknown",
    nextEvaluationAt: until === null ? null : new Date(until).toISOString(),
  };
}

export function toRuleView(
  rule: AlertRuleRecord,
  series: readonly AlertSeriesRecord[],
  now: Date,
): AlertRuleView {
  const { definition: d } = rule;
  const muted = isMuted(rule, now);
  return {
    id: rule.id,
    projectId: rule.projectId,
    name: rule.name,
    description: rule.description,
    severity: rule.severity,
    query: rule.query,
    preset: d.preset,
    condition: d.condition,
    unit: presetUnit(d.preset),
    interval: d.interval,
    forSeconds: d.forSeconds,
    noData: d.noData,
    renotifyMinutes: d.renotifyMinutes,
    openIncident: d.openIncident,
    messageTemplate: d.messageTemplate,
    channelIds: rule.channelIds,
    warnings: ruleWarnings(rule),
    status: alertStatus(rule, series, now),
    state: rule.state,
    failing: toFailing(rule),
    muted,
    mutedUntil: muted ? rule.mutedUntil : null,
    firingSeries: series.filter((s) => s.state === "firing").length,
    lastEvaluation: toLastEvaluation(rule),
    createdBy: rule.createdBy,
    createdAt: rule.createdAt,
    updatedAt: rule.updatedAt,
  };
}

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

export const toEventView = (e: AlertEventRecord): AlertEventView => ({
  id: e.id,
  ruleId: e.ruleId,
  kind: e.kind,
  seriesKey: e.seriesKey,
  labels: e.labels,
  value: e.value,
  threshold: e.threshold,
  at: e.at,
  notified: e.notified,
  incidentId: e.incidentId,
  message: e.message,
});

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

export const toSeriesView = (s: AlertSeriesRecord): z.infer<typeof SeriesStateView> => ({
  seriesKey: s.seriesKey,
  labels: s.labels,
  state: s.state,
  pendingSince: s.pendingSince,
  firedAt: s.firedAt,
  lastValue: s.lastValue,
  lastEvaluatedAt: s.lastEvaluatedAt,
});

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
        transition: z.enum(["none", "pending", "fired", "resolved", "cancelled"]),
        message: z.string().describe("The message template filled for this series"),
      }),
    ),
  })
  .meta({ id: "AlertPreview" });
export type AlertPreviewView = z.infer<typeof AlertPreviewView>;

export const toPreviewSeries = (
  planned: PlannedSeries,
  message: string,
): AlertPreviewView["series"][number] => ({
  seriesKey: planned.seriesKey,
  labels: planned.labels,
  value: planned.value,
  breaching: planned.breaching,
  state: planned.previous,
  nextState: planned.next.state,
  transition: planned.next.transition,
  message,
});
