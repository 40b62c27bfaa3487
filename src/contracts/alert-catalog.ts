/**
 * Alert rule settings and limits as plain data, shared by the validation (definition.ts) and the
 * dashboard's rule editor (web/, which bundles this file: it imports only plain data).
 */
import { SEVERITIES, type Severity } from "../contracts/severity.js";

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
