import { ALERT_WARNINGS, type AlertStatus } from "../contracts/alert-catalog.js";
import type {
  AlertEventView,
  AlertPreviewView,
  AlertRuleView,
  AlertWarningView,
  FailingView,
  LastEvaluationView,
  SeriesStateView,
} from "../contracts/alerts.js";
import type { AlertEventRecord } from "../meta/repositories/alert-events.js";
import type { AlertRuleRecord } from "../meta/repositories/alert-rules.js";
import type { AlertSeriesRecord } from "../meta/repositories/alert-series.js";
import { backoffUntil, isMuted } from "./evaluation.js";
import { presetUnit } from "./presets.js";
import type { PlannedSeries } from "./series-plan.js";

// Alert rules, events and series as the API shows them (the views are contracts/alerts.ts).

/** The spec's alert status: muted (while a mute holds), else active if a series fires, else resolved. */
export function alertStatus(
  rule: Pick<AlertRuleRecord, "muted" | "mutedUntil">,
  series: readonly Pick<AlertSeriesRecord, "state">[],
  now: Date,
): AlertStatus {
  if (isMuted(rule, now)) return "muted";
  return series.some((s) => s.state === "firing") ? "active" : "resolved";
}

/** What deserves a look on a rule, though it was saved: no channel (it notifies no one). */
export function ruleWarnings(rule: Pick<AlertRuleRecord, "channelIds">): AlertWarningView[] {
  return rule.channelIds.length === 0
    ? [{ code: "no_channels", message: ALERT_WARNINGS.no_channels }]
    : [];
}

export function toLastEvaluation(rule: AlertRuleRecord): LastEvaluationView | null {
  if (rule.lastEvaluatedAt === null) return null;
  return {
    at: rule.lastEvaluatedAt,
    durationMs: rule.lastDurationMs,
    value: rule.lastValue,
    series: rule.lastSeries,
    error: rule.lastError,
  };
}

export function toFailing(rule: AlertRuleRecord): FailingView | null {
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
    escalationPolicyId: d.escalationPolicyId,
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

export const toSeriesView = (s: AlertSeriesRecord): SeriesStateView => ({
  seriesKey: s.seriesKey,
  labels: s.labels,
  state: s.state,
  pendingSince: s.pendingSince,
  firedAt: s.firedAt,
  lastValue: s.lastValue,
  lastEvaluatedAt: s.lastEvaluatedAt,
});

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
