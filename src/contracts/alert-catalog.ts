/**
 * Alert rule settings and limits as plain data, and the message template's pure functions,
 * shared by the rule schemas (contracts/alerts.ts), the domain (alerts/) and the dashboard's
 * rule editor (web/).
 */
import { SEVERITIES, type Severity } from "./severity.js";

/** Evaluation intervals and their period in seconds (docs/design.md §4: 30s, 1m, 5m, 15m, 1h). */
export const ALERT_INTERVALS = { "30s": 30, "1m": 60, "5m": 300, "15m": 900, "1h": 3600 } as const;
export type AlertInterval = keyof typeof ALERT_INTERVALS;
export const ALERT_INTERVAL_NAMES = Object.keys(ALERT_INTERVALS) as [
  AlertInterval,
  ...AlertInterval[],
];

export const CONDITION_OPS = [">", ">=", "<", "<=", "=", "!="] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
export const NO_DATA_MODES = ["ok", "alerting", "keep"] as const;
export type NoDataMode = (typeof NO_DATA_MODES)[number];
export const ALERT_SEVERITIES = SEVERITIES;
export type AlertSeverity = Severity;
/** A rule's state: its worst series state, or `error` when its last evaluation failed. */
export const ALERT_RULE_STATES = ["ok", "pending", "firing", "error"] as const;
export type AlertRuleState = (typeof ALERT_RULE_STATES)[number];
export const SERIES_STATES = ["ok", "pending", "firing"] as const;
export type SeriesState = (typeof SERIES_STATES)[number];
export const ALERT_EVENT_KINDS = [
  "pending",
  "fired",
  "resolved",
  "renotified",
  "error",
  "recovered_from_error",
  "no_data",
] as const;
export type AlertEventKind = (typeof ALERT_EVENT_KINDS)[number];
/** The spec's alert status: muted while a mute holds, else active if a series fires. */
export const ALERT_STATUSES = ["active", "muted", "resolved"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
/** What a preview says an evaluation would do to a series. */
export const SERIES_TRANSITIONS = ["none", "pending", "fired", "resolved", "cancelled"] as const;
/** The presets a rule can be built from (their registry is alerts/presets.ts), in catalog order. */
export const ALERT_PRESET_KINDS = [
  "error_rate",
  "latency_percentile",
  "log_count",
  "error_group_occurrences",
  "metric_aggregate",
] as const;
export type AlertPresetKind = (typeof ALERT_PRESET_KINDS)[number];

export const MAX_QUERY_CHARS = 50_000;
export const MAX_FOR_SECONDS = 86_400;
export const MAX_RENOTIFY_MINUTES = 10_080;
export const DEFAULT_MESSAGE_TEMPLATE = "value {{value}} (threshold {{threshold}})";

/**
 * The units a rule's value can be in, as the rest of the product shows them: error rates in
 * percent (as the Overview), durations in milliseconds, counts as plain numbers.
 */
export const ALERT_UNITS = {
  percent: { symbol: "%", label: "percent" },
  ms: { symbol: "ms", label: "milliseconds" },
  count: { symbol: "", label: "count" },
} as const;
export type AlertUnit = keyof typeof ALERT_UNITS;
export const ALERT_UNIT_NAMES = Object.keys(ALERT_UNITS) as [AlertUnit, ...AlertUnit[]];

/** A number in its unit as the product writes it: `5%`, `800 ms`, `10` (a count, or no unit). */
export function withUnit(value: number | string, unit: AlertUnit | null): string {
  const symbol = unit === null ? "" : ALERT_UNITS[unit].symbol;
  if (symbol === "") return String(value);
  return symbol === "%" ? `${value}%` : `${value} ${symbol}`;
}

/** Things about a saved rule worth a look; they never stop it from being saved. */
export const ALERT_WARNINGS = {
  no_channels:
    "This rule notifies no channel: it fires and records events, but tells no one. Add a channel, or keep it silent on purpose.",
} as const;
export type AlertWarningCode = keyof typeof ALERT_WARNINGS;

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
